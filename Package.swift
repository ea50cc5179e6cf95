// swift-tools-version:6.1
import CompilerPluginSupport
import PackageDescription

let package = Package(
    name: "modelc",
    // macOS 15 and iOS 18: the object layer's locks and counters use the Synchronization
    // module's `Mutex` and `Atomic`, which need them (Documentation/Platforms.md).
    platforms: [.macOS(.v15), .iOS(.v18)],
    products: [
        .executable(name: "modelc", targets: ["modelc"]),
        .library(name: "ModelSchema", targets: ["ModelSchema"]),
        .library(name: "ModelXML", targets: ["ModelXML"]),
        .library(name: "ModelExpression", targets: ["ModelExpression"]),
        .library(name: "ModelArchive", targets: ["ModelArchive"]),
        .library(name: "ModelCompiler", targets: ["ModelCompiler"]),
        .library(name: "ModelStore", targets: ["ModelStore"]),
        .library(name: "ModelMigration", targets: ["ModelMigration"]),
        .library(name: "ModelStack", targets: ["ModelStack"]),
        .library(name: "ModelObjects", targets: ["ModelObjects"]),
        // Core Data's names over the object layer, for `import CoreData` where Apple's framework
        // is absent: depend on it with `condition: .when(platforms: [.linux, .windows, .android])`.
        .library(name: "CoreData", targets: ["CoreData"]),
        .plugin(name: "ModelCompilerPlugin", targets: ["ModelCompilerPlugin"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.0.0"),
        .package(url: "https://github.com/swiftlang/swift-syntax", "600.0.0"..<"604.0.0"),
        // `swift package generate-documentation`: the DocC catalogs under Sources/*/*.docc.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        // The system's libxml2 (Debian: libxml2-dev).
        .systemLibrary(
            name: "CLibXML2",
            pkgConfig: "libxml-2.0",
            providers: [.apt(["libxml2-dev"]), .brew(["libxml2"])]
        ),
        // SHA-2's compression functions, in C so that debug builds hash at a useful speed.
        .target(name: "CSHA2"),
        .target(name: "ModelSchema", dependencies: ["CSHA2"]),
        .target(name: "ModelXML", dependencies: ["ModelSchema", "CLibXML2"]),
        // The system's zlib, for the raw DEFLATE of a store's model cache.
        .systemLibrary(name: "CZlib", providers: [.apt(["zlib1g-dev"])]),
        // glibc's mallopt, for the CLI's allocator settings.
        .systemLibrary(name: "CMalloc"),
        .target(name: "ModelExpression", dependencies: ["ModelSchema"]),
        .target(name: "ModelArchive", dependencies: ["ModelSchema", "ModelExpression", "CZlib"]),
        .target(name: "ModelCompiler", dependencies: ["ModelSchema", "ModelXML", "ModelExpression", "ModelArchive"]),
        .target(
            name: "ModelStore",
            dependencies: [
                "ModelSchema", "ModelArchive", "ModelExpression", .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
            ]
        ),
        .target(
            name: "ModelMigration",
            dependencies: ["ModelSchema", "ModelArchive", "ModelExpression", "ModelStore", .product(name: "GRDB", package: "GRDB.swift")]
        ),
        .target(
            name: "ModelStack",
            dependencies: ["ModelSchema", "ModelCompiler", "ModelStore", "ModelMigration", .product(name: "GRDB", package: "GRDB.swift")]
        ),
        .target(
            name: "ModelObjects",
            dependencies: [
                "ModelSchema", "ModelArchive", "ModelExpression", "ModelStore", "ModelStack", .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
        // `@Managed`, the stand-in for `@NSManaged`: the macro's expansion runs in the compiler.
        .macro(
            name: "ModelMacros",
            dependencies: [
                .product(name: "SwiftSyntax", package: "swift-syntax"),
                .product(name: "SwiftDiagnostics", package: "swift-syntax"),
                .product(name: "SwiftSyntaxMacros", package: "swift-syntax"),
                .product(name: "SwiftCompilerPlugin", package: "swift-syntax"),
            ]
        ),
        .target(name: "CoreData", dependencies: ["ModelSchema", "ModelCompiler", "ModelObjects", "ModelStack", "ModelMacros"]),
        .executableTarget(
            name: "modelc",
            dependencies: [
                "CMalloc",
                "ModelArchive",
                "ModelMigration",
                "ModelCompiler",
                "ModelStack",
                "ModelStore",
                "ModelObjects",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // Compiles a target's models at build time with the modelc executable above.
        .plugin(name: "ModelCompilerPlugin", capability: .buildTool(), dependencies: ["modelc"]),
        .target(
            name: "_ModelTestSupport",
            dependencies: ["ModelSchema", "ModelXML", "ModelCompiler"],
            path: "Tests/_ModelTestSupport"
        ),
        .testTarget(name: "ModelSchemaTests", dependencies: ["ModelSchema", "CSHA2", "_ModelTestSupport"]),
        .testTarget(name: "ModelXMLTests", dependencies: ["ModelXML", "_ModelTestSupport"]),
        .testTarget(name: "ModelExpressionTests", dependencies: ["ModelExpression", "ModelCompiler", "_ModelTestSupport"]),
        .testTarget(name: "ModelArchiveTests", dependencies: ["ModelArchive", "ModelXML", "_ModelTestSupport"]),
        .testTarget(
            name: "ModelCompilerTests",
            dependencies: ["ModelArchive", "ModelCompiler", "ModelMigration", "ModelStore", "_ModelTestSupport"]
        ),
        .testTarget(name: "ModelStoreTests", dependencies: ["ModelStore", "ModelXML", "_ModelTestSupport", .product(name: "GRDB", package: "GRDB.swift")]),
        .testTarget(
            name: "ModelMigrationTests",
            dependencies: ["ModelMigration", "ModelStore", "ModelXML", "ModelArchive", "ModelCompiler", "ModelExpression", "_ModelTestSupport", .product(name: "GRDB", package: "GRDB.swift")]
        ),
        .testTarget(
            name: "ModelStackTests",
            dependencies: ["ModelStack", "ModelStore", "_ModelTestSupport", .product(name: "GRDB", package: "GRDB.swift")]
        ),
        // A second process for the object layer's two-process tests, which run the built binary.
        .executableTarget(name: "ContextWorker", dependencies: ["ModelObjects", "ModelStack"], path: "Tests/ContextWorker"),
        .testTarget(
            name: "ModelObjectsTests",
            dependencies: [
                "ContextWorker", "ModelObjects", "ModelCompiler", "ModelStack", "ModelStore", "ModelXML", "_ModelTestSupport",
                .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
        // Core Data code ported by renaming only, run against the `CoreData` module, and the
        // expansions of its macros.
        .testTarget(
            name: "CoreDataTests",
            dependencies: [
                "CoreData", "ModelMacros", "ModelCompiler", "_ModelTestSupport",
                .product(name: "SwiftSyntaxMacroExpansion", package: "swift-syntax"),
                .product(name: "SwiftSyntaxMacrosGenericTestSupport", package: "swift-syntax"),
            ],
            exclude: ["Notes.xcdatamodeld"]
        ),
        .testTarget(name: "modelcTests", dependencies: ["modelc", "ModelStore", "ModelXML", "_ModelTestSupport", .product(name: "GRDB", package: "GRDB.swift")]),
    ]
)
