import GRDB

/// The SQL schema of a Core Data SQLite store: its tables, indexes and entity rows, as Core Data
/// creates them for a model version or as they are found in a store file.
public struct StoreSchema: Sendable, Equatable {
    /// Tables in creation order: entity tables, then many-to-many join tables, then the
    /// bookkeeping tables (`Z_PRIMARYKEY`, `Z_METADATA`, `Z_MODELCACHE`).
    public var tables: [StoreTable]
    /// Every index Core Data creates (SQLite's automatic indexes are left out).
    public var indexes: [StoreIndex]
    /// The rows of `Z_PRIMARYKEY` without their `Z_MAX`.
    public var entities: [StoreEntityRow]
    /// The triggers that keep derived attributes up to date.
    public var triggers: [StoreTrigger]

    public init(tables: [StoreTable], indexes: [StoreIndex], entities: [StoreEntityRow], triggers: [StoreTrigger] = []) {
        self.tables = tables
        self.indexes = indexes
        self.entities = entities
        self.triggers = triggers
    }

    /// The table with this name, if any.
    public func table(named name: String) -> StoreTable? {
        tables.first { $0.name == name }
    }

    /// The table with exactly the columns of `table`, whatever its name: how a many-to-many
    /// join table named after the other side is recognized.
    public func table(withColumnsOf table: StoreTable) -> StoreTable? {
        let columns = Set(table.columns.map(\.name))
        return tables.first { Set($0.columns.map(\.name)) == columns }
    }

    /// The index with this name, if any.
    public func index(named name: String) -> StoreIndex? {
        indexes.first { $0.name == name }
    }

    /// The statements that create the schema: tables, indexes, then triggers.
    public var statements: [String] {
        tables.map(\.sql) + indexes.map(\.sql) + triggers.map(\.sql)
    }

    /// Reads the schema of an open store: column names and declared types in order from
    /// `PRAGMA table_info`, index and trigger definitions from `sqlite_master`, entities from
    /// `Z_PRIMARYKEY`.
    public static func read(from db: Database) throws -> StoreSchema {
        var tables = [StoreTable]()
        let tableRows = try Row.fetchAll(
            db, sql: "SELECT name, sql FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY rowid")
        for row in tableRows {
            let name: String = row["name"]
            let info = try Row.fetchAll(db, sql: "PRAGMA table_info(\(name.quotedDatabaseIdentifier))")
            let columns = info.map { StoreColumn(name: $0["name"], type: $0["type"]) }
            let primaryKey = info.filter { ($0["pk"] as Int) > 0 }.sorted { ($0["pk"] as Int) < ($1["pk"] as Int) }
                .map { $0["name"] as String }
            tables.append(StoreTable(name: name, columns: columns, primaryKey: primaryKey, sql: row["sql"]))
        }
        let indexes = try Row.fetchAll(
            db, sql: "SELECT name, tbl_name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL ORDER BY rowid"
        ).map { StoreIndex(name: $0["name"], table: $0["tbl_name"], sql: $0["sql"]) }
        var entities = [StoreEntityRow]()
        if try db.tableExists("Z_PRIMARYKEY") {
            entities = try Row.fetchAll(db, sql: "SELECT Z_ENT, Z_NAME, Z_SUPER FROM Z_PRIMARYKEY ORDER BY Z_ENT").map {
                let row = CheckedRow($0, table: "Z_PRIMARYKEY", in: db)
                return StoreEntityRow(
                    number: try row.required(0, "Z_ENT"), name: try row.optional(1, "Z_NAME") ?? "", superNumber: try row.optional(2, "Z_SUPER") ?? 0)
            }
        }
        let triggers = try Row.fetchAll(db, sql: "SELECT name, tbl_name, sql FROM sqlite_master WHERE type = 'trigger' ORDER BY rowid")
            .map { StoreTrigger(name: $0["name"], table: $0["tbl_name"], sql: $0["sql"]) }
        return StoreSchema(tables: tables, indexes: indexes, entities: entities, triggers: triggers)
    }
}

/// One row of `Z_PRIMARYKEY`: an entity's number, name and parent's number (0 for a root).
public struct StoreEntityRow: Sendable, Hashable {
    public var number: Int
    public var name: String
    public var superNumber: Int

    public init(number: Int, name: String, superNumber: Int) {
        self.number = number
        self.name = name
        self.superNumber = superNumber
    }
}

extension StoreSchema {
    /// Reads the schema of the store at `path` from a private copy, leaving the store untouched.
    public static func read(at path: String) throws -> StoreSchema {
        try StoreSnapshot.withReadOnlyDatabase(at: path) { try read(from: $0) }
    }
}
