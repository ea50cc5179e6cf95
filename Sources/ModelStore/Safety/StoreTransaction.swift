import Foundation
import GRDB

/// A change made through several saves that must land whole or not at all (`modelc import`
/// saving in batches), written in place in ONE SQLite transaction, as Core Data writes one save:
/// the store's write lock is taken (`BEGIN IMMEDIATE`) before the change reads anything and held
/// until it commits, so that every other writer, in this process or another, waits for it, and
/// every reader sees all of it or nothing; a failure rolls all of it back, and a run killed
/// midway leaves a hot journal (or uncommitted `-wal` frames) that SQLite undoes when the store
/// is next opened.
///
/// In place, not on a copy renamed onto the store: a connection another process has open to the
/// store would go on writing to the replaced file, and its saves would be lost.
/// The saves inside join the transaction as savepoints
/// (``GRDB/DatabaseWriter/writeJoiningTransaction(_:)``).
package enum StoreTransaction {
    /// Opens the store at `path` with `configuration`, takes its write lock (waiting up to
    /// `timeout` seconds for another writer, then failing with class `locked`), runs `change`
    /// on the connection and commits; rolls back when `change` throws.
    package static func run<Result>(
        _ path: String, configuration: Configuration = Configuration(), timeout: TimeInterval = 5, _ change: (DatabaseQueue) throws -> Result
    ) throws -> Result {
        var configuration = configuration
        configuration.busyMode = .timeout(timeout)
        configuration.label = path
        // The transaction stays open between the change's accesses to the connection.
        configuration.allowsUnsafeTransactions = true
        let queue = try StoreError.mapping(path: path) { try DatabaseQueue(path: path, configuration: configuration) }
        defer { try? queue.close() }
        try StoreError.mapping(path: path) { try queue.writeWithoutTransaction { try $0.beginTransaction(.immediate) } }
        do {
            let result = try change(queue)
            try StoreError.mapping(path: path) { try queue.writeWithoutTransaction { try $0.commit() } }
            return result
        } catch {
            try? queue.writeWithoutTransaction { db in if db.isInsideTransaction { try db.rollback() } }
            throw error
        }
    }
}

extension DatabaseWriter {
    /// Runs `updates` in a transaction of its own, as `write` does, or, on a connection inside a
    /// transaction a caller holds open (``StoreTransaction``), in a savepoint of it, which then
    /// commits or rolls back with that transaction.
    package func writeJoiningTransaction<T>(_ updates: (Database) throws -> T) throws -> T {
        try writeWithoutTransaction { db in
            var result: T?
            try db.inSavepoint {
                result = try updates(db)
                return .commit
            }
            guard let result else { throw DatabaseError(resultCode: .SQLITE_MISUSE, message: "the write ended without a result") }
            return result
        }
    }
}
