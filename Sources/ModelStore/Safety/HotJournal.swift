import Foundation
import GRDB

/// Plays back the hot rollback journal a writer interrupted mid-transaction (killed, crashed,
/// power lost) left beside a store, as SQLite does on the next open by a writer: the store
/// ends exactly as it was before that transaction, and the journal is gone.
///
/// Nothing else reads such a store right: a read-only open cannot roll back (SQLite refuses
/// it), and reading the main file alone would see half a transaction. So whoever may write the
/// store rolls it back first (the loading stack, a migration after a full disk); read-only
/// commands report it (``StoreErrorClass/hotJournal``) and read a rolled-back private copy.
public enum HotJournal {
    /// Whether a hot journal is beside the store at `path`; see ``rollBack(_:timeout:)``.
    public static func isPresent(beside path: String) -> Bool {
        StoreFiles(path: path).hasHotJournal
    }

    /// Rolls back the interrupted write of the store at `path`, when there is one, by opening
    /// it as a writer and reading it once; returns whether a hot journal was played back.
    ///
    /// SQLite decides under its own locks whether the journal is hot: one whose writer is still
    /// alive holds the store's lock and is left alone (the read waits up to `timeout` seconds,
    /// then fails with class `locked`).
    /// - Throws: ``StoreError`` of its class: `permissionDenied` when the store or its folder
    ///   cannot be written, `corrupt` when the journal cannot be played back.
    @discardableResult
    public static func rollBack(_ path: String, timeout: TimeInterval = 5) throws -> Bool {
        guard isPresent(beside: path) else { return false }
        var configuration = Configuration()
        configuration.busyMode = .timeout(timeout)
        configuration.label = path
        try StoreError.mapping(path: path) {
            let queue = try DatabaseQueue(path: path, configuration: configuration)
            defer { try? queue.close() }
            _ = try queue.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM sqlite_master") }
        }
        return !isPresent(beside: path)
    }
}
