import Foundation
import ModelArchive
import Testing
import _ModelTestSupport

/// The keyed-archive layer on Xcode's own `.mom` files: reading, writing and comparing.
@Suite(Corpus.required)
struct KeyedArchiveTests {
    static let moms = [
        "alemar11__CoreDataPlus/Tests/Resources/SampleModel/Fixtures/SampleModel.momd/SampleModel.mom",
        "alemar11__CoreDataPlus/Tests/Resources/SampleModel/Fixtures/SampleModel.momd/SampleModel2.mom",
        "alemar11__CoreDataPlus/Tests/Resources/SampleModel/Fixtures/SampleModel.momd/SampleModel3.mom",
        "alemar11__CoreDataPlus/Tests/Resources/SampleModel3/Fixtures/SampleModel3.momd/SampleModel3.mom",
        "alemar11__CoreDataPlus/Tests/Resources/SampleModel/Fixtures/V2toV3.cdm",
    ]

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
