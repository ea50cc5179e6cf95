import ModelSchema

/// Where a model version's data lives in a Core Data SQLite store: entity numbers, the table of
/// each entity and the column of each stored property, and the schema Core Data creates for it.
public struct StoreLayout: Sendable {
    /// Entities in `Z_ENT` order.
    public internal(set) var entities: [EntityLayout] = []
    /// Many-to-many join tables.
    public internal(set) var joinTables: [JoinTableLayout] = []
    /// The hidden foreign keys of to-many relationships without an inverse.
    public internal(set) var hiddenInverses: [HiddenInverseLayout] = []
    /// The tables, indexes, `Z_PRIMARYKEY` rows and triggers.
    public internal(set) var schema = StoreSchema(tables: [], indexes: [], entities: [])

    /// Lays out `version` as the Core Data build `framework` would; with `persistentHistory`,
    /// plus the tables of persistent history tracking.
    public init(_ version: ModelVersion, framework: FrameworkVersion = .current, persistentHistory: Bool = false) {
        let numbering = EntityNumbering(version)
        var tables = [StoreTable]()
        var indexes = [StoreIndex]()
        let inverseless = Self.toManyWithoutInverse(numbering)
        for entity in numbering.ordered where numbering.entities.parent(of: entity) == nil {
            var builder = EntityTableBuilder(
                root: entity, numbering: numbering, framework: framework, inverseless: inverseless[entity.name] ?? [])
            builder.build()
            tables.append(builder.table)
            indexes += builder.indexes
            entities += builder.layouts
            hiddenInverses += builder.hiddenInverses
        }
        entities.sort { $0.number < $1.number }
        var joins = JoinTableBuilder(numbering: numbering, framework: framework)
        joins.build()
        joinTables = joins.tables
        tables += joinTables.map(\.table)
        if framework.indexesJoinTables { indexes += joinTables.map(\.index) }
        tables += Self.bookkeepingTables(framework)
        schema = StoreSchema(
            tables: tables, indexes: indexes,
            entities: entities.map { StoreEntityRow(number: $0.number, name: $0.name, superNumber: $0.superNumber) },
            triggers: DerivedAttributeTriggers.triggers(numbering, layouts: entities))
        if persistentHistory { schema = PersistentHistoryLayout.adding(to: schema, tombstones: PersistentHistoryLayout.tombstoneCount(of: version)) }
    }

    /// The layout of the entity with this name.
    public func entity(named name: String) -> EntityLayout? {
        entities.first { $0.name == name }
    }

    /// The stored to-many relationships without an inverse, by the root of their destination's
    /// hierarchy: sources in entity number order, each one's relationships in name order.
    static func toManyWithoutInverse(_ numbering: EntityNumbering) -> [String: [(entity: Entity, relationship: Relationship)]] {
        var result = [String: [(entity: Entity, relationship: Relationship)]]()
        for entity in numbering.ordered {
            for relationship in entity.relationships.sorted(by: { NameOrder.precedes($0.name, $1.name) })
            where relationship.isToMany && relationship.inverseName == nil && !relationship.isTransient {
                guard let destination = numbering.entities.entity(named: relationship.destinationEntityName) else { continue }
                result[numbering.entities.root(of: destination).name, default: []].append((entity, relationship))
            }
        }
        return result
    }

    /// `Z_PRIMARYKEY`, `Z_METADATA` and, for builds that keep one, `Z_MODELCACHE`.
    static func bookkeepingTables(_ framework: FrameworkVersion) -> [StoreTable] {
        var tables = [
            StoreTable(
                name: "Z_PRIMARYKEY",
                columns: [
                    StoreColumn(name: "Z_ENT", type: "INTEGER"), StoreColumn(name: "Z_NAME", type: "VARCHAR"),
                    StoreColumn(name: "Z_SUPER", type: "INTEGER"), StoreColumn(name: "Z_MAX", type: "INTEGER"),
                ],
                primaryKey: ["Z_ENT"],
                sql: "CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER)"),
            StoreTable(
                name: "Z_METADATA",
                columns: [
                    StoreColumn(name: "Z_VERSION", type: "INTEGER"), StoreColumn(name: "Z_UUID", type: "VARCHAR(255)"),
                    StoreColumn(name: "Z_PLIST", type: "BLOB"),
                ],
                primaryKey: ["Z_VERSION"],
                sql: "CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB)"),
        ]
        if framework.writesModelCache {
            tables.append(
                StoreTable(
                    name: "Z_MODELCACHE", columns: [StoreColumn(name: "Z_CONTENT", type: "BLOB")], primaryKey: [],
                    sql: "CREATE TABLE Z_MODELCACHE (Z_CONTENT BLOB)"))
        }
        return tables
    }
}

/// An entity's place in the store: its number, its hierarchy's table and its columns.
public struct EntityLayout: Sendable, Hashable {
    public var name: String
    public var number: Int
    /// The parent's number; 0 for a root entity.
    public var superNumber: Int
    /// The table of the entity's root, shared by the whole hierarchy.
    public var table: String
    /// The column of each stored attribute and to-one relationship, inherited ones included.
    public var columns: [String: String]
    /// For to-one relationships to an entity with subentities, the column holding the
    /// destination's `Z_ENT`.
    public var entityColumns: [String: String]
    /// For to-one relationships whose inverse is an ordered to-many, the order column.
    public var orderColumns: [String: String]
}

/// A many-to-many relationship's join table.
public struct JoinTableLayout: Sendable {
    /// The entity and relationship that name the table, and the inverse side.
    public var entity: String
    public var relationship: String
    public var inverseEntity: String
    public var inverseRelationship: String
    /// The column holding the primary keys of `entity`'s objects.
    public var sourceColumn: String
    /// The column holding the primary keys of the destination's objects.
    public var destinationColumn: String
    public var table: StoreTable
    /// The index on the destination column, which builds from 600 on create (see
    /// `FrameworkVersion.indexesJoinTables`).
    public var index: StoreIndex
}

/// The hidden column that stores a to-many relationship without an inverse: in the destination's
/// table, `Z<source entity number><RELATIONSHIP>` holds the primary key of the source object.
public struct HiddenInverseLayout: Sendable, Hashable {
    /// The entity that declares the relationship, and the relationship.
    public var entity: String
    public var relationship: String
    /// The destination's table and the column in it.
    public var table: String
    public var column: String
}
