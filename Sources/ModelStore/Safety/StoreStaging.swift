import Foundation
import GRDB

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A working copy of a store beside it, for a change made in many transactions that must land
/// whole or not at all (`modelc import` saving in batches): the change is made on the copy, then
/// ``commit()`` renames it onto the store (rename(2) is atomic, so the store's path always names
/// a whole store, the old or the new); ``discard()`` removes it and leaves the store as it was,
/// byte for byte, since nothing but the copy was written.
///
/// The copy is named like a backup (`<name>.<tag>-<UTC time>.<extension>`, ``SiblingName``) and
/// has no external-data folder: a change through the object layer writes none, and the store's
/// own folder serves the copy once it is in place. Like a migration, a staged change expects no
/// other process to write the store meanwhile: what another writer commits is lost.
public struct StoreStaging: Sendable {
    /// The store the copy replaces.
    public let store: String
    /// The working copy.
    public let path: String
    /// Whether the store existed when the copy was made (else the copy is a new store).
    public let replacesStore: Bool

    /// A consistent copy of the existing store at `store` (its `-wal` included), made with
    /// SQLite's online backup API, and read in place when that creates no file beside the store.
    public static func copy(of store: String, tag: String) throws -> StoreStaging {
        let staging = StoreStaging(store: store, path: SiblingName.free(for: store, tag: tag), replacesStore: true)
        do {
            try StoreBackup.copyDatabase(store, to: staging.path, inPlace: true)
        } catch {
            staging.discard()
            throw error
        }
        return staging
    }

    /// A free path beside `store`, which does not exist yet, for a new store to be made in.
    public static func new(for store: String, tag: String) -> StoreStaging {
        StoreStaging(store: store, path: SiblingName.free(for: store, tag: tag), replacesStore: false)
    }

    /// Removes the copy and its sidecars; the store is untouched.
    public func discard() {
        StoreFiles(path: path).removeDatabaseAndSidecars()
    }

    /// Puts the copy, which no connection may have open, in the store's place, with everything
    /// its `-wal` held and in its journal mode. A store that
    /// existed is first checkpointed and switched to a rollback journal, so that no `-wal` of it
    /// is left to be replayed into the copy; a new store is linked to its name, which fails
    /// rather than replacing a store made meanwhile. The copy is discarded when this throws.
    public func commit() throws {
        defer { discard() }
        // Whatever is still in the copy's `-wal` goes into it, and the `-wal` away, in the same mode.
        if try journalMode(of: path, to: "DELETE") { _ = try journalMode(of: path, to: "WAL") }
        if replacesStore {
            let wasWAL = try journalMode(of: store, to: "DELETE")
            guard rename(path, store) == 0 else {
                let reason = String(cString: strerror(errno))
                if wasWAL { _ = try? journalMode(of: store, to: "WAL") }
                throw StoreError(.permissionDenied, code: 513, path: store, message: "cannot put the changed store in place: \(reason)")
            }
        } else {
            guard link(path, store) == 0 else {
                if errno == EEXIST { throw StoreError.alreadyExists(path: store) }
                throw StoreError(.permissionDenied, code: 513, path: store, message: "cannot put the new store in place: \(String(cString: strerror(errno)))")
            }
        }
    }

    /// Switches the store at `file` to journal mode `mode` ("DELETE" or "WAL") unless it is in
    /// it; leaving WAL checkpoints the `-wal` into the database and removes it, and a WAL store
    /// closed by its last connection has no `-wal` either. Returns whether it was WAL.
    private func journalMode(of file: String, to mode: String) throws -> Bool {
        try StoreError.mapping(path: file) {
            let queue = try DatabaseQueue(path: file)
            defer { try? queue.close() }
            return try queue.writeWithoutTransaction { db -> Bool in
                let wasWAL = try String.fetchOne(db, sql: "PRAGMA journal_mode")?.lowercased() == "wal"
                if wasWAL != (mode == "WAL") { try db.execute(sql: "PRAGMA journal_mode = \(mode)") }
                return wasWAL
            }
        }
    }
}
