import Foundation
import ModelCompiler
import ModelSchema
import ModelXML
import Testing
import _ModelTestSupport

/// Each corpus mapping model matched against the versions of its model bundle by entity hashes,
/// as Core Data picks mapping models: the versions found must be the ones Xcode recorded in the
/// mapping file (`sourcemodelpath`, `destinationmodelpath`), or a P310 warning says why not.
@Suite(Corpus.required)
struct MappingVersionMatchTests {
    /// Sides whose snapshot equals no version of the bundle, checked by hand against the files:
    /// the entities that differ from the recorded version, and the versions Core Data's subset
    /// rule still picks.
    static let staleSnapshots: [String: (differing: [String], picked: [String])] = [
        // The model gained the to-one pair Chat.lastMessage / Message.lastMessageOf after the
        // mapping was made: Core Data would not pick this mapping for a CoreDataTest store.
        "Mioke__CoreDataMigrationHelper/CoreDataTest/v1_to_v2.xcmappingmodel source": (["Chat", "Message"], []),
        // The snapshot predates the CgmEvent entity: the subset rule still picks Modelv4.
        "LoopKit__LoopKit/LoopKit/Persistence/Modelv1v4.xcmappingmodel destination": (["CgmEvent"], ["Modelv4"]),
        // Game gained the attribute isFavorite after the mapping was made.
        "rileytestut__Delta/Delta/Database/Model/Migrations/Delta10ToDelta11.xcmappingmodel destination": (["Game"], []),
        // Folder.breadsCount is a derived attribute, which snapshots cannot express (no
        // derivation key): the snapshot hashes it as a stored Integer 64. Folder is the
        // destination of no entity mapping, so the subset rule still picks v2.
        "sweethoneybee__MemoryBread/MemoryBread/Models/CoreData/MappingModels/Model-V1-to-V2.xcmappingmodel destination":
            (["Folder"], ["MemoryBread v2"]),
    ]

    /// Every mapping model, thepost's `Recipes` → `Recipes 2` too: its snapshots and both
    /// versions are Xcode 3 models, read through ModelArchive's Xcode 3 reader.
    @Test(arguments: CorpusMappings.all)
    func matchesTheRecordedVersions(_ relative: String) throws {
        let model = try #require(MappingCompilation.read(at: Corpus.path(relative)).model)
        let recorded: [(MappingVersionMatch.Side, String?)] = [(.source, model.sourceModelPath), (.destination, model.destinationModelPath)]
        for (side, path) in recorded {
            let recordedPath = try #require(path)
            let bundlePath = try #require(CorpusMappings.bundle(recorded: recordedPath, near: relative), "no bundle for \(recordedPath)")
            let read = ModelSources.reader.read(at: bundlePath)
            let bundle = try #require(read.bundle)
            #expect(read.diagnostics.filter { $0.severity == .error } == [])
            let match = MappingVersionMatch.match(model, side: side, in: bundle)
            let expected = CorpusMappings.versionName(recordedPath)
            if let stale = Self.staleSnapshots["\(relative) \(side.rawValue)"] {
                #expect(match.exactMatches == [])
                #expect(match.closest == expected)
                #expect(match.differingEntities == stale.differing)
                #expect(match.subsetMatches == stale.picked)
                #expect(match.diagnostic(bundle: bundle.name)?.code == "P310")
            } else {
                #expect(match.exactMatches.contains(expected), "\(side.rawValue): \(match)")
                #expect(match.subsetMatches.contains(expected), "\(side.rawValue): \(match)")
                #expect(match.diagnostic(bundle: bundle.name) == nil)
            }
        }
    }
}
