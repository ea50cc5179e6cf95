import Foundation
import GRDB

/// Records a save in a store's persistent history as Core Data does (Documentation/History.md):
/// one `ATRANSACTION` row, its strings interned once in `ATRANSACTIONSTRING`, one `ACHANGE` row
/// per object, each row numbered from `Z_PRIMARYKEY` like any entity's, `Z_OPT` NULL.
///
/// Use it inside the save's write transaction on `db`.
package struct HistoryWriter {
    package let db: Database

    package init(db: Database) { self.db = db }

    /// What a save did to one object.
    package struct Change: Sendable {
        /// 0 insert, 1 update, 2 delete.
        package var type: Int
        /// The object's own entity number.
        package var entityNumber: Int
        package var primaryKey: Int64
        /// For an update, the positions of its changed properties in the entity's name-sorted list.
        package var updatedPositions: [Int]?
        /// For a delete, the values of `ZTOMBSTONE0`, `ZTOMBSTONE1`, … in order.
        package var tombstones: [DatabaseValue]

        /// The change of the object `object` (a key of the object layer, whose store's key space
        /// is dropped: the row's own primary key is recorded).
        package init(type: Int, object: ObjectKey, updatedPositions: [Int]?, tombstones: [DatabaseValue] = []) {
            self.type = type
            entityNumber = object.number
            primaryKey = KeySpace.primaryKey(of: object.key)
            self.updatedPositions = updatedPositions
            self.tombstones = tombstones
        }
    }

    /// Writes one transaction with `changes`, in their order; returns its number.
    @discardableResult
    package func record(
        timestamp: Double, author: String?, contextName: String?, bundleID: String?, processID: String?, changes: [Change]
    ) throws -> Int64 {
        let number = try ObjectRowWriter.reserveKeys(rootNumber: 16002, count: 1, in: db)
        try db.execute(
            sql: """
                INSERT INTO ATRANSACTION (Z_PK, Z_ENT, Z_OPT, ZAUTHORTS, ZBUNDLEIDTS, ZCONTEXTNAMETS, ZPROCESSIDTS, ZTIMESTAMP)
                VALUES (?, 16002, NULL, ?, ?, ?, ?, ?)
                """,
            arguments: [number, try string(author), try string(bundleID), try string(contextName), try string(processID), timestamp])
        var key = try ObjectRowWriter.reserveKeys(rootNumber: 16001, count: changes.count, in: db)
        // Tombstone columns as far as the store has them: loading with tracking on adds those its
        // model needs (PersistentHistoryLayout.install), but a store opened otherwise may lack some.
        let tombstones = changes.contains { !$0.tombstones.isEmpty } ? try HistoryReader.tombstoneColumns(in: db) : []
        let sql = """
            INSERT INTO ACHANGE (Z_PK, Z_ENT, Z_OPT, ZCHANGETYPE, ZENTITY, ZENTITYPK, ZTRANSACTIONID, ZCOLUMNS\(tombstones.map { ", " + $0 }.joined()))
            VALUES (?, 16001, NULL, ?, ?, ?, ?, ?\(String(repeating: ", ?", count: tombstones.count)))
            """
        let statements = PreparedStatements<Int>()
        var values = [DatabaseValue]()
        values.reserveCapacity(6 + tombstones.count)
        for change in changes {
            // One buffer for every row's values, which the statement binds at once.
            values.removeAll(keepingCapacity: true)
            values.append(key.databaseValue)
            values.append(change.type.databaseValue)
            values.append(change.entityNumber.databaseValue)
            values.append(change.primaryKey.databaseValue)
            values.append(number.databaseValue)
            values.append(change.updatedPositions.map(ChangedColumns.bitmap)?.databaseValue ?? .null)
            for index in tombstones.indices { values.append(index < change.tombstones.count ? change.tombstones[index] : .null) }
            try statements.run(0, values, in: db) { sql }
            key += 1
        }
        return number
    }

    /// The `ATRANSACTIONSTRING` key of `name`, added when new; nil for nil.
    private func string(_ name: String?) throws -> Int64? {
        guard let name else { return nil }
        if let known = try Int64.fetchOne(db, sql: "SELECT Z_PK FROM ATRANSACTIONSTRING WHERE ZNAME = ?", arguments: [name]) { return known }
        let key = try ObjectRowWriter.reserveKeys(rootNumber: 16003, count: 1, in: db)
        try db.execute(sql: "INSERT INTO ATRANSACTIONSTRING (Z_PK, Z_ENT, Z_OPT, ZNAME) VALUES (?, 16003, NULL, ?)", arguments: [key, name])
        return key
    }
}
