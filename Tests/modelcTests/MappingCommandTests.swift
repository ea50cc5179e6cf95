import Foundation
import ModelArchive
import Testing
import _ModelTestSupport

/// `compile`, `decompile`, `inspect` and `diff --mapping` on mapping models, run as a built
/// binary against the corpus and the `.cdm` files Xcode compiled.
@Suite(Corpus.required)
struct MappingCommandTests {
    static let coreDataPlus = "alemar11__CoreDataPlus/Tests/Resources/SampleModel"
    static let catalog = "richardpiazza__TranslationCatalog@2735875/Sources/TranslationCatalogCoreData"

    /// Each `.xcmappingmodel` with Xcode's `.cdm` of it and the bundle of its source version.
    static let goldens: [(source: String, cdm: String, bundle: String)] = [
        ("\(coreDataPlus)/MappingModels/V2toV3.xcmappingmodel", "\(coreDataPlus)/Fixtures/V2toV3.cdm", "\(coreDataPlus)/SampleModel.xcdatamodeld"),
        ("\(catalog)/Resources/Model_1_to_2.xcmappingmodel", "\(catalog)/PrecompiledResources/Model_1_to_2.cdm_precompiled", "\(catalog)/Resources/CatalogModel_1.xcdatamodeld"),
        ("\(catalog)/Resources/Model_2_to_3.xcmappingmodel", "\(catalog)/PrecompiledResources/Model_2_to_3.cdm_precompiled", "\(catalog)/Resources/CatalogModel_2.xcdatamodeld"),
    ]

    static func graph(_ path: String) throws -> ArchivedObject {
        try KeyedArchiveReader.unarchive([UInt8](try #require(FileManager.default.contents(atPath: path))))
    }

    @Test(arguments: 0..<3)
    func compileGivesXcodesGraph(_ index: Int) throws {
        let golden = Self.goldens[index]
        let output = try Modelc.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: output) }
        let run = try Modelc.run(["compile", Corpus.path(golden.source), "-o", output.path])
        #expect(run.status == 0, "\(run.standardError)")
        let name = URL(fileURLWithPath: golden.source).deletingPathExtension().lastPathComponent
        let ours = try Self.graph(output.appendingPathComponent("\(name).cdm").path)
        #expect(ArchiveComparison.differences(try Self.graph(Corpus.path(golden.cdm)), ours) == [])
    }

    /// Xcode's `.cdm` decompiled (with snapshots of the versions its hashes match) and compiled
    /// again gives Xcode's graph.
    @Test(arguments: 0..<3)
    func decompileThenCompileGivesXcodesGraph(_ index: Int) throws {
        let golden = Self.goldens[index]
        let output = try Modelc.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: output) }
        // The destination may live in another bundle (TranslationCatalog keeps one per version):
        // the source's bundle gives the source snapshot, and the hashes both sides.
        let bundle = golden.bundle.hasPrefix(Self.catalog) ? Self.catalogBundle(output) : Corpus.path(golden.bundle)
        let cdm = output.appendingPathComponent("Mapping.cdm")
        try FileManager.default.copyItem(atPath: Corpus.path(golden.cdm), toPath: cdm.path)
        let decompiled = try Modelc.run(["decompile", cdm.path, "-o", output.appendingPathComponent("src").path, "--model", bundle])
        #expect(decompiled.status == 0, "\(decompiled.standardError)")
        let source = output.appendingPathComponent("src/Mapping.xcmappingmodel").path
        let compiled = try Modelc.run(["compile", source, "-o", output.appendingPathComponent("out").path])
        #expect(compiled.status == 0, "\(compiled.standardError)")
        let ours = try Self.graph(output.appendingPathComponent("out/Mapping.cdm").path)
        #expect(ArchiveComparison.differences(try Self.graph(Corpus.path(golden.cdm)), ours) == [])
    }

    /// TranslationCatalog's three one-version bundles as one bundle of three versions.
    static func catalogBundle(_ folder: URL) -> String {
        let bundle = folder.appendingPathComponent("CatalogModel.xcdatamodeld")
        for number in 1...3 {
            let version = bundle.appendingPathComponent("CatalogModel_\(number).xcdatamodel")
            try? FileManager.default.createDirectory(at: version, withIntermediateDirectories: true)
            try? FileManager.default.copyItem(
                atPath: Corpus.path("\(catalog)/Resources/CatalogModel_\(number).xcdatamodeld/CatalogModel.xcdatamodel/contents"),
                toPath: version.appendingPathComponent("contents").path)
        }
        return bundle.path
    }

    @Test(arguments: CorpusMappings.all)
    func inspectNamesTheRecordedVersions(_ relative: String) throws {
        let recorded = try Self.recordedPaths(relative)
        let bundle = try #require(CorpusMappings.bundle(recorded: recorded.source, near: relative))
        let run = try Modelc.run(["inspect", Corpus.path(relative), "--model", bundle, "--json"])
        #expect(run.status == 0, "\(run.standardError)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(run.standardOutput.utf8)) as? [String: Any])
        let versions = try #require(report["versions"] as? [String: Any])
        for (side, path) in [("source", recorded.source), ("destination", recorded.destination)] {
            let match = try #require(versions[side] as? [String: Any])
            let exact = match["exactMatches"] as? [String] ?? []
            #expect(exact.contains(CorpusMappings.versionName(path)) || run.standardError.contains("[P310]"), "\(side): \(match)")
        }
    }

    /// A folder compiles as Xcode's build compiles a target: every model and mapping model in it.
    @Test func compilingAFolderCompilesItsModelsAndMappingModels() throws {
        let output = try Modelc.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: output) }
        let run = try Modelc.run(["compile", Corpus.path(Self.coreDataPlus), "-o", output.path])
        #expect(run.status == 0, "\(run.standardError)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: output.path).sorted() == ["SampleModel.momd", "V2toV3.cdm"])
    }

    @Test func diffShowsTheMappingModelThatCoversTheStep() throws {
        let run = try Modelc.run([
            "diff", Corpus.path("\(Self.coreDataPlus)/SampleModel.xcdatamodeld"), "--from", "SampleModel2", "--to", "SampleModel3",
            "--mapping", Corpus.path("\(Self.coreDataPlus)/Fixtures"),
        ])
        #expect(run.status == 0, "\(run.standardError)")
        #expect(run.standardOutput.contains("custom mapping model"))
        #expect(run.standardOutput.contains("V2toV3.cdm"))
        #expect(run.standardOutput.contains("custom CarToCar: Car -> Car"))
    }

    @Test func diffFallsBackToTheInferredMappingWhenNoMappingModelCovers() throws {
        let run = try Modelc.run([
            "diff", Corpus.path("\(Self.coreDataPlus)/SampleModel.xcdatamodeld"), "--from", "SampleModel", "--to", "SampleModel2",
            "--mapping", Corpus.path("\(Self.coreDataPlus)/Fixtures/V2toV3.cdm"),
        ])
        #expect(run.standardError.contains("showing the inferred mapping"))
        #expect(!run.standardOutput.contains("custom mapping model"))
    }

    /// The `sourcemodelpath` and `destinationmodelpath` Xcode recorded in a mapping file.
    static func recordedPaths(_ relative: String) throws -> (source: String, destination: String) {
        let text = try String(contentsOfFile: Corpus.path("\(relative)/xcmapping.xml"), encoding: .utf8)
        func value(_ name: String) throws -> String {
            let marker = "<attribute name=\"\(name)\" type=\"string\">"
            let start = try #require(text.range(of: marker)).upperBound
            let end = try #require(text.range(of: "</attribute>", range: start..<text.endIndex)).lowerBound
            return String(text[start..<end])
        }
        return (try value("sourcemodelpath"), try value("destinationmodelpath"))
    }
}
