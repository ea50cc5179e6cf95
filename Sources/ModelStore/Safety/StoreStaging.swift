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
/// since nothing but the copy was written.
///
/// The copy is named as a migration's half-made store, `<store>.modelc-<UUID>`, so that the
/// next run holding the store's write lock removes it when a killed run left it
/// (``StoreLeftovers``); ``changing(_:_:)`` holds that lock while it makes and fills the copy.
/// The copy has no external-data folder: a change through the object layer writes none, and
/// the store's own folder serves the copy once it is in place.
public struct StoreStaging: Sendable {
    /// The store the copy replaces.
    public let store: String
    /// The working copy.
    public let path: String
    /// Whether the store existed when the copy was made (else the copy is a new store).
    public let replacesStore: Bool

    /// A consistent copy of the existing store at `store` (its `-wal` included), made with
    /// SQLite's online backup API, and read in place when that creates no file beside the store.
    static func copy(of store: String) throws -> StoreStaging {
        let staging = StoreStaging(store: store, path: stagingPath(for: store), replacesStore: true)
        do {
            try StoreBackup.copyDatabase(store, to: staging.path, inPlace: true)
        } catch {
            staging.discard()
            throw error
        }
        return staging
    }

    /// Makes a copy of the existing store at `store`, runs `change` on it and puts it in the
    /// store's place, or discards it when `change` throws. The store's write lock (an immediate
    /// transaction, rolled back: nothing is written to the store, which a failure leaves byte
    /// for byte) is held while the copy is made and changed, so that no other writer's commit
    /// is lost, and copies killed runs left are removed first (`change` gets their paths). The
    /// lock is let go just before the copy takes the store's place, which needs the store to
    /// itself to leave WAL mode; a run that removes the copy in that moment fails the commit,
    /// leaving the store whole.
    public static func changing<Result>(_ store: String, _ change: (StoreStaging, _ removed: [String]) throws -> Result) throws -> Result {
        var staged: (StoreStaging, Result)?
        try StoreError.mapping(path: store) {
            let queue = try DatabaseQueue(path: store)
            defer { try? queue.close() }
            try queue.writeWithoutTransaction { db in
                try db.inTransaction(.immediate) {
                    let removed = StoreLeftovers.removeDeadRunFiles(beside: store)
                    let staging = try copy(of: store)
                    do {
                        staged = (staging, try change(staging, removed))
                    } catch {
                        staging.discard()
                        throw error
                    }
                    return .rollback
                }
            }
        }
        guard let (staging, result) = staged else { throw StoreError(.permissionDenied, code: 513, path: store, message: "the store's change ended without a result") }
        try staging.commit()
        return result
    }

    /// A free path beside `store`, which does not exist yet, for a new store to be made in.
    public static func new(for store: String) -> StoreStaging {
        StoreStaging(store: store, path: stagingPath(for: store), replacesStore: false)
    }

    /// A staging name beside `store` no other run uses.
    private static func stagingPath(for store: String) -> String {
        store + ".modelc-\(UUID().uuidString)"
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
