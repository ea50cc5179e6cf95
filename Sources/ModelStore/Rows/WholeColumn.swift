import GRDB
import GRDBSQLite

/// A column's value read with its text whole (``WholeText``), asked for as `row[index] as WholeColumn?`
/// of a row a cursor stands on; a row GRDB copied (`fetchAll`, `fetchOne`) has cut its text already.
struct WholeColumn: DatabaseValueConvertible, StatementColumnConvertible {
    var databaseValue: DatabaseValue

    init(sqliteStatement: SQLiteStatement, index: CInt) {
        databaseValue = WholeText.value(of: sqliteStatement, at: index)
    }

    private init(_ value: DatabaseValue) { databaseValue = value }

    static func fromDatabaseValue(_ dbValue: DatabaseValue) -> WholeColumn? { WholeColumn(dbValue) }

    /// The value of column `index` of `row`; `.null` for NULL.
    static func value(_ row: Row, _ index: Int) -> DatabaseValue {
        (row[index] as WholeColumn?)?.databaseValue ?? .null
    }
}
