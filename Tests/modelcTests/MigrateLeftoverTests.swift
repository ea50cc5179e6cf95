import Foundation
import ModelStore
import Testing
import _ModelTestSupport

/// `modelc migrate` next to other writers and after killed runs: it waits for another writer
/// as long as documented (5 s), lists every file of a dead run it removes, even when the store
/// is already current, and names, never removes, the backup a run killed right after its commit
/// left under its staging name.
@Suite(.serialized)
struct MigrateLeftoverTests {
    static let library = MigrateCommandTests.library

    /// A copy of the Library fixture `version` (1 or 3) in `folder`, as `Library.sqlite`.
    static func store(_ version: Int, in folder: URL) throws -> String {
        let store = folder.appendingPathComponent("Library.sqlite").path
        try FileManager.default.copyItem(atPath: Corpus.packagePath("Fixtures/Library-v\(version).sqlite"), toPath: store)
        return store
    }

    static func report(_ run: Modelc.Run) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(run.standardOutput.utf8)) as? [String: Any], "\(run.standardOutput)\(run.standardError)")
    }

    @Test func aRunWaitsUpToFiveSecondsForAnotherWriter() throws {
        try withTemporaryDirectory { folder in
            let store = try Self.store(1, in: folder)
            for arguments in [["--dry-run"], []] {
                // Another process's transaction, ended after 1.5 s: the run waits for it.
                let locker = try StoreLocker(store)
                let release = Thread {
                    Thread.sleep(forTimeInterval: 1.5)
                    locker.stop()
                }
                release.start()
                let start = Date()
                let run = try Modelc.run(["migrate", store, "--model", Self.library, "--json"] + arguments)
                let waited = Date().timeIntervalSince(start)
                while !release.isFinished { Thread.sleep(forTimeInterval: 0.05) }
                #expect(run.status == 0, "\(arguments): \(run.standardOutput)\(run.standardError)")
                #expect(try Self.report(run)["outcome"] as? String == (arguments.isEmpty ? "migrated" : "planned"))
                #expect(waited > 1.4, "\(arguments): waited \(waited) s")
            }
            // A transaction held longer: the run gives up after about 5 s, with class locked.
            let locker = try StoreLocker(store)
            let start = Date()
            let run = try Modelc.run(["migrate", store, "--model", Self.library, "--json"])
            let waited = Date().timeIntervalSince(start)
            locker.stop()
            let error = try Self.report(run)["error"] as? [String: Any]
            #expect(run.status == 1 && error?["class"] as? String == "locked" && error?["code"] as? String == "134090", "\(run.standardOutput)")
            #expect(waited > 4.5 && waited < 20, "gave up after \(waited) s")
        }
    }

    @Test func leftoversBesideACurrentStoreAreListed() throws {
        try withTemporaryDirectory { folder in
            let store = try Self.store(3, in: folder)
            func leave() throws -> [String] {
                let dead = folder.appendingPathComponent("Library.pre-Library-20250101T000000Z.sqlite.modelc-\(UUID().uuidString)").path
                try Data("half a backup".utf8).write(to: URL(fileURLWithPath: dead))
                try Data("its journal".utf8).write(to: URL(fileURLWithPath: dead + "-journal"))
                return [dead, dead + "-journal"]
            }
            let first = try leave()
            let text = try Modelc.run(["migrate", store, "--model", Self.library])
            #expect(text.status == 0, "\(text.standardError)")
            #expect(text.standardOutput.contains("already at 'Library 3'"))
            for file in first {
                #expect(text.standardOutput.contains("removed, left by a killed run: \(file)"), "\(text.standardOutput)")
                #expect(!FileManager.default.fileExists(atPath: file))
            }
            let second = try leave()
            let json = try Self.report(try Modelc.run(["migrate", store, "--model", Self.library, "--json"]))
            #expect(json["outcome"] as? String == "upToDate")
            #expect(json["removedLeftovers"] as? [String] == second)
        }
    }

    /// What a run killed right after its commit leaves (the store migrated, its backup copy of
    /// the old version still under its staging name, claimed by no live run) is a backup the
    /// next run names where it was meant to go, or beside that name when it is taken.
    @Test func aBackupLeftUnnamedByAKillAfterTheCommitIsNamedByTheNextRun() throws {
        try withTemporaryDirectory { folder in
            let store = try Self.store(1, in: folder)
            let migrated = try Modelc.run(["migrate", store, "--model", Self.library, "--no-backup"])
            #expect(migrated.status == 0, "\(migrated.standardError)")
            let intended = folder.appendingPathComponent("Library.pre-Library-20250101T000000Z.sqlite").path
            func leave() throws -> String {
                let copy = intended + ".modelc-\(UUID().uuidString)"
                try FileManager.default.copyItem(atPath: Corpus.packagePath("Fixtures/Library-v1.sqlite"), toPath: copy)
                return copy
            }
            let copy = try leave()
            let json = try Self.report(try Modelc.run(["migrate", store, "--model", Self.library, "--json"]))
            #expect(json["outcome"] as? String == "upToDate")
            #expect(json["namedBackups"] as? [String] == [intended])
            #expect(json["removedLeftovers"] as? [String] == [])
            #expect(!FileManager.default.fileExists(atPath: copy))
            #expect(try StoreMetadata.read(at: intended).versionIdentifiers == ["1"])

            // The name is taken now: the next copy goes beside it, and the text lists it.
            _ = try leave()
            let text = try Modelc.run(["migrate", store, "--model", Self.library])
            let second = folder.appendingPathComponent("Library.pre-Library-20250101T000000Z-2.sqlite").path
            #expect(text.standardOutput.contains("named the backup a killed migration left: \(second)"), "\(text.standardOutput)")
            #expect(try StoreMetadata.read(at: second).versionIdentifiers == ["1"])
            #expect(try StoreMetadata.read(at: intended).versionIdentifiers == ["1"])
        }
    }
}
