import Foundation
import GRDB
import ModelSchema
@testable import ModelStore
import ModelXML
import Testing
import _ModelTestSupport

/// The safety primitives everything later stands on: a WAL-safe backup and quarantine.
struct SafetyTests {
    static func libraryVersion() throws -> ModelVersion {
        let bundle = try #require(ModelReader().read(at: Corpus.packageRoot.appendingPathComponent("Models/Library.xcdatamodeld").path).bundle)
        return try #require(bundle.currentVersion)
    }

    /// A WAL store with committed rows still in its `-wal`, held open by `body`'s caller.
    func withLiveWALStore(in folder: URL, _ body: (String) throws -> Void) throws {
        let path = folder.appendingPathComponent("Live.sqlite").path
        try StoreCreator.create(at: path, version: try Self.libraryVersion(), journalMode: .wal)
        let queue = try DatabaseQueue(path: path)
        try queue.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA journal_mode = WAL")
            try db.execute(sql: "PRAGMA wal_autocheckpoint = 0")
            try db.inTransaction {
                for index in 1...50 {
                    try db.execute(
                        sql: "INSERT INTO ZTOPIC (Z_PK, Z_ENT, Z_OPT, ZNAME) VALUES (?, 6, 1, ?)", arguments: [index, "topic \(index)"])
                }
                return .commit
            }
        }
        #expect(FileManager.default.fileExists(atPath: path + "-wal"))
        try body(path)
        try queue.close()
    }

    @Test func backupHoldsTransactionsStillInTheWAL() throws {
        try withTemporaryDirectory { folder in
            try withLiveWALStore(in: folder) { path in
                let copy = folder.appendingPathComponent("Backup.sqlite").path
                try StoreBackup.backup(path, to: copy)
                #expect(!FileManager.default.fileExists(atPath: copy + "-wal"))
                let queue = try DatabaseQueue(path: copy, configuration: { var c = Configuration(); c.readonly = true; return c }())
                let (rows, check, journal) = try queue.read { db in
                    (
                        try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM ZTOPIC"),
                        try String.fetchOne(db, sql: "PRAGMA quick_check"),
                        try String.fetchOne(db, sql: "PRAGMA journal_mode")
                    )
                }
                #expect(rows == 50)
                #expect(check == "ok")
                #expect(journal == "delete")
                // A plain copy of the main file alone would have lost them all.
                let plain = folder.appendingPathComponent("Plain.sqlite").path
                try FileManager.default.copyItem(atPath: path, toPath: plain)
                let lost = try DatabaseQueue(path: plain).read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM ZTOPIC") }
                #expect(lost == 0)
            }
        }
    }

    @Test func backupNeverReplacesAFile() throws {
        try withTemporaryDirectory { folder in
            let source = Corpus.packageRoot.appendingPathComponent("Fixtures/Library-v1.sqlite").path
            let existing = try writeFile("Existing.sqlite", "keep me", in: folder)
            #expect(throws: StoreError.self) { try StoreBackup.backup(source, to: existing.path) }
            #expect(try String(contentsOf: existing, encoding: .utf8) == "keep me")
        }
    }

    @Test func quarantineMovesTheStoreWithItsSidecarsAndExternalData() throws {
        try withTemporaryDirectory { folder in
            let path = folder.appendingPathComponent("Library.sqlite").path
            try FileManager.default.copyItem(atPath: Corpus.packageRoot.appendingPathComponent("Fixtures/Library-v3.sqlite").path, toPath: path)
            try writeFile("Library.sqlite-wal", "wal bytes", in: folder)
            try writeFile("Library.sqlite-shm", "shm bytes", in: folder)
            try writeFile(".Library_SUPPORT/_EXTERNAL_DATA/6F1A", "external blob", in: folder)
            let original = try Data(contentsOf: URL(fileURLWithPath: path))
            let date = Date(timeIntervalSince1970: 1_795_000_000)

            let moved = try StoreQuarantine.quarantine(path, now: date)
            #expect(URL(fileURLWithPath: moved).lastPathComponent == "Library.quarantined-20261118T110640Z.sqlite")
            #expect(try Data(contentsOf: URL(fileURLWithPath: moved)) == original)
            #expect(try String(contentsOfFile: moved + "-wal", encoding: .utf8) == "wal bytes")
            #expect(try String(contentsOfFile: moved + "-shm", encoding: .utf8) == "shm bytes")
            let support = folder.appendingPathComponent(".Library.quarantined-20261118T110640Z_SUPPORT/_EXTERNAL_DATA/6F1A").path
            #expect(try String(contentsOfFile: support, encoding: .utf8) == "external blob")
            for leftover in ["Library.sqlite", "Library.sqlite-wal", "Library.sqlite-shm", ".Library_SUPPORT"] {
                #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent(leftover).path))
            }

            // A second quarantine in the same second gets a name of its own.
            try FileManager.default.copyItem(atPath: moved, toPath: path)
            let second = try StoreQuarantine.quarantine(path, now: date)
            #expect(URL(fileURLWithPath: second).lastPathComponent == "Library.quarantined-20261118T110640Z-2.sqlite")
        }
    }

    @Test func quarantineRefusesAStoreAnotherProcessIsWriting() throws {
        try withTemporaryDirectory { folder in
            let path = folder.appendingPathComponent("Busy.sqlite").path
            try StoreCreator.create(at: path, version: try Self.libraryVersion(), journalMode: .delete)
            let locker = try StoreLocker(path)
            defer { locker.stop() }
            #expect { try StoreQuarantine.quarantine(path) } throws: { ($0 as? StoreError)?.errorClass == .locked }
            #expect(FileManager.default.fileExists(atPath: path))
        }
    }

    /// A backup copy waiting to be named is a live run's, which the clean-up of dead runs' files
    /// leaves alone (two migrations at once once lost it that way: the second run removed the
    /// first one's copy between its commit and the naming); once let go, it is a dead run's.
    @Test func aPendingBackupIsNotTakenForADeadRunsFile() throws {
        try withTemporaryDirectory { folder in
            let source = folder.appendingPathComponent("Store.sqlite").path
            try FileManager.default.copyItem(atPath: Corpus.packageRoot.appendingPathComponent("Fixtures/Library-v1.sqlite").path, toPath: source)
            let pending = try StoreBackup.prepare(source, for: nil, tag: "pre-test")
            let dead = source.replacingOccurrences(of: ".sqlite", with: ".pre-old.sqlite") + ".modelc-\(UUID().uuidString)"
            try Data("half a backup".utf8).write(to: URL(fileURLWithPath: dead))
            let hashes = try StoreMetadata.read(at: source).versionHashes
            #expect(StoreLeftovers.cleanUp(beside: source, storeHashes: hashes) == StoreLeftovers.Cleanup(removed: [dead]))
            #expect(FileManager.default.fileExists(atPath: pending.staging))
            let named = try pending.publish()
            #expect(FileManager.default.fileExists(atPath: named) && !FileManager.default.fileExists(atPath: pending.staging))

            let abandoned = try StoreBackup.prepare(source, for: nil, tag: "pre-test")
            abandoned.claim.release()
            #expect(StoreLeftovers.cleanUp(beside: source, storeHashes: hashes) == StoreLeftovers.Cleanup(removed: [abandoned.staging]))
        }
    }

    /// What the clean-up beside a store keeps: a new store being filled under a staging name
    /// (claimed), and a backup copy of a version the store no longer has (named, as a run killed
    /// after its migration's commit leaves it); what it removes: an unclaimed copy of the
    /// store's own version and a store a killed stage built from its working copy.
    @Test func theCleanUpKeepsLiveStagingFilesAndCommittedBackups() throws {
        try withTemporaryDirectory { folder in
            let store = folder.appendingPathComponent("Store.sqlite").path
            let current = try Self.libraryVersion()
            try StoreCreator.create(at: store, version: current, journalMode: .delete)
            let hashes = try StoreMetadata.read(at: store).versionHashes
            let filling = try StoreStaging.new(for: store, version: current)
            let v1 = Corpus.packageRoot.appendingPathComponent("Fixtures/Library-v1.sqlite").path
            let intended = folder.appendingPathComponent("Store.pre-Library-20250101T000000Z.sqlite").path
            let backup = intended + ".modelc-\(UUID().uuidString)"
            let stage = store + ".modelc-\(UUID().uuidString).modelc-\(UUID().uuidString)"
            let stale = folder.appendingPathComponent("Store.pre-Library 3-20250101T000000Z.sqlite").path + ".modelc-\(UUID().uuidString)"
            for (source, copy) in [(v1, backup), (v1, stage), (store, stale)] { try FileManager.default.copyItem(atPath: source, toPath: copy) }
            let cleanup = StoreLeftovers.cleanUp(beside: store, storeHashes: hashes)
            #expect(cleanup == StoreLeftovers.Cleanup(removed: [stale, stage].sorted(), namedBackups: [intended]))
            #expect(FileManager.default.fileExists(atPath: filling.path))
            #expect(try StoreMetadata.read(at: intended).versionIdentifiers == ["1"])
            filling.discard()
            #expect(!FileManager.default.fileExists(atPath: filling.path))
        }
    }
}

