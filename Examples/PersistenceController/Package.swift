// swift-tools-version:6.1
import PackageDescription

// An app's persistence layer on modelc's loading stack, shaped like the PersistenceController
// Xcode's Core Data template writes: `swift build` compiles Tasks.xcdatamodeld into Tasks.momd
// inside the Tasks module's resource bundle, and the controller loads its store from it.
let package = Package(
    name: "PersistenceController",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(name: "modelc", path: "../.."),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.0.0"),
    ],
    targets: [
        .target(
            name: "Tasks",
            dependencies: [
                .product(name: "ModelSchema", package: "modelc"),
                .product(name: "ModelStack", package: "modelc"),
                .product(name: "ModelStore", package: "modelc"),
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            // The plugin compiles the model; SwiftPM must not also treat it as a file of the target.
            exclude: ["Tasks.xcdatamodeld"],
            plugins: [.plugin(name: "ModelCompilerPlugin", package: "modelc")]
        ),
        .testTarget(name: "TasksTests", dependencies: ["Tasks"]),
    ]
)
