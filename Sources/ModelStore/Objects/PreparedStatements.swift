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
    /// The statement found last, and its key, kept apart so that the next row like the last
    /// finds it by one comparison, without hashing the key or copying a pair of them.
    private var lastKey: Key?
    private var lastStatement: Statement?

    /// The statement of `key`, if it is prepared already (its SQL need not be built again).
    func statement(_ key: Key) -> Statement? {
        if let lastStatement, lastKey == key { return lastStatement }
        guard let statement = statements[key] else { return nil }
        lastKey = key
        lastStatement = statement
        return statement
    }

    /// Runs `prepared`, the statement ``statement(_:)`` found for `key`, with `values`; when it
    /// found none, prepares the statement of `key` from `sql` first.
    func run(_ key: Key, prepared: Statement?, _ values: [DatabaseValue], in db: Database, sql: () -> String) throws {
        guard let prepared else {
            let statement = try db.makeStatement(sql: sql())
            statements[key] = statement
            lastKey = key
            lastStatement = statement
            return try WholeText.execute(statement, values)
        }
        let statement = prepared.sqliteStatement
        sqlite3_reset(statement)
        for (offset, value) in values.enumerated() {
            let code = WholeText.bind(value, to: statement, at: CInt(offset + 1))
            guard code == SQLITE_OK else { throw DatabaseError(resultCode: ResultCode(rawValue: code), message: "cannot bind a value", sql: prepared.sql) }
        }
        // Stepped directly: a row write returns no rows and starts or ends no transaction,
        // so GRDB's bookkeeping around a statement (observers, transaction state) has nothing to do.
        let code = sqlite3_step(statement)
        guard code == SQLITE_DONE else {
            throw DatabaseError(resultCode: ResultCode(rawValue: code), message: String(cString: sqlite3_errmsg(db.sqliteConnection)), sql: prepared.sql)
        }
    }

    /// Runs the statement of `key` with `values`, preparing it from `sql` the first time.
    func run(_ key: Key, _ values: [DatabaseValue], in db: Database, sql: () -> String) throws {
        try run(key, prepared: statement(key), values, in: db, sql: sql)
    }
}
