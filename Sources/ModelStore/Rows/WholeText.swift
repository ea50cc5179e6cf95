import GRDB
import GRDBSQLite

/// Text bound to and read from SQLite with its length in bytes, so that a string holding U+0000
/// is stored and read whole, as Core Data keeps an NSString: GRDB binds a string up to its
/// first NUL (`sqlite3_bind_text(…, -1, …)`) and reads one up to its first NUL
/// (`String(cString:)`), which would store or return a shorter string than the one saved.
enum WholeText {
    /// SQLite's marker for a value it copies before the bind returns.
    static let transient = unsafeBitCast(OpaquePointer(bitPattern: -1), to: sqlite3_destructor_type.self)

    /// Binds `value` at `index` of `statement` (1-based): text with its byte count, the rest as GRDB binds it.
    static func bind(_ value: DatabaseValue, to statement: SQLiteStatement, at index: CInt) -> CInt {
        guard case .string(var text) = value.storage else { return value.bind(to: statement, at: index) }
        return text.withUTF8 { bytes in
            // An empty buffer may have no address, which SQLite would bind as NULL rather than "".
            guard let start = bytes.baseAddress else { return sqlite3_bind_text(statement, index, "", 0, transient) }
            return start.withMemoryRebound(to: CChar.self, capacity: bytes.count) {
                sqlite3_bind_text64(statement, index, $0, sqlite3_uint64(bytes.count), transient, UInt8(SQLITE_UTF8))
            }
        }
    }

    /// Sets `values` as the arguments of `statement`, text bound whole; GRDB then runs the
    /// statement with these bindings (`execute()`, `Row.fetchCursor(statement)`), given no
    /// arguments of its own.
    /// - Throws: GRDB's error when the statement takes another number of arguments.
    static func setArguments(_ values: [DatabaseValue], of statement: Statement) throws {
        try statement.setArguments(StatementArguments(values))
        for (offset, value) in values.enumerated() {
            guard case .string = value.storage else { continue }
            let code = bind(value, to: statement.sqliteStatement, at: CInt(offset + 1))
            guard code == SQLITE_OK else { throw DatabaseError(resultCode: ResultCode(rawValue: code), message: "cannot bind a value", sql: statement.sql) }
        }
    }

    /// Runs a statement that writes rows with `values` as its arguments, text bound whole.
    static func execute(_ statement: Statement, _ values: [DatabaseValue]) throws {
        try setArguments(values, of: statement)
        try statement.execute()
    }

    /// The rows of `statement` with `values` as its arguments, text bound whole; read their
    /// columns with ``WholeColumn`` before the cursor steps on.
    static func rows(_ statement: Statement, _ values: [DatabaseValue]) throws -> RowCursor {
        try setArguments(values, of: statement)
        return try Row.fetchCursor(statement)
    }

    /// The value of column `index` of the row `statement` stands on: text with all its bytes
    /// (invalid UTF-8 repaired, as GRDB repairs it), the rest as GRDB reads it.
    static func value(of statement: SQLiteStatement, at index: CInt) -> DatabaseValue {
        guard sqlite3_column_type(statement, index) == SQLITE_TEXT else { return DatabaseValue(sqliteStatement: statement, index: index) }
        return string(of: statement, at: index).databaseValue
    }

    /// The text of column `index` of the row `statement` stands on, with all its bytes (invalid
    /// UTF-8 repaired); a value of another storage class as SQLite converts it to text.
    static func string(of statement: SQLiteStatement, at index: CInt) -> String {
        // The text first, then its length: asking for the text may convert it, which changes the length.
        let start = sqlite3_column_text(statement, index)
        let count = Int(sqlite3_column_bytes(statement, index))
        guard let start, count > 0 else { return "" }
        return String(decoding: UnsafeBufferPointer(start: start, count: count), as: UTF8.self)
    }
}
