import Foundation
import GRDB
import GRDBSQLite

/// One row of a store's table read column by column with a check of each value's type.
///
/// GRDB's subscripts stop the process on a value that does not convert to the type asked for (a
/// text `ZTIMESTAMP`, a real too large for an integer), and a damaged or hostile store may hold
/// any value in any column: these throw ``StoreError`` of class `corrupt` naming the table, the
/// row and the column instead.
package struct CheckedRow {
    package let row: Row
    /// The table the row comes from, for the message.
    package let table: String
    /// The connection that read it, whose file the error names.
    package let db: Database

    /// The row `row` of `table` in the store `db` has open.
    package init(_ row: Row, table: String, in db: Database) {
        self.row = row
        self.table = table
        self.db = db
    }

    /// The value of the column at `index`, named `column`; nil for NULL.
    /// - Throws: ``StoreError`` of class `corrupt` when the value is not a `T`.
    package func optional<T: DatabaseValueConvertible>(_ index: Int, _ column: String, as type: T.Type = T.self) throws -> T? {
        let value: DatabaseValue = row[index]
        if value.isNull { return nil }
        guard let converted = T.fromDatabaseValue(value) else {
            throw corrupt(column, "holds \(Self.describe(value)), not \(Self.expectation(T.self))")
        }
        return converted
    }

    /// The value of the column at `index`, named `column`, which must not be NULL.
    /// - Throws: ``StoreError`` of class `corrupt` when the value is NULL or not a `T`.
    package func required<T: DatabaseValueConvertible>(_ index: Int, _ column: String, as type: T.Type = T.self) throws -> T {
        guard let value = try optional(index, column, as: T.self) else { throw corrupt(column, "is NULL") }
        return value
    }

    /// The error for `column` of this row, whose value `problem` describes.
    package func corrupt(_ column: String, _ problem: String) -> StoreError {
        let key = row.hasColumn("Z_PK") ? " with Z_PK \(Self.describe(row["Z_PK"] as DatabaseValue))" : ""
        let path = sqlite3_db_filename(db.sqliteConnection, "main").map { String(cString: $0) } ?? ""
        return StoreError(.corrupt, path: path, message: "\(table) row\(key): \(column) \(problem)")
    }

    /// A short description of a value for a message: a long text or blob is cut.
    private static func describe(_ value: DatabaseValue) -> String {
        switch value.storage {
        case .null: "NULL"
        case .int64(let number): "the integer \(number)"
        case .double(let number): "the real \(number)"
        case .string(let text): "the text '\(text.count > 40 ? text.prefix(40) + "…" : text)'"
        case .blob(let data): "a blob of \(data.count) bytes"
        }
    }

    /// What a column read as `type` must hold, in words.
    private static func expectation<T>(_ type: T.Type) -> String {
        switch type {
        case is Double.Type: "a number"
        case is Int.Type, is Int64.Type: "an integer in range"
        case is String.Type: "a text"
        case is Data.Type: "a blob"
        default: "a \(type)"
        }
    }
}
