import Foundation
import ModelArchive
import ModelCompiler
import ModelSchema
import Testing
import _ModelTestSupport

/// Every mapping model of the corpus read, compiled and matched to its model's versions, and the
/// `.cdm` files Xcode compiled as the judge of ours.
@Suite(Corpus.required)
struct MappingCorpusTests {
    /// Xcode's `.cdm`, the mapping model it was compiled from, and the Xcode-compiled `.momd`
    /// of its source and destination (whose VersionInfo.plist holds Xcode's entity hashes).
    static let goldens: [(cdm: String, source: String, models: (String, String)?)] = [
        (
            "alemar11__CoreDataPlus/Tests/Resources/SampleModel/Fixtures/V2toV3.cdm",
            "alemar11__CoreDataPlus/Tests/Resources/SampleModel/MappingModels/V2toV3.xcmappingmodel", nil
        ),
        (
            "\(translationCatalog)/PrecompiledResources/Model_1_to_2.cdm_precompiled",
            "\(translationCatalog)/Resources/Model_1_to_2.xcmappingmodel",
            ("CatalogModel_1.momd_precompiled", "CatalogModel_2.momd_precompiled")
        ),
        (
            "\(translationCatalog)/PrecompiledResources/Model_2_to_3.cdm_precompiled",
            "\(translationCatalog)/Resources/Model_2_to_3.xcmappingmodel",
            ("CatalogModel_2.momd_precompiled", "CatalogModel_3.momd_precompiled")
        ),
    ]
    static let translationCatalog = "richardpiazza__TranslationCatalog@2735875/Sources/TranslationCatalogCoreData"

    @Test func theCorpusHoldsFortyOneMappingModels() {
        #expect(CorpusMappings.all.count == 41)
    }

    @Test(arguments: CorpusMappings.all)
    func readsWithoutErrors(_ relative: String) throws {
        let read = MappingCompilation.read(at: Corpus.path(relative))
        #expect(read.diagnostics.filter { $0.severity == .error } == [])
        let model = try #require(read.model)
        #expect(!model.entityMappings.isEmpty)
        #expect(model.sourceSnapshot != nil && model.destinationSnapshot != nil)
        // Every mapping with a source and a destination carries both hashes, from the snapshots.
        for mapping in model.entityMappings {
            #expect((mapping.sourceEntityName == nil) == (mapping.sourceEntityVersionHash == nil), "\(mapping.name)")
            #expect((mapping.destinationEntityName == nil) == (mapping.destinationEntityVersionHash == nil), "\(mapping.name)")
        }
    }

    @Test(arguments: 0..<3)
    func compiledGraphEqualsXcodes(_ index: Int) throws {
        let golden = Self.goldens[index]
        let read = MappingCompilation.read(at: Corpus.path(golden.source))
        let model = try #require(read.model)
        let apple = try KeyedArchiveReader.unarchive(try Self.bytes(golden.cdm))
        let ours = try KeyedArchiveReader.unarchive(try MappingModelArchiver.archive(model))
        #expect(ArchiveComparison.differences(apple, ours) == [])
    }

    /// Reading Xcode's `.cdm` and writing it again gives Xcode's graph: nothing is lost on the way
    /// (what `decompile` then `compile` relies on).
    @Test(arguments: 0..<3)
    func compiledMappingSurvivesReadingBack(_ index: Int) throws {
        let golden = Self.goldens[index]
        let bytes = try Self.bytes(golden.cdm)
        let model = try MappingModelUnarchiver.mappingModel(bytes, name: "golden", path: golden.cdm)
        let apple = try KeyedArchiveReader.unarchive(bytes)
        let ours = try KeyedArchiveReader.unarchive(try MappingModelArchiver.archive(model))
        #expect(ArchiveComparison.differences(apple, ours) == [])
    }

    /// The hashes our compile records are the entity hashes in the VersionInfo.plist Xcode wrote
    /// for the source and destination models.
    @Test(arguments: 1..<3)
    func compiledHashesAreXcodesVersionHashes(_ index: Int) throws {
        let golden = Self.goldens[index]
        let (sourceMomd, destinationMomd) = try #require(golden.models)
        let model = try #require(MappingCompilation.read(at: Corpus.path(golden.source)).model)
        let source = try Self.versionHashes("\(Self.translationCatalog)/PrecompiledResources/\(sourceMomd)")
        let destination = try Self.versionHashes("\(Self.translationCatalog)/PrecompiledResources/\(destinationMomd)")
        #expect(!model.sourceEntityHashes.isEmpty)
        for (entity, hash) in model.sourceEntityHashes { #expect(source[entity] == hash, "\(entity)") }
        for (entity, hash) in model.destinationEntityHashes { #expect(destination[entity] == hash, "\(entity)") }
    }

    // MARK: - Helpers

    static func bytes(_ relative: String) throws -> [UInt8] {
        [UInt8](try #require(FileManager.default.contents(atPath: Corpus.path(relative))))
    }

    /// The entity hashes of the one version of an Xcode-compiled `.momd`, read with Foundation
    /// (two of TranslationCatalog's VersionInfo.plist files name no current version).
    static func versionHashes(_ momd: String) throws -> [String: VersionHash] {
        let plist = try PropertyListSerialization.propertyList(from: Data(try bytes("\(momd)/VersionInfo.plist")), format: nil)
        let versions = try #require((plist as? [String: Any])?["NSManagedObjectModel_VersionHashes"] as? [String: [String: Data]])
        let hashes = try #require(versions.values.first)
        return hashes.mapValues { VersionHash(bytes: [UInt8]($0)) }
    }
}
