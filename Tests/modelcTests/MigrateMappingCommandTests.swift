import Foundation
import ModelSchema
import ModelStore
import ModelXML
import Testing
import _ModelTestSupport

/// `modelc migrate --mapping` as a user runs it on corpus stores: the step through a matching
/// mapping model, its JSON, the dry run, and a mapping that needs a policy nobody registered.
@Suite(.serialized, Corpus.required)
struct MigrateMappingCommandTests {
    static let root = "\(CorpusStores.wibosco)/CoreDataMigration-Example"
    static let model = Corpus.path("\(root)/CoreData/Model/CoreDataMigration_Example.xcdatamodeld")
    static let mappings = Corpus.path("\(root)/CoreData/Migration")

    static func store(_ index: Int, into folder: URL) throws -> String {
        try copyStore(Corpus.path("\(CorpusStores.wibosco)/CoreDataMigration-ExampleTests/Resources/SQLite/CoreDataMigration_Example_\(index).sqlite"), into: folder)
    }

    @Test func theStepUsesTheMatchingMappingModel() throws {
        try withTemporaryDirectory { folder in
            let store = try Self.store(1, into: folder)
            let before = try #require(FileManager.default.contents(atPath: store))
            let arguments = ["migrate", store, "--model", Self.model, "--to", "CoreDataMigration_Example 2", "--mapping", Self.mappings, "--json"]
            let planned = try Modelc.run(arguments + ["--dry-run"])
            #expect(planned.status == 0, "\(planned.standardError)")
            #expect(FileManager.default.contents(atPath: store) == before)
            let plan = try planned.json()
            #expect(plan["outcome"] as? String == "planned")
            let run = try Modelc.run(arguments)
            #expect(run.status == 0, "\(run.standardError)")
            let report = try run.json()
            #expect(report["outcome"] as? String == "migrated")
            let step = try #require((report["steps"] as? [[String: Any]])?.first)
            let uses = try #require((step["uses"] as? [String: Any])?["mappingModel"] as? [String: Any])
            #expect((uses["path"] as? String)?.hasSuffix("Migration1to2.xcmappingmodel") == true)
            #expect((step["candidates"] as? [String])?.count ?? 0 >= 2)
            let mappings = try #require(step["entityMappings"] as? [[String: Any]])
            let planMappings = try #require(((plan["steps"] as? [[String: Any]])?.first?["entityMappings"]) as? [[String: Any]])
            #expect(mappings.map { $0["instancesCreated"] as? Int } == planMappings.map { $0["instancesCreated"] as? Int })
            #expect(mappings.first?["instancesCreated"] as? Int == 1001)
            let backup = try #require(report["backup"] as? String)
            #expect(FileManager.default.contents(atPath: backup) == before, "the store is kept as the backup")
            let bundle = try #require(ModelReader().read(at: Self.model).bundle)
            let version = try #require(bundle.version(named: "CoreDataMigration_Example 2"))
            #expect(try StoreMetadata.read(at: store).versionHashes == VersionHasher(version).entityHashes())
        }
    }

    /// On a terminal the step shows a progress bar naming the entity mapping and its count;
    /// with --quiet nothing but the result is printed.
    @Test func aTerminalShowsOneProgressBarPerStep() throws {
        try withTemporaryDirectory { folder in
            for quiet in [false, true] {
                let store = try Self.store(1, into: folder)
                let command = "\(Modelc.executable.path) migrate '\(store)' --model '\(Self.model)' --to 'CoreDataMigration_Example 2' --mapping '\(Self.mappings)'" + (quiet ? " --quiet" : "")
                let (status, text) = try Modelc.onATerminal(command)
                #expect(status == 0, "\(text)")
                #expect(text.contains("PostToPost [####################] 1001/1001") == !quiet, "\(text)")
                try FileManager.default.removeItem(at: folder)
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            }
        }
    }

    @Test func aPolicyNobodyRegisteredStopsWithExitTwo() throws {
        try withTemporaryDirectory { folder in
            let store = try Self.store(2, into: folder)
            let before = try #require(FileManager.default.contents(atPath: store))
            let run = try Modelc.run(["migrate", store, "--model", Self.model, "--to", "CoreDataMigration_Example 3", "--mapping", Self.mappings, "--json"])
            #expect(run.status == 2)
            let error = try #require(try run.json()["error"] as? [String: Any])
            #expect(error["class"] as? String == "missingPolicy")
            let message = try #require(error["message"] as? String)
            #expect(message.contains("Post2ToPost3MigrationPolicy") && message.contains("PostToPost"))
            #expect(FileManager.default.contents(atPath: store) == before)
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["CoreDataMigration_Example_2.sqlite"])
        }
    }

    /// The backup options of an inferred migration apply to a step through a mapping model:
    /// --backup PATH (with the external-data folder), --no-backup, --keep-backups; with
    /// --through the stages run (a store already at the destination is up to date).
    @Test func theBackupOptionsApplyToAMappedStep() throws {
        try withTemporaryDirectory { folder in
            let arguments = { (store: String) in ["migrate", store, "--model", Self.model, "--to", "CoreDataMigration_Example 2", "--mapping", Self.mappings, "--json"] }
            let store = try Self.store(1, into: folder)
            let before = try #require(FileManager.default.contents(atPath: store))
            let external = StoreLeftovers.supportFolder(of: store) + "/_EXTERNAL_DATA"
            try FileManager.default.createDirectory(atPath: external, withIntermediateDirectories: true)
            try Data("blob".utf8).write(to: URL(fileURLWithPath: external + "/A"))
            let chosen = folder.appendingPathComponent("kept.sqlite").path
            let kept = try Modelc.run(arguments(store) + ["--backup", chosen])
            #expect(kept.status == 0, "\(kept.standardError)")
            #expect(try kept.json()["backup"] as? String == chosen)
            #expect(FileManager.default.contents(atPath: chosen) == before)
            #expect(FileManager.default.contents(atPath: StoreLeftovers.supportFolder(of: chosen) + "/_EXTERNAL_DATA/A") == Data("blob".utf8))

            try FileManager.default.createDirectory(at: folder.appendingPathComponent("bare"), withIntermediateDirectories: true)
            let bare = try Self.store(1, into: folder.appendingPathComponent("bare"))
            let none = try Modelc.run(arguments(bare) + ["--no-backup"])
            #expect(none.status == 0, "\(none.standardError)")
            #expect(try none.json()["backup"] == nil)
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("bare").path) == ["CoreDataMigration_Example_1.sqlite"])

            let combined = try Modelc.run(arguments(bare) + ["--through", "CoreDataMigration_Example 2"])
            #expect(combined.status == 0, "\(combined.standardError)")
            #expect(try combined.json()["outcome"] as? String == "upToDate")
        }
    }

    /// A run killed after keeping the store as its backup but before its swap leaves the backup
    /// path linked to the store itself: the next run takes that link over as its backup and
    /// migrates. Another file at the path is refused as a file that exists, and nothing changes.
    @Test func theBackupLinkOfAKilledRunIsTakenOver() throws {
        try withTemporaryDirectory { folder in
            let arguments = { (store: String, backup: String) in
                ["migrate", store, "--model", Self.model, "--to", "CoreDataMigration_Example 2", "--mapping", Self.mappings, "--backup", backup, "--json"]
            }
            let store = try Self.store(1, into: folder)
            let before = try #require(FileManager.default.contents(atPath: store))
            let backup = store + ".backup"
            #expect(link(store, backup) == 0)
            let run = try Modelc.run(arguments(store, backup))
            #expect(run.status == 0, "\(run.standardError)")
            #expect(try run.json()["outcome"] as? String == "migrated")
            #expect(FileManager.default.contents(atPath: backup) == before)
            #expect(FileManager.default.contents(atPath: store) != before)

            try FileManager.default.createDirectory(at: folder.appendingPathComponent("other"), withIntermediateDirectories: true)
            let other = try Self.store(1, into: folder.appendingPathComponent("other"))
            let taken = other + ".backup"
            try Data("not a store".utf8).write(to: URL(fileURLWithPath: taken))
            let refused = try Modelc.run(arguments(other, taken))
            #expect(refused.status == 1)
            #expect((try refused.json()["error"] as? [String: Any])?["class"] as? String == "alreadyExists")
            #expect(FileManager.default.contents(atPath: other) == before)
            #expect(FileManager.default.contents(atPath: taken) == Data("not a store".utf8))
        }
    }
}
