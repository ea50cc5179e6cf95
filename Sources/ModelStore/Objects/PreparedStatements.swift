import GRDB
import GRDBSQLite

/// Statements a writer prepares once and runs for many rows (an entity's inserts, updates of one
/// set of columns, history changes), each owned by the writer alone. Text is bound whole
/// (``WholeText``). After a statement's first run, values are bound without building
/// `StatementArguments`, whose conversion of each value through a key path cost more than the
/// row's write, and stepped with SQLite's own call. Only row writes (`INSERT`, `UPDATE`) run
/// here: no statement that returns rows or starts or ends a transaction, which GRDB must see.
final class PreparedStatements<Key: Hashable> {
    private var statements: [Key: Statement] = [:]
    /// The statement run last, found without hashing its key when the next row is like the last.
    private var last: (key: Key, statement: Statement)?

    /// Whether the statement of `key` is prepared already (its SQL need not be built again).
    func has(_ key: Key) -> Bool { last?.key == key || statements[key] != nil }

    /// Runs the statement of `key` with `values`, preparing it from `sql` the first time.
    func run(_ key: Key, _ values: [DatabaseValue], in db: Database, sql: () -> String) throws {
        if let statement = last.flatMap({ $0.key == key ? $0.statement : nil }) ?? statements[key] {
            last = (key, statement)
            sqlite3_reset(statement.sqliteStatement)
            for (offset, value) in values.enumerated() {
                let code = WholeText.bind(value, to: statement.sqliteStatement, at: CInt(offset + 1))
                guard code == SQLITE_OK else { throw DatabaseError(resultCode: ResultCode(rawValue: code), message: "cannot bind a value", sql: statement.sql) }
            }
            // Stepped directly: a row write returns no rows and starts or ends no transaction,
            // so GRDB's bookkeeping around a statement (observers, transaction state) has nothing to do.
            let code = sqlite3_step(statement.sqliteStatement)
            guard code == SQLITE_DONE else {
                throw DatabaseError(resultCode: ResultCode(rawValue: code), message: String(cString: sqlite3_errmsg(db.sqliteConnection)), sql: statement.sql)
            }
            return
        }
        let statement = try db.makeStatement(sql: sql())
        statements[key] = statement
        last = (key, statement)
        try WholeText.execute(statement, values)
    }
}
