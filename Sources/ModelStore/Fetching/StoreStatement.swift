import GRDB

/// A statement for a store and its arguments, as the fetch builders make them.
package struct StoreStatement: Sendable {
    package var sql: String
    package var arguments: StatementArguments

    package init(sql: String, arguments: StatementArguments = StatementArguments()) {
        self.sql = sql
        self.arguments = arguments
    }
}
