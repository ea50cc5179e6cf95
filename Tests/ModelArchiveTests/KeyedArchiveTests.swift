import Foundation
import ModelArchive
import Testing
import _ModelTestSupport

/// The keyed-archive layer on Xcode's own `.mom` files: reading, writing and comparing.
@Suite(Corpus.required)
struct KeyedArchiveTests {
    /// Every `.mom` of the corpus's Xcode-compiled bundles and every compiled mapping model,
    /// found on disk rather than named.
    static let moms: [String] = Corpus.isAvailable
        ? Corpus.compiledModels().flatMap { momd in
            ((try? FileManager.default.contentsOfDirectory(atPath: Corpus.path(momd))) ?? [])
                .filter { $0.hasSuffix(".mom") }.sorted().map { "\(momd)/\($0)" }
        } + Corpus.compiledMappingModels() : []

    /// Six `.mom` in CoreDataPlus's two bundles, one in each of TranslationCatalog's three, and
    /// three mapping models.
    @Test func everyCompiledArchiveIsFound() {
        #expect(Self.moms.count == 12, "\(Self.moms)")
    }

    @Test(arguments: moms)
    func xcodeArchivesSurviveAReadWriteRoundTrip(_ path: String) throws {
        let bytes = try #require(FileManager.default.contents(atPath: Corpus.path(path)))
        let original = try KeyedArchiveReader.unarchive([UInt8](bytes))
        let rewritten = KeyedArchiveWriter.archive(original)
        let reread = try KeyedArchiveReader.unarchive(rewritten)
        #expect(ArchiveComparison.differences(original, reread) == [])
        // Foundation reads what we wrote as a valid binary property list.
        #expect(try PropertyListSerialization.propertyList(from: Data(rewritten), format: nil) is [String: Any])
    }

    @Test func theComparisonNamesEachDifferenceByKeyPath() throws {
        let bytes = try #require(FileManager.default.contents(atPath: Corpus.path(Self.moms[3])))
        let original = try KeyedArchiveReader.unarchive([UInt8](bytes))
        let changed = try KeyedArchiveReader.unarchive([UInt8](bytes))
        let entity = try #require(changed["NSEntities"]?.object?["NS.objects"]?.references?.first?.object)
        entity["NSClassNameForEntity"] = .string("Other")
        #expect(ArchiveComparison.differences(original, changed) == ["root.NSEntities[User].NSClassNameForEntity: 'User' vs 'Other'"])
    }

    @Test func aDecodedGraphIsFreedOnceReleased() throws {
        let bytes = try #require(FileManager.default.contents(atPath: Corpus.path(Self.moms[0])))
        weak var model: ArchivedObject?
        weak var entity: ArchivedObject?
        do {
            let root = try KeyedArchiveReader.unarchive([UInt8](bytes))
            model = root
            entity = root["NSEntities"]?.object?["NS.objects"]?.references?.first?.object
            // Each entity refers back to its model: the graph holds cycles.
            #expect(entity?["NSManagedObjectModel"]?.object === root)
            root.releaseGraph()
        }
        #expect(model == nil)
        #expect(entity == nil)
    }

    @Test func truncatedArchivesAreErrorsNotCrashes() throws {
        let bytes = try #require(FileManager.default.contents(atPath: Corpus.path(Self.moms[0])))
        for length in [0, 7, 40, bytes.count / 2, bytes.count - 1] {
            #expect(throws: (any Error).self) { try KeyedArchiveReader.unarchive(Array([UInt8](bytes).prefix(length))) }
        }
    }
}
