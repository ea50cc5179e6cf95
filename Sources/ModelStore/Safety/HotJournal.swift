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

    /// Whether SQLite, under its own locks, finds the journal beside the store at `path` hot:
    /// a read-only connection refuses to read it (`SQLITE_READONLY_ROLLBACK`) where reading
    /// would see half a transaction. The journal of a writer at work is not hot, however it
    /// looks: that writer holds the store's lock, and the read waits up to `timeout` seconds for
    /// it. (A WAL store's `-journal` is taken as hot when it looks so: a read-only open of it
    /// could leave a `-wal` beside it.)
    public static func isConfirmed(beside path: String, timeout: TimeInterval = 5) -> Bool {
        guard isPresent(beside: path) else { return false }
        guard StoreFiles(path: path).headerSaysWAL == false else { return true }
        var configuration = Configuration()
        configuration.readonly = true
        configuration.busyMode = .timeout(timeout)
        do {
            // Absolute: a relative path starting with `file:` would be taken as a URI.
            let queue = try DatabaseQueue(path: URL(fileURLWithPath: path).path, configuration: configuration)
            defer { try? queue.close() }
            _ = try queue.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM sqlite_master") }
            return false
        } catch let error as DatabaseError {
            return error.extendedResultCode == .SQLITE_READONLY_ROLLBACK
        } catch {
            return false
        }
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
