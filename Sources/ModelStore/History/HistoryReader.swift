import Foundation
import GRDB

/// Reads and prunes a store's persistent history (`ATRANSACTION`, `ACHANGE`,
/// `ATRANSACTIONSTRING`, laid out as ``PersistentHistoryLayout`` creates them): the SQL behind
/// `NSPersistentHistoryChangeRequest`.
///
/// Use it inside one access to the database `db` (a GRDB read or write closure).
package struct HistoryReader {
    package let db: Database

    package init(db: Database) { self.db = db }

    /// Which transactions a read or a deletion takes.
    package enum Bound: Sendable {
        /// Every transaction.
        case all
        /// Those numbered above (or, for a deletion, below) this number.
        case number(Int64)
        /// Those recorded after (or, for a deletion, before) this many seconds since 2001-01-01.
        case timestamp(Double)
    }

    // MARK: - Reading

    /// The transactions after `bound`, oldest first, each with its changes in recorded order.
    /// - Throws: ``StoreError`` of class `corrupt` naming the table, row and column of a value
    ///   that is not of its column's type (a text timestamp, a real change type).
    package func transactions(after bound: Bound) throws -> [HistoryRecord] {
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
        ).map(transaction)
        guard let first = records.first?.number else { return [] }
        let index = Dictionary(records.enumerated().map { ($1.number, $0) }, uniquingKeysWith: { first, _ in first })
        let tombstones = try Self.tombstoneColumns(in: db)
        let names = ["Z_PK", "ZCHANGETYPE", "ZENTITY", "ZENTITYPK", "ZTRANSACTIONID", "ZCOLUMNS"] + tombstones
        let rows = try Row.fetchCursor(
            db, sql: "SELECT \(names.joined(separator: ", ")) FROM ACHANGE WHERE ZTRANSACTIONID >= ? ORDER BY ZTRANSACTIONID, Z_PK", arguments: [first])
        while let row = try rows.next() {
            let checked = CheckedRow(row, table: "ACHANGE", in: db)
            guard let position = index[try checked.optional(4, "ZTRANSACTIONID", as: Int64.self) ?? 0] else { continue }
            records[position].changes.append(HistoryRecord.Change(
                number: try checked.required(0, "Z_PK"), type: try checked.optional(1, "ZCHANGETYPE") ?? 0,
                entityNumber: try checked.optional(2, "ZENTITY") ?? 0, primaryKey: try checked.optional(3, "ZENTITYPK") ?? 0,
                changedColumns: try checked.optional(5, "ZCOLUMNS"), tombstones: tombstones.indices.map { WholeColumn.value(row, 6 + $0) }))
        }
        return records
    }

    /// An `ATRANSACTION` row (with its strings resolved) as a record without its changes.
    private func transaction(_ row: Row) throws -> HistoryRecord {
        let checked = CheckedRow(row, table: "ATRANSACTION", in: db)
        let timestamp = try checked.optional(1, "ZTIMESTAMP", as: Double.self) ?? 0
        guard timestamp.isFinite else { throw checked.corrupt("ZTIMESTAMP", "holds \(timestamp), not a time") }
        return HistoryRecord(
            number: try checked.required(0, "Z_PK"), timestamp: timestamp, author: try checked.optional(2, "ZAUTHOR"),
            contextName: try checked.optional(3, "ZCONTEXTNAME"), bundleID: try checked.optional(4, "ZBUNDLEID"),
            processID: try checked.optional(5, "ZPROCESSID"), changes: [])
    }

    /// The number of the newest transaction, or nil when history holds none: the transaction a
    /// token taken now stands for.
    package func newestTransactionNumber() throws -> Int64? {
        try Int64.fetchOne(db, sql: "SELECT MAX(Z_PK) FROM ATRANSACTION")
    }

    /// The number of the oldest transaction history still holds, or the next number to be handed
    /// out when it holds none: a token older than one less than this has lost transactions.
    package func oldestRetainedNumber() throws -> Int64 {
        if let oldest = try Int64.fetchOne(db, sql: "SELECT MIN(Z_PK) FROM ATRANSACTION") { return oldest }
        let last = try Int64.fetchOne(db, sql: "SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_NAME = 'TRANSACTION'") ?? 0
        // A store that has handed out the last number has no next one: none is newer.
        return last == .max ? last : last + 1
    }

    // MARK: - Deleting

    /// Deletes the transactions before `bound` and their changes; returns how many transactions
    /// went. `Z_PRIMARYKEY` keeps its maximum, so numbers are not handed out again, and the shared
    /// strings stay.
    @discardableResult
    package func deleteTransactions(before bound: Bound) throws -> Int {
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
