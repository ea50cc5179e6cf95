/// A table of a store: its columns in order, its primary key and the statement that creates it.
public struct StoreTable: Sendable, Equatable {
    public var name: String
    public var columns: [StoreColumn]
    /// The primary key's columns (`Z_PK` for entity tables, both columns for join tables).
    public var primaryKey: [String]
    /// The `CREATE TABLE` statement, spelled as Core Data spells it.
    public var sql: String

    public init(name: String, columns: [StoreColumn], primaryKey: [String], sql: String) {
        self.name = name
        self.columns = columns
        self.primaryKey = primaryKey
        self.sql = sql
    }

    /// Whether the table's definition ends with columns SQLite appended with `ALTER TABLE ADD
    /// COLUMN`, which Core Data uses for additive lightweight migrations in place: SQLite adds
    /// them after Core Data's closing `" )"`, leaving a `" , "` in the text.
    public var appendedColumnNames: [String] {
        guard let marker = sql.range(of: " , ") else { return [] }
        return sql[marker.lowerBound...].split(separator: ",").compactMap { part in
            part.split(separator: " ").first.map(String.init)
        }
    }

    /// The column with this name, if any.
    public func column(named name: String) -> StoreColumn? {
        columns.first { $0.name == name }
    }
}

/// A column: its name and declared SQL type (`INTEGER`, `FLOAT`, `TIMESTAMP`, `VARCHAR`, ...).
public struct StoreColumn: Sendable, Hashable {
    public var name: String
    public var type: String

    public init(name: String, type: String) {
        self.name = name
        self.type = type
    }
}

/// An index of a store, with the statement that creates it.
public struct StoreIndex: Sendable, Equatable {
    public var name: String
    public var table: String
    public var sql: String

    public init(name: String, table: String, sql: String) {
        self.name = name
        self.table = table
        self.sql = sql
    }

    /// The statement without identifier quotes, which SQLite adds when a migration renames a
    /// table; two indexes with the same normalized statement are the same index.
    public var normalizedSQL: String {
        sql.replacingOccurrences(of: "\"", with: "")
    }
}

/// A trigger of a store: like an index, a name, the table it belongs to (whose changes fire
/// it) and the statement that creates it. Core Data keeps derived attributes up to date with
/// triggers.
public typealias StoreTrigger = StoreIndex
