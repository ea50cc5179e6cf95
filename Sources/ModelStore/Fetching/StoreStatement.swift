import GRDB

/// A statement for a store and its arguments, as the fetch builders make them.
public struct StoreStatement: Sendable {
    public var sql: String
    public var arguments: StatementArguments

    public init(sql: String, arguments: StatementArguments = StatementArguments()) {
        self.sql = sql
        self.arguments = arguments
    }
}
