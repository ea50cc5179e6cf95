import Foundation
import GRDB
import ModelMigration
import ModelSchema
import ModelStore
import Testing
import _ModelTestSupport

/// Broken, read-only and contended stores, made in each test from real SQLite files, run
/// through the built `modelc`: each is refused with its class and code and left byte for byte
/// as it was, with nothing created beside it; concurrent runs migrate once.
@Suite(.serialized)
struct StoreHardeningTests {
    typealias Support = MigrationTestSupport

    // MARK: - Stores

    /// A rollback-journal store of the first Library version with `rows` publications, tags
    /// and links (and 1,000 authors), in a folder of its own inside `folder`.
    static func makeStore(in folder: URL, rows: Int = 3000, journalMode: StoreCreator.JournalMode = .delete, version: String = "Library") throws -> String {
        let bundle = try Support.bundle(Support.library)
        let home = folder.appendingPathComponent("store-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        let path = home.appendingPathComponent("Store.sqlite").path
        try StoreCreator.create(at: path, version: try #require(bundle.version(named: version)), journalMode: journalMode)
        guard version == "Library" else { return path }
        try Support.fillLibrary(path, rows: rows)
        return path
    }

    /// Every file in the store's folder with its bytes: what must not change.
    static func folderContents(_ store: String) throws -> [String: Data] {
        let folder = URL(fileURLWithPath: store).deletingLastPathComponent()
        var result = [String: Data]()
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) {
            result[name] = FileManager.default.contents(atPath: folder.appendingPathComponent(name).path) ?? Data()
        }
        return result
    }

    static func migrate(_ store: String, _ extra: [String] = [], wrapper: [String] = []) throws -> Modelc.Run {
        try Modelc.run(["migrate", store, "--model", Support.library] + extra, wrapper: wrapper)
    }

    /// Runs `modelc` as an unprivileged user when the tests run as root, whom file permissions
    /// do not stop.
    static let unprivileged = getuid() == 0 ? ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"] : []

    /// The class and code of a failed run, from its JSON error object or its text.
    static func failure(_ run: Modelc.Run) -> String? {
        if let error = (try? run.json())?["error"] as? [String: Any] {
            return "\(error["class"] ?? "") \(error["code"] ?? "")"
        }
        guard let match = run.standardError.firstMatch(of: /\[(\w+), (\d+)\]/) else { return nil }
        return "\(match.1) \(match.2)"
    }

    /// Zeroes page `number` (1-based) of the database at `path`.
    static func zeroPage(_ number: Int, of path: String) throws {
        let handle = try #require(FileHandle(forUpdatingAtPath: path))
        defer { try? handle.close() }
        try handle.seek(toOffset: UInt64((number - 1) * 4096))
        handle.write(Data(count: 4096))
    }

    // MARK: - Corrupt stores

    /// A zeroed pointer-map page (page 2 of an auto-vacuum store), a zeroed b-tree page and a
    /// one-byte truncation: `migrate` and `--dry-run` refuse each as corrupt (259, SQLite 11)
    /// and change nothing; `store check` never says the store opens.
    @Test(arguments: ["pointer map", "b-tree page", "one byte short"])
    func corruptStoresAreRefused(_ damage: String) throws {
        try withTemporaryDirectory { folder in
            let store = try Self.makeStore(in: folder)
            switch damage {
            case "pointer map": try Self.zeroPage(2, of: store)
            case "b-tree page":
                let page = try DatabaseQueue(path: store).read { db in
                    try Int.fetchOne(db, sql: "SELECT rootpage FROM sqlite_master WHERE name = 'ZTAG'")
                }
                try Self.zeroPage(try #require(page), of: store)
            default:
                let size = try #require(try FileManager.default.attributesOfItem(atPath: store)[.size] as? Int)
                try FileHandle(forUpdatingAtPath: store)?.truncate(atOffset: UInt64(size - 1))
            }
            let before = try Self.folderContents(store)
            for extra in [["--dry-run"], [], ["--dry-run", "--json"]] {
                let run = try Self.migrate(store, extra)
                #expect(run.status == 1, "\(damage) \(extra): \(run.standardOutput) \(run.standardError)")
                #expect(Self.failure(run) == "corrupt 259", "\(damage) \(extra): \(run.standardOutput) \(run.standardError)")
                #expect(try Self.folderContents(store) == before, "\(damage) \(extra): nothing changed or created")
            }
            let check = try Modelc.run(["store", "check", store, "--model", Support.library, "--json"])
            #expect(check.status == 2)
            #expect(try check.json()["class"] as? String == "corrupt", "\(damage): \(check.standardOutput)")
            #expect(try check.json()["sqliteCode"] as? Int == 11)
            #expect(try Self.folderContents(store) == before)
        }
    }

    /// An `auto_vacuum = FULL` store whose pointer-map page (page 2) is zeroed, which SQLite's
    /// `PRAGMA integrity_check` reports as damaged: `migrate` and its dry run, whose checks read
    /// the pointer map rather than the whole file, refuse it as corrupt (259, SQLite 11) and
    /// change nothing, even for an additive step (to Library 2), which frees no page and so
    /// never makes SQLite read the map itself; `store check` reports it as corrupt.
    @Test func zeroedPointerMapOfAFullAutoVacuumStoreIsRefused() throws {
        try withTemporaryDirectory { folder in
            let store = try Self.makeStore(in: folder, rows: 3000)
            try DatabaseQueue(path: store).writeWithoutTransaction { db in
                try db.execute(sql: "PRAGMA auto_vacuum = FULL")
                #expect(try Int.fetchOne(db, sql: "PRAGMA auto_vacuum") == 1)
            }
            try Self.zeroPage(2, of: store)
            let witness = try DatabaseQueue(path: store, configuration: RetainedData.readOnly).read { db in
                try String.fetchAll(db, sql: "PRAGMA integrity_check")
            }
            #expect(witness != ["ok"], "SQLite itself finds the store damaged")
            let before = try Self.folderContents(store)
            for extra in [[], ["--dry-run"], ["--dry-run", "--json"]] {
                let run = try Self.migrate(store, ["--to", "Library 2"] + extra)
                #expect(run.status == 1, "\(extra): \(run.standardOutput) \(run.standardError)")
                #expect(Self.failure(run) == "corrupt 259", "\(extra): \(run.standardOutput) \(run.standardError)")
                #expect(try Self.folderContents(store) == before, "\(extra): nothing changed or created")
            }
            let check = try Modelc.run(["store", "check", store, "--model", Support.library, "--json"])
            #expect(check.status == 2)
            #expect(try check.json()["class"] as? String == "corrupt", "\(check.standardOutput)")
            #expect(try check.json()["sqliteCode"] as? Int == 11)
        }
    }

    /// A WAL store whose `-wal` holds the current pointer-map page while the database file's
    /// copy of it is zeroed is whole, as SQLite reads it: `migrate` reads the page from the log
    /// and migrates the store.
    @Test func pointerMapPageInTheLogIsRead() throws {
        try withTemporaryDirectory { folder in
            let store = try Self.makeStore(in: folder, rows: 10, journalMode: .wal)
            let copy = folder.appendingPathComponent("Copy.sqlite").path
            // The writer stays open while the files are copied, so the copy's -wal keeps its frames.
            let writer = try DatabaseQueue(path: store)
            try writer.writeWithoutTransaction { db in
                try db.execute(sql: "PRAGMA wal_autocheckpoint = 0")
                try db.execute(
                    sql: "WITH RECURSIVE n(i) AS (SELECT 11 UNION ALL SELECT i + 1 FROM n WHERE i < 3000) INSERT INTO ZTAG (Z_PK, Z_ENT, Z_OPT, ZNAME) SELECT i, 5, 1, 'tag ' || i FROM n")
            }
            for suffix in ["", "-wal"] { try FileManager.default.copyItem(atPath: store + suffix, toPath: copy + suffix) }
            try writer.close()
            try Self.zeroPage(2, of: copy)
            let run = try Modelc.run(["migrate", copy, "--model", Support.library, "--no-backup"])
            #expect(run.status == 0, "\(run.standardOutput) \(run.standardError)")
            let after = try DatabaseQueue(path: copy).read { try String.fetchAll($0, sql: "PRAGMA integrity_check") }
            #expect(after == ["ok"])
        }
    }

    /// A current-version store one byte short: `store check` must not say it opens.
    @Test func truncatedCurrentStoreDoesNotOpen() throws {
        try withTemporaryDirectory { folder in
            let store = try Self.makeStore(in: folder, journalMode: .delete, version: "Library 3")
            let intact = try Modelc.run(["store", "check", store, "--model", Support.library])
            #expect(intact.status == 0, "the intact store opens: \(intact.standardError)")
            let size = try #require(try FileManager.default.attributesOfItem(atPath: store)[.size] as? Int)
            try FileHandle(forUpdatingAtPath: store)?.truncate(atOffset: UInt64(size - 1))
            let check = try Modelc.run(["store", "check", store, "--model", Support.library])
            #expect(check.status == 2)
            #expect(!check.standardOutput.contains("opens with the current version"))
            #expect(check.standardError.contains("[corrupt, 259]"), "\(check.standardError)")
        }
    }

    // MARK: - Missing tables

    /// A store without one of its version's entity or join tables is incompatibleSchema
    /// (134020), named, not given an empty new table.
    @Test(arguments: ["ZTAG", "Z_2TAGS"])
    func missingTableIsIncompatible(_ table: String) throws {
        try withTemporaryDirectory { folder in
            let store = try Self.makeStore(in: folder)
            try DatabaseQueue(path: store).write { try $0.execute(sql: "DROP TABLE \(table)") }
            let before = try Self.folderContents(store)
            for extra in [["--dry-run"], []] {
                let run = try Self.migrate(store, extra)
                #expect(run.status == 1, "\(extra): \(run.standardOutput)")
                #expect(run.standardError.contains("[incompatibleSchema, 134020]"), "\(run.standardError)")
                #expect(run.standardError.contains("no table \(table)"), "\(run.standardError)")
                #expect(try Self.folderContents(store) == before, "nothing changed, no backup left")
            }
        }
    }

    // MARK: - Read-only stores and sidecars

    /// `--dry-run`, `store check` and `store info` on a read-only WAL store in a read-only
    /// folder work and leave the folder as it was: no `-wal` or `-shm` made when there were
    /// none, an existing `-shm` not rewritten.
    @Test(arguments: [false, true])
    func readOnlyCommandsLeaveNothingBeside(withSidecars: Bool) throws {
        try withTemporaryDirectory { folder in
            var store = try Self.makeStore(in: folder, journalMode: .wal)
            if withSidecars {
                // A copy taken while a connection is open has a -wal with frames and a -shm.
                let open = try DatabaseQueue(path: store)
                try open.write { try $0.execute(sql: "UPDATE ZTAG SET ZNAME = ZNAME || '!' WHERE Z_PK <= 10") }
                let copyFolder = folder.appendingPathComponent("copy")
                try FileManager.default.createDirectory(at: copyFolder, withIntermediateDirectories: true)
                store = try copyStore(store, into: copyFolder)
                try open.close()
                #expect(FileManager.default.fileExists(atPath: store + "-shm"))
            } else {
                #expect(!FileManager.default.fileExists(atPath: store + "-wal"))
            }
            let home = URL(fileURLWithPath: store).deletingLastPathComponent().path
            for file in try FileManager.default.contentsOfDirectory(atPath: home) {
                try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: home + "/" + file)
            }
            try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: home)
            defer { try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: home) }
            let before = try Self.folderContents(store)
            let plan = try Self.migrate(store, ["--dry-run", "--json"], wrapper: Self.unprivileged)
            #expect(plan.status == 0, "\(plan.standardError)")
            #expect(try plan.json()["outcome"] as? String == "planned")
            let check = try Modelc.run(["store", "check", store, "--model", Support.library, "--json"], wrapper: Self.unprivileged)
            #expect(try check.json()["class"] as? String == "incompatibleVersionHash", "\(check.standardOutput)")
            let info = try Modelc.run(["store", "info", store], wrapper: Self.unprivileged)
            #expect(info.status == 0, "\(info.standardError)")
            #expect(try Self.folderContents(store) == before, "the folder is as it was")
        }
    }

    // MARK: - Errors

    /// An unknown `--to` or `--through` version is a usage error (64) with X015.
    @Test(arguments: [["--to", "Nope"], ["--through", "Library 2,Nope"]])
    func unknownVersionIsUsageError(_ extra: [String]) throws {
        try withTemporaryDirectory { folder in
            let store = try Self.makeStore(in: folder, rows: 10)
            let before = try Self.folderContents(store)
            let run = try Self.migrate(store, extra)
            #expect(run.status == 64, "\(run.standardError)")
            #expect(run.standardError.contains("[X015]"), "\(run.standardError)")
            #expect(try Self.folderContents(store) == before)
        }
    }
}
