// swift-tools-version:6.1
import PackageDescription

// An app's persistence layer on modelc's object layer, shaped like the PersistenceController
// Xcode's Core Data template writes: `swift build` compiles Tasks.xcdatamodeld into Tasks.momd
// inside the Tasks module's resource bundle and generates the `TaskItem` class the model's
// codegen asks for (the target depends on ModelObjects, which generated classes need).
let package = Package(
    name: "PersistenceController",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "modelc", path: "../.."),
    ],
    targets: [
        .target(
            name: "Tasks",
            dependencies: [
                .product(name: "ModelObjects", package: "modelc"),
                .product(name: "ModelStack", package: "modelc"),
            ],
            // The plugin compiles the model; SwiftPM must not also treat it as a file of the target.
            exclude: ["Tasks.xcdatamodeld"],
            plugins: [.plugin(name: "ModelCompilerPlugin", package: "modelc")]
        ),
        .testTarget(name: "TasksTests", dependencies: ["Tasks", .product(name: "ModelObjects", package: "modelc")]),
    ]
)
