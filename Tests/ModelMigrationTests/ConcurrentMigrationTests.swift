import Foundation
import GRDB
import ModelMigration
import ModelStore
import Testing
import _ModelTestSupport

/// Several `modelc migrate` runs started at once on one store, and runs after a killed one:
/// exactly one migrates, the others report `locked` or find the store migrated, at most one
/// backup is made, nothing stray is left and every row is kept.
@Suite(.serialized)
struct ConcurrentMigrationTests {
    typealias Support = MigrationTestSupport

    /// Starts `count` runs of `migrate --json` on `store` at once and waits for all of them.
    static func migrateAtOnce(_ store: String, count: Int) throws -> [(status: Int32, output: String, error: String)] {
        try Modelc.runAtOnce(Array(repeating: ["migrate", store, "--model", Support.library, "--json"], count: count))
    }

    @Test(arguments: [2, 8])
    func oneRunMigrates(_ count: Int) throws {
        try withTemporaryDirectory { folder in
            let store = try StoreHardeningTests.makeStore(in: folder, rows: 40_000, journalMode: .wal)
            let before = try Support.entityRowCount(store)
            let runs = try Self.migrateAtOnce(store, count: count)
            var outcomes = [String]()
            for run in runs {
                let report = try? JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any]
                if run.status == 0, let outcome = report?["outcome"] as? String {
                    outcomes.append(outcome)
                } else {
                    let error = report?["error"] as? [String: Any]
                    #expect(run.status == 1 && error?["class"] as? String == "locked" && error?["code"] as? String == "134090", "\(run.status): \(run.output) \(run.error)")
                    outcomes.append("locked")
                }
            }
            #expect(outcomes.filter { $0 == "migrated" }.count == 1, "\(outcomes)")
            #expect(outcomes.allSatisfy { ["migrated", "upToDate", "locked"].contains($0) }, "\(outcomes)")
            let files = try FileManager.default.contentsOfDirectory(atPath: URL(fileURLWithPath: store).deletingLastPathComponent().path)
            #expect(files.filter { $0.contains(".pre-") }.count == 1, "one backup: \(files)")
            #expect(!files.contains { $0.contains(".modelc-") || $0.hasSuffix("-journal") }, "no stray files: \(files)")
            #expect(try Support.entityRowCount(store) == before, "every row kept")
            let check = try Modelc.run(["store", "check", store, "--model", Support.library])
            #expect(check.status == 0, "\(check.standardError)")
        }
    }

    /// A killed run's temporary backup and its journal are removed by the next run, which
    /// says so; `--keep-backups 1` leaves only the newest backup.
    @Test func nextRunRemovesWhatAKilledRunLeft() throws {
        try withTemporaryDirectory { folder in
            let store = try StoreHardeningTests.makeStore(in: folder, rows: 100)
            let home = URL(fileURLWithPath: store).deletingLastPathComponent()
            let old = home.appendingPathComponent("Store.pre-Library-20200101T000000Z.sqlite").path
            try FileManager.default.copyItem(atPath: store, toPath: old)
            let staging = home.appendingPathComponent("Store.pre-Library-20260101T000000Z.sqlite.modelc-\(UUID().uuidString)").path
            try FileManager.default.copyItem(atPath: store, toPath: staging)
            try Data("journal".utf8).write(to: URL(fileURLWithPath: staging + "-journal"))
            let run = try Modelc.run(["migrate", store, "--model", Support.library, "--json", "--keep-backups", "1"])
            #expect(run.status == 0, "\(run.standardError)")
            let report = try run.json()
            #expect(report["outcome"] as? String == "migrated")
            #expect(Set(report["removedLeftovers"] as? [String] ?? []) == [staging, staging + "-journal"])
            #expect(report["removedBackups"] as? [String] == [old])
            let files = try FileManager.default.contentsOfDirectory(atPath: home.path).sorted()
            let backup = try #require(report["backup"] as? String)
            #expect(files == ["Store.sqlite", URL(fileURLWithPath: backup).lastPathComponent].sorted(), "\(files)")
        }
    }

    /// A run refused because it drops data leaves no backup: refused in its only step (no
    /// backup is made) or in a later stage (the backup made before the first is removed).
    @Test(arguments: [[], ["--through", "Library 3"]])
    func refusedRunLeavesNoBackup(_ stages: [String]) throws {
        try withTemporaryDirectory { folder in
            let store = try StoreHardeningTests.makeStore(in: folder, version: "Library 2")
            try DatabaseQueue(path: store).write { db in
                try db.execute(sql: "INSERT INTO ZPUBLICATION (Z_PK, Z_ENT, Z_OPT, ZTITLE, ZSUMMARY) VALUES (1, 3, 1, 'a book', 'a summary')")
            }
            let before = try StoreHardeningTests.folderContents(store)
            let run = try Modelc.run(["migrate", store, "--model", Support.library, "--to", "Library", "--json"] + stages)
            #expect(run.status == 2, "\(run.standardError)")
            #expect(try run.json()["outcome"] as? String == "refusedDataLoss")
            #expect(try StoreHardeningTests.folderContents(store) == before, "no backup, nothing changed")
        }
    }
}
