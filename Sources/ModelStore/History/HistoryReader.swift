import Foundation
import GRDB

/// Reads and prunes a store's persistent history (`ATRANSACTION`, `ACHANGE`,
/// `ATRANSACTIONSTRING`, laid out as ``PersistentHistoryLayout`` creates them): the SQL behind
/// `NSPersistentHistoryChangeRequest`.
///
/// Use it inside one access to the database `db` (a GRDB read or write closure).
public struct HistoryReader {
    public let db: Database

    public init(db: Database) { self.db = db }

    /// Which transactions a read or a deletion takes.
    public enum Bound: Sendable {
        /// Every transaction.
        case all
        /// Those numbered above (or, for a deletion, below) this number.
        case number(Int64)
        /// Those recorded after (or, for a deletion, before) this many seconds since 2001-01-01.
        case timestamp(Double)
    }

    // MARK: - Reading

    /// The transactions after `bound`, oldest first, each with its changes in recorded order.
    public func transactions(after bound: Bound) throws -> [HistoryRecord] {
        let (condition, arguments) = Self.condition(bound, comparison: ">")
        var records = try Row.fetchAll(db, sql: """
            SELECT t.Z_PK, t.ZTIMESTAMP,
                COALESCE(a.ZNAME, t.ZAUTHOR), COALESCE(c.ZNAME, t.ZCONTEXTNAME),
                COALESCE(b.ZNAME, t.ZBUNDLEID), COALESCE(p.ZNAME, t.ZPROCESSID)
            FROM ATRANSACTION t
            LEFT JOIN ATRANSACTIONSTRING a ON a.Z_PK = t.ZAUTHORTS
            LEFT JOIN ATRANSACTIONSTRING c ON c.Z_PK = t.ZCONTEXTNAMETS
            LEFT JOIN ATRANSACTIONSTRING b ON b.Z_PK = t.ZBUNDLEIDTS
            LEFT JOIN ATRANSACTIONSTRING p ON p.Z_PK = t.ZPROCESSIDTS
            \(condition.isEmpty ? "" : "WHERE t.\(condition)") ORDER BY t.Z_PK
            """, arguments: arguments
        ).map { row in
            HistoryRecord(number: row[0], timestamp: row[1] ?? 0, author: row[2], contextName: row[3], bundleID: row[4], processID: row[5], changes: [])
        }
        guard let first = records.first?.number else { return [] }
        let index = Dictionary(records.enumerated().map { ($1.number, $0) }, uniquingKeysWith: { first, _ in first })
        let tombstones = try Self.tombstoneColumns(in: db)
        let columns = (["Z_PK", "ZCHANGETYPE", "ZENTITY", "ZENTITYPK", "ZTRANSACTIONID", "ZCOLUMNS"] + tombstones).joined(separator: ", ")
        let rows = try Row.fetchCursor(db, sql: "SELECT \(columns) FROM ACHANGE WHERE ZTRANSACTIONID >= ? ORDER BY ZTRANSACTIONID, Z_PK", arguments: [first])
        while let row = try rows.next() {
            let transaction: Int64 = row[4] ?? 0
            guard let position = index[transaction] else { continue }
            let bitmap: Data? = row[5]
            records[position].changes.append(HistoryRecord.Change(
                number: row[0], type: row[1] ?? 0, entityNumber: row[2] ?? 0, primaryKey: row[3] ?? 0,
                updatedPositions: bitmap.map(ChangedColumns.positions), tombstones: (0..<tombstones.count).map { row[6 + $0] }))
        }
        return records
    }

    /// The number of the newest transaction, or nil when history holds none: the transaction a
    /// token taken now stands for.
    public func newestTransactionNumber() throws -> Int64? {
        try Int64.fetchOne(db, sql: "SELECT MAX(Z_PK) FROM ATRANSACTION")
    }

    /// The number of the oldest transaction history still holds, or the next number to be handed
    /// out when it holds none: a token older than one less than this has lost transactions.
    public func oldestRetainedNumber() throws -> Int64 {
        if let oldest = try Int64.fetchOne(db, sql: "SELECT MIN(Z_PK) FROM ATRANSACTION") { return oldest }
        return (try Int64.fetchOne(db, sql: "SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_NAME = 'TRANSACTION'") ?? 0) + 1
    }

    // MARK: - Deleting

    /// Deletes the transactions before `bound` and their changes; returns how many transactions
    /// went. `Z_PRIMARYKEY` keeps its maximum, so numbers are not handed out again, and the shared
    /// strings stay.
    @discardableResult
    public func deleteTransactions(before bound: Bound) throws -> Int {
        let (condition, arguments) = Self.condition(bound, comparison: "<")
        let filter = condition.isEmpty ? "" : "WHERE \(condition)"
        try db.execute(sql: "DELETE FROM ACHANGE WHERE ZTRANSACTIONID IN (SELECT Z_PK FROM ATRANSACTION \(filter))", arguments: arguments)
        try db.execute(sql: "DELETE FROM ATRANSACTION \(filter)", arguments: arguments)
        return db.changesCount
    }

    // MARK: - Helpers

    /// `ZTOMBSTONE0`, `ZTOMBSTONE1`, … as the store's `ACHANGE` has them, in number order.
    static func tombstoneColumns(in db: Database) throws -> [String] {
        try db.columns(in: "ACHANGE").map(\.name)
            .compactMap { name in name.hasPrefix("ZTOMBSTONE") ? Int(name.dropFirst("ZTOMBSTONE".count)).map { (name, $0) } : nil }
            .sorted { $0.1 < $1.1 }.map(\.0)
    }

    /// The SQL condition on `ATRANSACTION` for `bound`.
    private static func condition(_ bound: Bound, comparison: String) -> (String, StatementArguments) {
        switch bound {
        case .all: ("", [])
        case .number(let number): ("Z_PK \(comparison) ?", [number])
        case .timestamp(let seconds): ("ZTIMESTAMP \(comparison) ?", [seconds])
        }
    }
}
