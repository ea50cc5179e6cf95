import Foundation
import ModelStore
import Testing
import _ModelTestSupport

/// `modelc diff` and `modelc migrate` as a user runs them: output, exit codes, what is written.
@Suite(.serialized)
struct MigrateCommandTests {
    static let library = "Models/Library.xcdatamodeld"

    func json(_ run: Modelc.Run) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(run.standardOutput.utf8)) as? [String: Any])
    }

    @Test func diffShowsTheInferredMappingAndItsRenames() throws {
        let text = try Modelc.run(["diff", Self.library, "--from", "Library", "--to", "Library 3"])
        #expect(text.status == 0)
        #expect(text.standardOutput.contains("a lightweight migration can be inferred"))
        #expect(text.standardOutput.contains("rename    pages  (renamed from 'pageCount')"))
        #expect(text.standardOutput.contains("transform Topic (from Tag)"))
        let report = try json(try Modelc.run(["diff", Self.library, "--from", "Library", "--json"]))
        #expect(report["to"] as? String == "Library 3")
        #expect(report["possible"] as? Bool == true)
        #expect(report["dropsData"] as? Bool == false)
    }

    @Test func migrateDryRunPrintsThePlanAndChangesNothing() throws {
        let fixture = Corpus.packagePath("Fixtures/Library-v1.sqlite")
        let before = try #require(FileManager.default.contents(atPath: fixture))
        let run = try Modelc.run(["migrate", fixture, "--model", Self.library, "--dry-run", "--json"])
        #expect(run.status == 0, "\(run.standardError)")
        #expect(run.standardError.isEmpty, "nothing on standard error when it is not a terminal")
        let report = try json(run)
        #expect(report["outcome"] as? String == "planned")
        #expect(report["risk"] as? String == "safe")
        let steps = try #require(report["steps"] as? [[String: Any]])
        #expect(steps.map { $0["from"] as? String } == ["Library"], "one direct step, as Core Data migrates")
        #expect(steps.map { $0["to"] as? String } == ["Library 3"])
        let sql = (steps[0]["statements"] as? [[String: Any]])?.compactMap { $0["sql"] as? String } ?? []
        #expect(sql.contains("ALTER TABLE ZPUBLICATION RENAME COLUMN ZPAGECOUNT TO ZPAGES"))
        #expect(FileManager.default.contents(atPath: fixture) == before)
        #expect(!FileManager.default.fileExists(atPath: fixture + "-journal"))
    }

    @Test func migrateRunsInPlaceAfterABackup() throws {
        try withTemporaryDirectory { folder in
            let store = folder.appendingPathComponent("Library.sqlite").path
            try FileManager.default.copyItem(atPath: Corpus.packagePath("Fixtures/Library-v1.sqlite"), toPath: store)
            let backup = folder.appendingPathComponent("before.sqlite").path
            let run = try Modelc.run(["migrate", store, "--model", Self.library, "--backup", backup])
            #expect(run.status == 0, "\(run.standardError)")
            #expect(run.standardOutput.contains("migrated from 'Library' to 'Library 3' in one direct step"))
            #expect(try StoreMetadata.read(at: backup).versionIdentifiers == ["1"])
            let check = try Modelc.run(["store", "check", store, "--model", Self.library])
            #expect(check.status == 0, "\(check.standardError)")
            let again = try Modelc.run(["migrate", store, "--model", Self.library])
            #expect(again.status == 0)
            #expect(again.standardOutput.contains("already at 'Library 3'"))
        }
    }

    @Test(Corpus.required)
    func migrateRefusesWhatCannotBeInferredAndSaysWhy() throws {
        try withTemporaryDirectory { folder in
            let repo = CorpusStores.wibosco
            let store = folder.appendingPathComponent("Example.sqlite").path
            try FileManager.default.copyItem(
                atPath: Corpus.path("\(repo)/CoreDataMigration-ExampleTests/Resources/SQLite/CoreDataMigration_Example_2.sqlite"), toPath: store)
            let before = try #require(FileManager.default.contents(atPath: store))
            let model = Corpus.path("\(repo)/CoreDataMigration-Example/CoreData/Model/CoreDataMigration_Example.xcdatamodeld")
            let run = try Modelc.run(["migrate", store, "--model", model])
            #expect(run.status == 2)
            #expect(run.standardError.contains("[M204]"))
            #expect(run.standardOutput.contains("cannot be reached by lightweight migration"))
            #expect(FileManager.default.contents(atPath: store) == before)
        }
    }

    /// On a terminal, each step is shown as it starts; `--quiet` silences it.
    @Test func migrateShowsProgressOnATerminal() throws {
        try withTemporaryDirectory { folder in
            let store = folder.appendingPathComponent("Library.sqlite").path
            try FileManager.default.copyItem(atPath: Corpus.packagePath("Fixtures/Library-v1.sqlite"), toPath: store)
            let command = "\(Modelc.executable.path) migrate \(store) --model \(Self.library) --no-backup"
            let (status, text) = try Modelc.onATerminal(command)
            #expect(status == 0)
            #expect(text.contains("step 1/1: Library → Library 3"))
        }
    }

    @Test func migrateThroughTakesTheStagesGiven() throws {
        try withTemporaryDirectory { folder in
            let store = folder.appendingPathComponent("Library.sqlite").path
            try FileManager.default.copyItem(atPath: Corpus.packagePath("Fixtures/Library-v1.sqlite"), toPath: store)
            let run = try Modelc.run(["migrate", store, "--model", Self.library, "--through", "Library 2", "--no-backup", "--json"])
            #expect(run.status == 0, "\(run.standardError)")
            let steps = try #require(try json(run)["steps"] as? [[String: Any]])
            #expect(steps.map { "\($0["from"] as? String ?? "") → \($0["to"] as? String ?? "")" } == ["Library → Library 2", "Library 2 → Library 3"])
            let check = try Modelc.run(["store", "check", store, "--model", Self.library])
            #expect(check.status == 0, "\(check.standardError)")
            let help = try Modelc.run(["migrate", "--help"])
            #expect(help.standardOutput.contains("ONE direct step"))
            #expect(!help.standardOutput.contains("every version in between"))
        }
    }
}
