// swift-tools-version:6.1
import PackageDescription

// The object layer against GRDB and raw SQLite on the same store file (Benchmarks/object-layer.sh).
let package = Package(
    name: "ObjectLayerBenchmark",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(name: "modelc", path: "../.."),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.0.0"),
    ],
    targets: [
        .executableTarget(
            name: "object-layer-bench",
            dependencies: [
                .product(name: "ModelContext", package: "modelc"),
                .product(name: "ModelStack", package: "modelc"),
                .product(name: "ModelStore", package: "modelc"),
                .product(name: "ModelSchema", package: "modelc"),
                .product(name: "GRDB", package: "GRDB.swift"),
            ]
        )
    ]
)
