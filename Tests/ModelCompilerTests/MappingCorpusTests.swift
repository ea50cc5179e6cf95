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
    struct Golden: Sendable, CustomStringConvertible {
        var cdm: String
        var source: String
        var models: (source: String, destination: String)?

        var description: String { cdm }
    }

    static let translationCatalog = "richardpiazza__TranslationCatalog@2735875/Sources/TranslationCatalogCoreData"
    static let xcodeServer = "richardpiazza__XcodeServer/Sources"
    static let coreDataPlus = "richardpiazza__CoreDataPlus@8ebfbd5/Tests/CoreDataPlusTests"

    /// The pairs the corpus holds, and those proposed for it that it already holds.
    static let goldens: [Golden] = known + proposed.filter { FileManager.default.fileExists(atPath: Corpus.path($0.cdm)) }

    static let known: [Golden] = [
        Golden(
            cdm: "alemar11__CoreDataPlus/Tests/Resources/SampleModel/Fixtures/V2toV3.cdm",
            source: "alemar11__CoreDataPlus/Tests/Resources/SampleModel/MappingModels/V2toV3.xcmappingmodel"),
        Golden(
            cdm: "\(translationCatalog)/PrecompiledResources/Model_1_to_2.cdm_precompiled",
            source: "\(translationCatalog)/Resources/Model_1_to_2.xcmappingmodel",
            models: ("\(translationCatalog)/PrecompiledResources/CatalogModel_1.momd_precompiled", "\(translationCatalog)/PrecompiledResources/CatalogModel_2.momd_precompiled")),
        Golden(
            cdm: "\(translationCatalog)/PrecompiledResources/Model_2_to_3.cdm_precompiled",
            source: "\(translationCatalog)/Resources/Model_2_to_3.xcmappingmodel",
            models: ("\(translationCatalog)/PrecompiledResources/CatalogModel_2.momd_precompiled", "\(translationCatalog)/PrecompiledResources/CatalogModel_3.momd_precompiled")),
    ]

    /// Pairs proposed for the corpus, each with every mapping "Undefined" in its XML:
    /// richardpiazza/XcodeServer at b47a554 (same names only adding properties: 23 copies; every
    /// entity renamed: 23 transforms) and richardpiazza/CoreDataPlus at 8ebfbd5 (same names
    /// with a renamed relationship: 2 transforms).
    static let proposed: [Golden] = [
        Golden(
            cdm: "\(xcodeServer)/XcodeServerModel_1_1_0/Resources/MappingModel.cdm_precompiled",
            source: "\(xcodeServer)/XcodeServerModel_1_1_0/Resources/MappingModel.xcmappingmodel",
            models: ("\(xcodeServer)/XcodeServerModel_1_0_0/Resources/XcodeServer.momd_precompiled", "\(xcodeServer)/XcodeServerModel_1_1_0/Resources/XcodeServer.momd_precompiled")),
        Golden(
            cdm: "\(xcodeServer)/XcodeServerModel_2_0_0/Resources/MappingModel.cdm_precompiled",
            source: "\(xcodeServer)/XcodeServerModel_2_0_0/Resources/MappingModel.xcmappingmodel",
            models: ("\(xcodeServer)/XcodeServerModel_1_1_0/Resources/XcodeServer.momd_precompiled", "\(xcodeServer)/XcodeServerModel_2_0_0/Resources/XcodeServer.momd_precompiled")),
        Golden(
            cdm: "\(coreDataPlus)/Resources/Model_1_0_to_1_1.cdm_precompiled",
            source: "\(coreDataPlus)/Resources/Model_1_0_to_1_1.xcmappingmodel",
            models: ("\(coreDataPlus)/PrecompiledResources/CoreDataPlus_1.0.momd_precompiled", "\(coreDataPlus)/PrecompiledResources/CoreDataPlus_1.1.momd_precompiled")),
    ]

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

    @Test(arguments: goldens)
    func compiledGraphEqualsXcodes(_ golden: Golden) throws {
        let read = MappingCompilation.read(at: Corpus.path(golden.source))
        let model = try #require(read.model)
        let apple = try KeyedArchiveReader.unarchive(try Self.bytes(golden.cdm))
        let ours = try KeyedArchiveReader.unarchive(try MappingModelArchiver.archive(model))
        #expect(ArchiveComparison.differences(apple, ours) == [])
    }

    /// Reading Xcode's `.cdm` and writing it again gives Xcode's graph: nothing is lost on the way
    /// (what `decompile` then `compile` relies on).
    @Test(arguments: goldens)
    func compiledMappingSurvivesReadingBack(_ golden: Golden) throws {
        let bytes = try Self.bytes(golden.cdm)
        let model = try MappingModelUnarchiver.mappingModel(bytes, name: "golden", path: golden.cdm)
        let apple = try KeyedArchiveReader.unarchive(bytes)
        let ours = try KeyedArchiveReader.unarchive(try MappingModelArchiver.archive(model))
        #expect(ArchiveComparison.differences(apple, ours) == [])
    }

    /// The hashes our compile records are the entity hashes in the VersionInfo.plist Xcode wrote
    /// for the source and destination models.
    @Test(arguments: goldens.filter { $0.models != nil })
    func compiledHashesAreXcodesVersionHashes(_ golden: Golden) throws {
        let (sourceMomd, destinationMomd) = try #require(golden.models)
        let model = try #require(MappingCompilation.read(at: Corpus.path(golden.source)).model)
        let source = try Self.versionHashes(sourceMomd)
        let destination = try Self.versionHashes(destinationMomd)
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
