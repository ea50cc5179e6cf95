// swift-tools-version:6.1
import PackageDescription

// The persistence code of Xcode's Core Data app template, and a guide's history-tracking stack,
// compiled unchanged but for Core Data's `@NSManaged`, which the build plugin's generated
// classes spell `@Managed`. On Linux, Windows and Android `import CoreData` is modelc's CoreData
// module; on Apple platforms the condition leaves it out and Apple's framework is imported.
let package = Package(
    name: "CoreDataTemplate",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "modelc", path: "../.."),
    ],
    targets: [
        .target(
            name: "Items",
            dependencies: [
                .product(name: "CoreData", package: "modelc", condition: .when(platforms: [.linux, .windows, .android])),
            ],
            exclude: ["Items.xcdatamodeld"],
            plugins: [.plugin(name: "ModelCompilerPlugin", package: "modelc")]
        ),
        .testTarget(name: "ItemsTests", dependencies: ["Items"]),
    ],
    swiftLanguageModes: [.v5]
)
