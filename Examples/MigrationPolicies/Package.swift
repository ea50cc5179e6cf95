// swift-tools-version:6.1
import PackageDescription

// An app team's migration with its own entity migration policy, on Linux: a Swift port of
// CoreDataPlus's V2to3MakerPolicy registered with modelc's migration manager.
let package = Package(
    name: "MigrationPolicies",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "modelc", path: "../.."),
    ],
    targets: [
        .executableTarget(
            name: "migrate-sample",
            dependencies: [
                .product(name: "ModelCompiler", package: "modelc"),
                .product(name: "ModelExpression", package: "modelc"),
                .product(name: "ModelMigration", package: "modelc"),
                .product(name: "ModelSchema", package: "modelc"),
                .product(name: "ModelStore", package: "modelc"),
                .product(name: "ModelXML", package: "modelc"),
            ]
        ),
    ]
)
