// swift-tools-version:6.1
import PackageDescription

// A package that uses modelc's build plugin: `swift build` compiles Notes.xcdatamodeld into
// Notes.momd inside NotesModel's resource bundle.
let package = Package(
    name: "PluginConsumer",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "modelc", path: "../.."),
    ],
    targets: [
        .target(
            name: "NotesModel",
            // The plugin compiles the model; SwiftPM must not also treat it as a file of the target.
            exclude: ["Notes.xcdatamodeld"],
            plugins: [.plugin(name: "ModelCompilerPlugin", package: "modelc")]
        ),
        .executableTarget(
            name: "notes-hashes",
            dependencies: [
                "NotesModel",
                .product(name: "ModelArchive", package: "modelc"),
                .product(name: "ModelSchema", package: "modelc"),
            ]
        ),
    ]
)
