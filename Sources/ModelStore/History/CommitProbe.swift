import Foundation
import GRDB

/// Tells whether any connection, in this process or another, committed to a store since the
/// last look, and the number of the newest transaction of its persistent history: what a
/// remote-change watcher asks once the store's files changed on disk.
///
/// It reads SQLite's `PRAGMA data_version` on a read-only connection of its own. The value
/// changes when another connection commits and never for a checkpoint or a read, so that a
/// write to the `-wal` or a checkpoint into the main file that committed nothing is told apart
/// from a commit without reading any table. Use it from one thread at a time.
package final class CommitProbe {
    /// What a look found: a commit happened, and the newest transaction then.
    package struct Commit: Sendable, Equatable {
        /// The newest `ATRANSACTION.Z_PK`; nil when the store does not track history or has none.
        package var newestTransaction: Int64?
    }

    private let connection: DatabaseQueue
    private var dataVersion: Int64

    /// A probe on the store at `path`, which must exist.
    /// - Throws: GRDB's error when the store cannot be opened for reading.
    package init(path: String) throws {
        var configuration = Configuration()
        configuration.readonly = true
        configuration.label = "modelc.CommitProbe"
        connection = try DatabaseQueue(path: path, configuration: configuration)
        dataVersion = try connection.read { try Self.dataVersion($0) }
    }

    /// The commit made since the last look (or since the probe opened), or nil when there was none.
    package func look() throws -> Commit? {
        let last = dataVersion
        let (version, newest) = try connection.read { db in
            let version = try Self.dataVersion(db)
            guard version != last else { return (version, Int64?.none) }
            return (version, try PersistentHistoryLayout.isPresent(in: db) ? try HistoryReader(db: db).newestTransactionNumber() : nil)
        }
        guard version != dataVersion else { return nil }
        dataVersion = version
        return Commit(newestTransaction: newest)
    }

    private static func dataVersion(_ db: Database) throws -> Int64 {
        try Int64.fetchOne(db, sql: "PRAGMA data_version") ?? 0
    }
}
