import Foundation
import GRDB

/// One transaction of a store's persistent history as Core Data recorded it: an `ATRANSACTION`
/// row with its strings resolved through `ATRANSACTIONSTRING`, and its `ACHANGE` rows in the order
/// they were written (Documentation/History.md).
package struct HistoryRecord: Sendable, Equatable {
    /// `Z_PK`, the transaction number tokens count by.
    package var number: Int64
    /// `ZTIMESTAMP`: seconds since 2001-01-01.
    package var timestamp: Double
    package var author: String?
    package var contextName: String?
    package var bundleID: String?
    package var processID: String?
    package var changes: [Change]

    /// One `ACHANGE` row.
    package struct Change: Sendable, Equatable {
        /// `Z_PK` of the change.
        package var number: Int64
        /// `ZCHANGETYPE`: 0 insert, 1 update, 2 delete (`NSPersistentHistoryChangeType`).
        package var type: Int
        /// `ZENTITY`: the changed object's own entity number (`Z_ENT`).
        package var entityNumber: Int
        /// `ZENTITYPK`: the changed object's `Z_PK`.
        package var primaryKey: Int64
        /// `ZCOLUMNS` as stored: the bitmap of the updated properties in the entity's name-sorted
        /// property list (``ChangedColumns``); nil when the row has none (inserts and deletes).
        /// Kept undecoded, so that a long bitmap costs its bytes and not a position per bit: a
        /// reader decodes only the positions its entity has.
        package var changedColumns: Data?
        /// `ZTOMBSTONE0`… in order: the deleted object's preserved values, as their columns hold them.
        package var tombstones: [DatabaseValue]

        package init(number: Int64, type: Int, entityNumber: Int, primaryKey: Int64, changedColumns: Data?, tombstones: [DatabaseValue]) {
            self.number = number
            self.type = type
            self.entityNumber = entityNumber
            self.primaryKey = primaryKey
            self.changedColumns = changedColumns
            self.tombstones = tombstones
        }
    }
}
