// swift-tools-version:6.1
import PackageDescription

// The object layer against GRDB on the same store file (Benchmarks/object-layer.sh):
// `ObjectLayerBenchmarks` runs on package-benchmark (`swift package benchmark`), side by side with
// GRDB's hand-written and Decodable records; `object-layer-bench` measures what a harness cannot
// (memory held per object, peak memory, query plans, history, merges, child saves).
let package = Package(
    name: "ObjectLayerBenchmark",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "modelc", path: "../.."),
        .package(url: "https://github.com/groue/GRDB.swift", exact: "7.10.0"),
        .package(url: "https://github.com/ordo-one/benchmark", exact: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        .target(
            name: "BenchFixtures",
            dependencies: [
                .product(name: "ModelObjects", package: "modelc"),
                .product(name: "ModelStack", package: "modelc"),
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            // modelc's build plugin generates the models' classes, as an app's build would.
            exclude: ["Models"],
            plugins: [.plugin(name: "ModelCompilerPlugin", package: "modelc")]
        ),
        .target(name: "CHeap"),
        .executableTarget(
            name: "object-layer-bench",
            dependencies: [
                "BenchFixtures",
                "CHeap",
                .product(name: "ModelObjects", package: "modelc"),
                .product(name: "ModelStack", package: "modelc"),
                .product(name: "ModelSchema", package: "modelc"),
                .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
        .executableTarget(
            name: "ObjectLayerBenchmarks",
            dependencies: [
                "BenchFixtures",
                .product(name: "ModelObjects", package: "modelc"),
                .product(name: "ModelStack", package: "modelc"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/ObjectLayerBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
    ]
)
