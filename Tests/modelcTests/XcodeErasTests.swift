import Foundation
import ModelArchive
import Testing
import _ModelTestSupport

/// Every Xcode era as a user meets it, through the built binary: Xcode 3 sources
/// (`elements`/`layout`) beside newer versions, and `.momd` bundles compiled by different
/// Xcodes. Expected values come from the real files (a store Core Data 241 wrote, Xcode's own
/// `VersionInfo.plist` and `.mom` files).
@Suite(Corpus.required)
struct XcodeErasTests {
    static let recipes = "thepost__iPhoneCoreDataRecipesMigration/Recipes.xcdatamodeld"
    static let simplenote = "Automattic__simplenote-ios/Simplenote/Simplenote.xcdatamodeld"

    func json(_ run: Modelc.Run) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(run.standardOutput.utf8)) as? [String: Any], "\(run.standardError)")
    }

    // MARK: - Xcode 3 sources

    @Test(arguments: [recipes, simplenote])
    func bundlesWithXcode3VersionsValidateHashAndCompileWhole(_ relative: String) throws {
        let path = Corpus.path(relative)
        let validate = try Modelc.run(["validate", path])
        #expect(validate.status == 0, "\(validate.standardError)")
        let hash = try json(try Modelc.run(["hash", path, "--json"]))
        let versions = try #require(hash["versions"] as? [[String: Any]])
        #expect(versions.allSatisfy { ($0["entities"] as? [String: String])?.isEmpty == false })
        try withTemporaryDirectory { folder in
            let compile = try Modelc.run(["compile", path, "-o", folder.path])
            #expect(compile.status == 0, "\(compile.standardError)")
            let name = URL(fileURLWithPath: relative).deletingPathExtension().lastPathComponent
            let momd = folder.appendingPathComponent("\(name).momd")
            let info = try VersionInfo.decode([UInt8](try Data(contentsOf: momd.appendingPathComponent("VersionInfo.plist"))))
            #expect(info.versionHashes.count == versions.count)
            // The compiled bundle decompiles to today's XML with the same hashes.
            let decompile = try Modelc.run(["decompile", momd.path, "-o", folder.appendingPathComponent("back").path])
            #expect(decompile.status == 0, "\(decompile.standardError)")
            let again = try json(try Modelc.run(["hash", folder.appendingPathComponent("back/\(name).xcdatamodeld").path, "--json"]))
            #expect(NSArray(array: try #require(again["versions"] as? [[String: Any]])) == NSArray(array: versions))
            // The source itself rewrites to today's XML with the same hashes.
            let rewrite = try Modelc.run(["decompile", path, "-o", folder.appendingPathComponent("xml").path])
            #expect(rewrite.status == 0, "\(rewrite.standardError)")
            let xml = folder.appendingPathComponent("xml/\(name).xcdatamodeld")
            let contents = try FileManager.default.subpathsOfDirectory(atPath: xml.path).filter { $0.hasSuffix("/contents") }
            #expect(contents.count == versions.count)
            let rewritten = try json(try Modelc.run(["hash", xml.path, "--json"]))
            #expect(NSArray(array: try #require(rewritten["versions"] as? [[String: Any]])) == NSArray(array: versions))
        }
    }

    /// thepost's store was written by Core Data 241 (Mac OS X 10.6) from one of the bundle's two
    /// Xcode 3 versions: its entity hashes must be those of one of them, all equal.
    @Test func theStoreCoreData241WroteIsRecognisedAsMadeByAnXcode3Version() throws {
        try withTemporaryDirectory { folder in
            let copy = folder.appendingPathComponent("Recipes.sqlite").path
            try FileManager.default.copyItem(
                atPath: Corpus.path("thepost__iPhoneCoreDataRecipesMigration/RecipeData/Recipes.sqlite"), toPath: copy)
            let run = try Modelc.run(["store", "info", copy, "--model", Corpus.path(Self.recipes), "--json"])
            #expect(run.status == 0, "\(run.standardError)")
            let report = try json(run)
            #expect(report["frameworkVersion"] as? String == "241" || report["frameworkVersion"] as? Int == 241
                || (report["frameworkVersion"] as? Double).map { $0 == 241 } == true, "\(report["frameworkVersion"] ?? "")")
            let matched = report["matchedVersion"] as? String
            #expect(matched == "Recipes" || matched == "Recipes 2", "differences: \(report["differences"] ?? "")")
        }
    }

    @Test func anUnreadableXcode3VersionIsReportedByItsFileNotAsX004() throws {
        try withTemporaryDirectory { folder in
            let version = folder.appendingPathComponent("Old.xcdatamodeld/Old.xcdatamodel")
            try FileManager.default.createDirectory(at: version, withIntermediateDirectories: true)
            // A keyed archive whose root is not an XDPMModel: the real first version's bytes with
            // the root class renamed.
            var bytes = try Data(contentsOf: URL(fileURLWithPath: Corpus.path("\(Self.recipes)/Recipes.xcdatamodel/elements")))
            bytes = bytes.replacing(Data("XDPMModel".utf8), with: Data("XDPMModeX".utf8))
            try bytes.write(to: version.appendingPathComponent("elements"))
            let run = try Modelc.run(["validate", folder.appendingPathComponent("Old.xcdatamodeld").path])
            #expect(run.status == 1)
            #expect(run.standardError.contains("[X016]"))
            #expect(run.standardError.contains("XDPMModeX"))
        }
    }

    // MARK: - Compiled bundles of every Xcode

    /// `decompile` then `hash` gives the hashes in Xcode's `VersionInfo.plist`, for every version.
    @Test(arguments: XcodeCompiled.all)
    func decompileThenHashReproducesXcodesHashes(_ golden: XcodeCompiled) throws {
        let info = try VersionInfo.decode([UInt8](try Data(contentsOf: URL(fileURLWithPath: Corpus.path("\(golden.momd)/VersionInfo.plist")))))
        try withTemporaryDirectory { folder in
            let run = try Modelc.run(["decompile", Corpus.path(golden.momd), "-o", folder.path])
            #expect(run.status == 0, "\(run.standardError)")
            #expect(run.standardOutput.contains("inferred") == (info.currentVersionName == nil))
            let name = URL(fileURLWithPath: golden.momd).deletingPathExtension().lastPathComponent
            let source = folder.appendingPathComponent("\(name).xcdatamodeld")
            #expect(FileManager.default.fileExists(atPath: source.appendingPathComponent(".xccurrentversion").path)
                == (info.currentVersionName != nil))
            let hash = try json(try Modelc.run(["hash", source.path, "--json"]))
            let versions = try #require(hash["versions"] as? [[String: Any]])
            #expect(versions.count == info.versionHashes.count)
            for version in versions {
                let name = try #require(version["name"] as? String)
                #expect(version["entities"] as? [String: String] == info.versionHashes[name]?.mapValues(\.hex), "\(name)")
                if let checksum = info.versionChecksums?[name] {
                    #expect(version["versionChecksum"] as? String == checksum)
                }
            }
            // Compiled again as the Xcode that made it, the bundle has Xcode's VersionInfo.plist.
            let out = folder.appendingPathComponent("out")
            let compile = try Modelc.run(["compile", source.path, "-o", out.path, "--xcode-version", golden.compiler.xcode])
            #expect(compile.status == 0, "\(compile.standardError)")
            let ours = try Data(contentsOf: out.appendingPathComponent("\(name).momd/VersionInfo.plist"))
            let apple = try Data(contentsOf: URL(fileURLWithPath: Corpus.path("\(golden.momd)/VersionInfo.plist")))
            #expect(try PropertyListSerialization.propertyList(from: ours, format: nil) as? NSDictionary
                == PropertyListSerialization.propertyList(from: apple, format: nil) as? NSDictionary)
        }
    }

    /// TranslationCatalog's three test stores, each against the three bundles Xcode 16.4 compiled
    /// (read as compiled models, two of them without a current version name): each store is
    /// recognised by its own bundle only.
    @Test(arguments: [("", 1), ("_v2", 2), ("_v3", 3)])
    func storesAreMatchedAgainstXcodeCompiledBundles(_ suffix: String, _ own: Int) throws {
        let root = "richardpiazza__TranslationCatalog@2735875"
        try withTemporaryDirectory { folder in
            let name = "test_multi_language_core_data\(suffix).sqlite"
            let copy = folder.appendingPathComponent(name).path
            try FileManager.default.copyItem(atPath: Corpus.path("\(root)/Tests/LocalizerTests/Resources/\(name)"), toPath: copy)
            for model in 1...3 {
                let momd = Corpus.path("\(root)/Sources/TranslationCatalogCoreData/PrecompiledResources/CatalogModel_\(model).momd_precompiled")
                let run = try Modelc.run(["store", "info", copy, "--model", momd, "--json"])
                #expect(run.status == 0, "\(run.standardError)")
                let matched = try json(run)["matchedVersion"] as? String
                #expect(matched == (model == own ? "CatalogModel" : nil), "store \(name), bundle \(model)")
            }
        }
    }

    /// `compile --xcode-version N` of Xcode's own source gives `.mom` files whose decoded graphs
    /// equal the ones that Xcode wrote.
    @Test(arguments: XcodeCompiled.all)
    func compiledMomsEqualXcodes(_ golden: XcodeCompiled) throws {
        try withTemporaryDirectory { folder in
            let run = try Modelc.run(["compile", Corpus.path(golden.source), "-o", folder.path, "--xcode-version", golden.compiler.xcode])
            #expect(run.status == 0, "\(run.standardError)")
            let name = URL(fileURLWithPath: golden.source).deletingPathExtension().lastPathComponent
            let momd = folder.appendingPathComponent("\(name).momd")
            let moms = try FileManager.default.contentsOfDirectory(atPath: momd.path).filter { $0.hasSuffix(".mom") }
            #expect(!moms.isEmpty)
            for mom in moms {
                let ours = try KeyedArchiveReader.unarchive([UInt8](try Data(contentsOf: momd.appendingPathComponent(mom))))
                let apple = try KeyedArchiveReader.unarchive([UInt8](try Data(contentsOf: URL(fileURLWithPath: Corpus.path("\(golden.momd)/\(mom)")))))
                #expect(ArchiveComparison.differences(apple, ours) == [], "\(mom)")
                ours.releaseGraph()
                apple.releaseGraph()
            }
        }
    }

    @Test func inspectSaysWhenTheCurrentVersionIsInferred() throws {
        let golden = try #require(XcodeCompiled.all.first { $0.momd.contains("CatalogModel_1") })
        let run = try Modelc.run(["inspect", Corpus.path(golden.momd), "--json"])
        #expect(run.status == 0, "\(run.standardError)")
        let report = try json(run)
        #expect(report["current"] as? String == "CatalogModel")
        #expect(report["currentInferred"] as? Bool == true)
    }

    @Test func anUnknownXcodeVersionIsAUsageError() throws {
        let run = try Modelc.run(["compile", "Models/Library.xcdatamodeld", "-o", ".build/unused", "--xcode-version", "9.9"])
        #expect(run.status == 64)
        #expect(run.standardError.contains("16.4"))
    }
}
