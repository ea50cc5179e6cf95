// swift-tools-version:6.1
import PackageDescription

// Two processes on one Core Data store: `remote-changes` starts a copy of itself that saves
// notes, and hears each save as a remote-change notification, then reads what changed from
// persistent history by token. `swift build` compiles Notes.xcdatamodeld with modelc's plugin.
let package = Package(
    name: "RemoteChanges",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "modelc", path: "../.."),
    ],
    targets: [
        .executableTarget(
            name: "remote-changes",
            dependencies: [
                .product(name: "ModelObjects", package: "modelc"),
                .product(name: "ModelStack", package: "modelc"),
            ],
            // The plugin compiles the model; SwiftPM must not also treat it as a file of the target.
            exclude: ["Notes.xcdatamodeld"],
            plugins: [.plugin(name: "ModelCompilerPlugin", package: "modelc")]
        ),
    ]
)
