import Foundation
import GRDB
import ModelStore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Puts a migrated store, built whole under a staging name beside the store, in the store's
/// place: the store is kept as its backup (hard-linked, or copied across file systems, with its
/// external-data folder), then the new file is renamed onto the store's path. rename(2) is
/// atomic, so the store's path always names a whole store, the old or the new.
struct StoreSwap {
    /// The store.
    let path: String
    /// Where the old store is kept; nil for a free `<name>.pre-<version>-<time>` beside it.
    let backupPath: String?
    /// Whether the old store is kept at all.
    let makesBackup: Bool

    /// Renames `staging` onto the store, keeping the old store as the backup of `version`;
    /// returns the backup's path.
    func swap(_ staging: String, version: String) throws -> String? {
        let backup = makesBackup ? try keep(version: version) : nil
        for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: staging + suffix) }
        guard rename(staging, path) == 0 else {
            let reason = String(cString: strerror(errno))
            if let backup {
                unlink(backup)
                try? FileManager.default.removeItem(atPath: StoreLeftovers.supportFolder(of: backup))
            }
            throw MigrationError(.failed, path: path, message: "cannot put the migrated store in place: \(reason)")
        }
        return backup
    }

    // MARK: - Journal and staging files

    /// Switches the store `queue` has open from WAL to a rollback journal (a checkpoint, then
    /// the `-wal` removed), which Core Data reads as well, so that no `-wal` or `-shm` is left
    /// beside the store a swap replaces; returns whether it was WAL.
    static func leavingWAL(_ queue: DatabaseQueue) throws -> Bool {
        try queue.writeWithoutTransaction { db -> Bool in
            let mode = try String.fetchOne(db, sql: "PRAGMA journal_mode") ?? ""
            if mode.lowercased() == "wal" { try db.execute(sql: "PRAGMA journal_mode = DELETE") }
            return mode.lowercased() == "wal"
        }
    }

    /// Puts a store that ``leavingWAL(_:)`` switched back in WAL mode, for a run that did not migrate it.
    static func returningToWAL(_ queue: DatabaseQueue) {
        try? queue.writeWithoutTransaction { try $0.execute(sql: "PRAGMA journal_mode = WAL") }
    }

    /// The connection a run holds the store's lock through, on `database` (the store, or a dry
    /// run's copy): it waits up to 5 seconds for another writer, and names the store in errors.
    static func lockingQueue(_ database: String, store path: String) throws -> DatabaseQueue {
        var configuration = Configuration()
        configuration.busyMode = .timeout(5)
        configuration.label = path
        return try StoreError.mapping(path: path) { try DatabaseQueue(path: database, configuration: configuration) }
    }

    /// Runs `body` under the store's write lock (an immediate transaction it rolls back: the store
    /// is only read through it, the swap replaces the file), with the store out of WAL mode as the
    /// swap needs; a run whose result `migrated` says did not migrate leaves the store in its
    /// journal mode again.
    static func underLock<Result>(
        _ queue: DatabaseQueue, migrated: (Result) -> Bool, _ body: (_ db: Database, _ wasWAL: Bool) throws -> Result
    ) throws -> Result? {
        var result: Result?
        let wasWAL = try leavingWAL(queue)
        defer { if wasWAL && !(result.map(migrated) ?? false) { returningToWAL(queue) } }
        try queue.writeWithoutTransaction { db in
            try db.inTransaction(.immediate) {
                result = try body(db, wasWAL)
                return .rollback
            }
        }
        return result
    }

    /// Removes a staging file and its sidecars.
    static func removeStaging(_ staging: String) {
        for file in [staging, staging + "-wal", staging + "-shm", staging + "-journal"] {
            try? FileManager.default.removeItem(atPath: file)
        }
    }

    // MARK: - Backup

    /// Keeps the store as its backup, under `backupPath` or a free sibling name. A backup path
    /// that already names the store's own file is the link a run killed before its swap made:
    /// it is kept as this run's backup (it holds the store as it is, so nothing is replaced).
    private func keep(version: String) throws -> String {
        let safe = String(version.map { $0.isLetter || $0.isNumber || $0 == "." || $0 == "-" ? $0 : "_" })
        let backup = backupPath ?? SiblingName.free(for: path, tag: "pre-\(safe)")
        let linked = link(path, backup) == 0
        let failure = errno
        let reused = !linked && failure == EEXIST && Self.isSameFile(path, backup)
        if !linked && !reused {
            // Another file at the backup's path: a backup never replaces a file.
            if failure == EEXIST { throw StoreError.alreadyExists(path: backup) }
            guard failure == EXDEV else {
                throw MigrationError(.failed, path: path, message: "cannot keep the store as its backup \(backup): \(String(cString: strerror(failure)))")
            }
            // Another file system: a copy, which also copies the external-data folder.
            try StoreError.mapping(path: backup) { try StoreBackup.backup(path, to: backup) }
            return backup
        }
        let support = StoreLeftovers.supportFolder(of: path)
        if FileManager.default.fileExists(atPath: support) {
            // A killed run's copy of the folder may be partial: it is made again.
            if reused { try? FileManager.default.removeItem(atPath: StoreLeftovers.supportFolder(of: backup)) }
            do {
                try FileManager.default.copyItem(atPath: support, toPath: StoreLeftovers.supportFolder(of: backup))
            } catch {
                unlink(backup)
                throw MigrationError(.failed, path: path, message: "cannot copy the store's external data beside its backup \(backup): \(error.localizedDescription)")
            }
        }
        return backup
    }

    /// Whether `a` and `b` name the same file (one inode, through two links).
    private static func isSameFile(_ a: String, _ b: String) -> Bool {
        var first = stat()
        var second = stat()
        return stat(a, &first) == 0 && stat(b, &second) == 0 && first.st_dev == second.st_dev && first.st_ino == second.st_ino
    }
}
