import Foundation
import GRDB
import ModelSchema
import ModelStore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Puts a migrated store, built whole under a staging name beside the store, in the store's
/// place: its content is written into the store's own file (``StoreContentCopy``) in the
/// transaction through which the run holds the store's write lock, so that the store's path
/// always holds a whole store, the old or the new, and an app that has the store open keeps
/// reading and writing the store, never an unlinked file. The old store is copied for its
/// backup under the same lock before anything is written, and the copy is named once the
/// change has committed (``StoreBackup/Pending``): a run that fails or is killed before leaves
/// only an unnamed copy, which the next run removes.
final class StoreSwap {
    /// The store.
    let path: String
    /// Where the old store is kept; nil for a free `<name>.pre-<version>-<time>` beside it.
    let backupPath: String?
    /// Whether the old store is kept at all.
    let makesBackup: Bool
    /// The copy of the old store, named once the swap has committed.
    private var pendingBackup: StoreBackup.Pending?
    /// The staging file the swap wrote into the store, removed once the swap has committed.
    private var staging: String?
    /// The backup's path, once named.
    private(set) var backup: String?

    init(path: String, backupPath: String?, makesBackup: Bool) {
        self.path = path
        self.backupPath = backupPath
        self.makesBackup = makesBackup
    }

    /// Writes the store at `staging` into the store `db` has open, in the transaction of
    /// ``underLock(_:migrated:_:)``, keeping the old store first as the backup of `version`.
    func swap(_ staging: String, into db: Database, version: String) throws {
        if makesBackup { pendingBackup = try keep(db, version: version) }
        self.staging = staging
        try StoreContentCopy.replace(db, with: staging)
    }

    /// Runs `body` under the store's write lock (an immediate transaction on `queue`), which
    /// commits what a ``swap(_:into:version:)`` in it wrote when `migrated` says the run
    /// migrated, and rolls back otherwise; then names the backup, or removes its copy.
    func underLock<Result>(_ queue: DatabaseQueue, migrated: (Result) -> Bool, _ body: (_ db: Database) throws -> Result) throws -> Result? {
        var result: Result?
        do {
            try queue.writeWithoutTransaction { db in
                // Once the transaction has ended either way; a staging file left attached is
                // let go of when the queue closes.
                defer { try? StoreContentCopy.detach(db) }
                try db.inTransaction(.immediate) {
                    result = try body(db)
                    return result.map(migrated) == true ? .commit : .rollback
                }
            }
        } catch {
            pendingBackup?.discard()
            throw error
        }
        guard let done = result, migrated(done) else {
            pendingBackup?.discard()
            return result
        }
        if let staging { Self.removeStaging(staging) }
        if let pendingBackup {
            backup = try pendingBackup.publishAfterMigrating(path)
        }
        return result
    }

    /// Cleans up after killed runs beside the store and beside the backup path, where a run
    /// killed before naming its backup left the copy (``StoreLeftovers``); call it under the lock.
    func cleanUp(storeHashes: [String: VersionHash]) -> StoreLeftovers.Cleanup {
        var cleanup = StoreLeftovers.Cleanup()
        for place in [path] + (backupPath.map { [$0] } ?? []) {
            let done = StoreLeftovers.cleanUp(beside: place, storeHashes: storeHashes)
            cleanup.removed += done.removed
            cleanup.namedBackups += done.namedBackups
        }
        return cleanup
    }

    /// The connection a run holds the store's lock through, on `database` (the store, or a dry
    /// run's copy): it waits up to 5 seconds for another writer, names the store in errors, and
    /// leaves foreign keys off, as Core Data does, so that dropping a table checks no rows.
    static func lockingQueue(_ database: String, store path: String) throws -> DatabaseQueue {
        var configuration = Configuration()
        configuration.busyMode = .timeout(5)
        configuration.label = path
        configuration.foreignKeysEnabled = false
        return try StoreError.mapping(path: path) { try DatabaseQueue(path: database, configuration: configuration) }
    }

    /// Removes a staging file and its sidecars.
    static func removeStaging(_ staging: String) {
        for file in [staging, staging + "-wal", staging + "-shm", staging + "-journal"] {
            try? FileManager.default.removeItem(atPath: file)
        }
    }

    // MARK: - Backup

    /// Copies the store for its backup, under `backupPath` or a free sibling name, before
    /// anything is written: the file byte for byte in a rollback journal (the lock keeps every
    /// writer out), through SQLite's backup API in WAL (the file lacks what the `-wal` holds).
    /// A backup path that names the store's own file is the link an older run killed before its
    /// rename made: that name is let go first (the store keeps its own), since the store's file
    /// is about to change.
    private func keep(_ db: Database, version: String) throws -> StoreBackup.Pending {
        let safe = String(version.map { $0.isLetter || $0.isNumber || $0 == "." || $0 == "-" ? $0 : "_" })
        if let backupPath, Self.isSameFile(path, backupPath) {
            unlink(backupPath)
            try? FileManager.default.removeItem(atPath: StoreLeftovers.supportFolder(of: backupPath))
        }
        let wal = try String.fetchOne(db, sql: "PRAGMA main.journal_mode")?.lowercased() == "wal"
        return try StoreBackup.prepare(path, for: backupPath, tag: "pre-\(safe)", byteForByte: !wal)
    }

    /// Whether `a` and `b` name the same file (one inode, through two links).
    private static func isSameFile(_ a: String, _ b: String) -> Bool {
        var first = stat()
        var second = stat()
        return stat(a, &first) == 0 && stat(b, &second) == 0 && first.st_dev == second.st_dev && first.st_ino == second.st_ino
    }
}
