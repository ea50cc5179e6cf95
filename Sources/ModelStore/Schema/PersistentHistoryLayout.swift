import GRDB
import ModelSchema

/// The tables Core Data adds to a store opened with persistent history tracking
/// (`NSPersistentHistoryTrackingKey`): transactions, their changes and the strings they share,
/// kept as three private entities numbered from 16001 (as build 1344 writes them; see
/// Documentation/Stores.md). They belong to Core Data, not to the model, so a store compares
/// with its model's layout without them.
package enum PersistentHistoryLayout {
    /// `CHANGE`, `TRANSACTION` and `TRANSACTIONSTRING`, in `Z_PRIMARYKEY`'s order.
    package static let entities = [
        StoreEntityRow(number: 16001, name: "CHANGE", superNumber: 0),
        StoreEntityRow(number: 16002, name: "TRANSACTION", superNumber: 0),
        StoreEntityRow(number: 16003, name: "TRANSACTIONSTRING", superNumber: 0),
    ]

    /// The first entity number Core Data keeps for its own entities.
    package static let firstEntityNumber = 16001

    /// The three tables, created after the bookkeeping tables, `ACHANGE` with `tombstones`
    /// `ZTOMBSTONEn` columns after `ZCOLUMNS` (see ``tombstoneCount(of:)``).
    package static func tables(tombstones: Int = 0) -> [StoreTable] {
        [
            table("ACHANGE", [
                ("Z_PK", "INTEGER"), ("Z_ENT", "INTEGER"), ("Z_OPT", "INTEGER"), ("ZCHANGETYPE", "INTEGER"), ("ZENTITY", "INTEGER"),
                ("ZENTITYPK", "INTEGER"), ("ZTRANSACTIONID", "INTEGER"), ("ZCOLUMNS", "BLOB"),
            ] + (0..<tombstones).map { (tombstoneColumn($0), tombstoneType) }),
            transactionTable, stringTable,
        ]
    }

    private static let transactionTable =
        table("ATRANSACTION", [
            ("Z_PK", "INTEGER"), ("Z_ENT", "INTEGER"), ("Z_OPT", "INTEGER"), ("ZAUTHORTS", "INTEGER"), ("ZBUNDLEIDTS", "INTEGER"),
            ("ZCONTEXTNAMETS", "INTEGER"), ("ZPROCESSIDTS", "INTEGER"), ("ZTIMESTAMP", "FLOAT"), ("ZAUTHOR", "VARCHAR"),
            ("ZBUNDLEID", "VARCHAR"), ("ZCONTEXTNAME", "VARCHAR"), ("ZPROCESSID", "VARCHAR"), ("ZQUERYGEN", "BLOB"),
        ])
    private static let stringTable = table("ATRANSACTIONSTRING", [("Z_PK", "INTEGER"), ("Z_ENT", "INTEGER"), ("Z_OPT", "INTEGER"), ("ZNAME", "VARCHAR")])

    /// The declared type of every `ZTOMBSTONEn` column: BLOB, whatever the attribute, so that
    /// each value keeps the storage class its own column gives it (Photos.sqlite's `ACHANGE`, as
    /// third parties' schema dumps of it show; see Documentation/History.md).
    static let tombstoneType = "BLOB"

    /// `ZTOMBSTONE0`, `ZTOMBSTONE1`, …
    package static func tombstoneColumn(_ index: Int) -> String { "ZTOMBSTONE\(index)" }

    /// How many `ZTOMBSTONEn` columns `ACHANGE` needs for `version`: an entity's attributes
    /// preserved on deletion (inherited ones included, transient and external binary data ones
    /// never) take columns 0, 1, … in name order, so the table has as many as the entity with the
    /// most. Each entity is counted once, through its parent's count, so that a long chain of
    /// subentities stays linear.
    package static func tombstoneCount(of version: ModelVersion) -> Int {
        let hierarchy = EntityHierarchy(version)
        var counts = [String: Int]()
        var most = 0
        for entity in version.entities {
            // The entity and the ancestors not yet counted, nearest first (a cycle ends the walk).
            var pending = [entity]
            var seen: Set<String> = [entity.name]
            while counts[pending[pending.count - 1].name] == nil, let parent = hierarchy.parent(of: pending[pending.count - 1]),
                counts[parent.name] == nil, seen.insert(parent.name).inserted
            {
                pending.append(parent)
            }
            var inherited = pending.last.flatMap(hierarchy.parent(of:)).flatMap { counts[$0.name] } ?? 0
            for ancestor in pending.reversed() where counts[ancestor.name] == nil {
                inherited += ancestor.attributes.filter(isTombstoned).count
                counts[ancestor.name] = inherited
                most = max(most, inherited)
            }
        }
        return most
    }

    /// Whether Core Data keeps the attribute's value in a delete's tombstone.
    package static func isTombstoned(_ attribute: Attribute) -> Bool {
        attribute.preservesValueInHistoryOnDeletion && !attribute.isTransient && !attribute.allowsExternalBinaryDataStorage
    }

    /// The indexes of the three tables, after the tables.
    package static let indexes = [
        StoreIndex(name: "ACHANGE_ZTRANSACTIONID_INDEX", table: "ACHANGE", sql: "CREATE INDEX ACHANGE_ZTRANSACTIONID_INDEX ON ACHANGE (ZTRANSACTIONID)"),
    ] + ["ZAUTHORTS", "ZBUNDLEIDTS", "ZCONTEXTNAMETS", "ZPROCESSIDTS"].map { column in
        StoreIndex(
            name: "ATRANSACTION_\(column)_INDEX", table: "ATRANSACTION",
            sql: "CREATE INDEX ATRANSACTION_\(column)_INDEX ON ATRANSACTION (\(column))")
    } + [
        StoreIndex(
            name: "Z_TRANSACTION_TransactionAuthorIndex", table: "ATRANSACTION",
            sql: "CREATE INDEX Z_TRANSACTION_TransactionAuthorIndex ON ATRANSACTION (ZAUTHOR COLLATE BINARY ASC)"),
        StoreIndex(
            name: "Z_TRANSACTION_TransactionTimestampIndex", table: "ATRANSACTION",
            sql: "CREATE INDEX Z_TRANSACTION_TransactionTimestampIndex ON ATRANSACTION (ZTIMESTAMP COLLATE BINARY ASC)"),
        StoreIndex(
            name: "Z_TRANSACTIONSTRING_UNIQUE_NAME", table: "ATRANSACTIONSTRING",
            sql: "CREATE UNIQUE INDEX Z_TRANSACTIONSTRING_UNIQUE_NAME ON ATRANSACTIONSTRING (ZNAME COLLATE BINARY ASC)"),
    ]

    /// Whether a store's schema tracks persistent history (it has Core Data's transaction table).
    package static func isPresent(in schema: StoreSchema) -> Bool {
        schema.table(named: "ATRANSACTION") != nil
    }

    /// Whether an open store tracks persistent history, without reading its whole schema.
    package static func isPresent(in db: Database) throws -> Bool {
        try db.tableExists("ATRANSACTION")
    }

    /// Adds the history tables, indexes and entity rows to an open store that lacks them, as Core
    /// Data does when a store is first opened with history tracking on; to a store that has them,
    /// the `ZTOMBSTONEn` columns up to `tombstones` that it lacks (its model gained attributes
    /// preserved on deletion since).
    package static func install(in db: Database, tombstones: Int = 0) throws {
        guard try !isPresent(in: db) else {
            let present = try db.columns(in: "ACHANGE").map(\.name)
            for index in 0..<tombstones where !present.contains(tombstoneColumn(index)) {
                try db.execute(sql: "ALTER TABLE ACHANGE ADD COLUMN \(tombstoneColumn(index)) \(tombstoneType)")
            }
            return
        }
        for statement in tables(tombstones: tombstones).map(\.sql) + indexes.map(\.sql) { try db.execute(sql: statement) }
        for entity in entities {
            try db.execute(
                sql: "INSERT OR IGNORE INTO Z_PRIMARYKEY (Z_ENT, Z_NAME, Z_SUPER, Z_MAX) VALUES (?, ?, ?, 0)",
                arguments: [entity.number, entity.name, entity.superNumber])
        }
    }

    /// `schema` with the history tables (`tombstones` of them in `ACHANGE`), indexes and entity
    /// rows added.
    static func adding(to schema: StoreSchema, tombstones: Int) -> StoreSchema {
        StoreSchema(tables: schema.tables + tables(tombstones: tombstones), indexes: schema.indexes + indexes, entities: schema.entities + entities, triggers: schema.triggers)
    }

    /// `schema` without them: the part that belongs to the model.
    static func removing(from schema: StoreSchema) -> StoreSchema {
        let names = Set(tables().map(\.name))
        return StoreSchema(
            tables: schema.tables.filter { !names.contains($0.name) },
            indexes: schema.indexes.filter { !names.contains($0.table) },
            entities: schema.entities.filter { $0.number < firstEntityNumber }, triggers: schema.triggers)
    }

    /// A table in Core Data's spelling for these tables: `CREATE TABLE T ( C1 TYPE, C2 TYPE )`.
    private static func table(_ name: String, _ columns: [(String, String)]) -> StoreTable {
        let body = columns.map { "\($0.0) \($0.1)\($0.0 == "Z_PK" ? " PRIMARY KEY" : "")" }.joined(separator: ", ")
        return StoreTable(
            name: name, columns: columns.map { StoreColumn(name: $0.0, type: $0.1) }, primaryKey: ["Z_PK"],
            sql: "CREATE TABLE \(name) ( \(body) )")
    }
}
