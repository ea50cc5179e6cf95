import ModelSchema

/// Builds the join tables of many-to-many relationships.
///
/// Core Data walks every entity in case-insensitive name order and, within one, its column keys
/// in the bucket order of its own dictionary of them (`TigerDictionaryOrder`): `_ent`, `_pk`,
/// `_opt`, each stored attribute, `_Z<NAME>` for each to-one (and `_Z<n>_<NAME>` where the
/// destination has subentities) and every relationship name, inherited ones included. The first
/// side of a pair met names the table `Z_<n><RELATIONSHIP>`, after its declaring entity's
/// number. Its two columns hold the primary keys of each side and are named after that side's
/// entity number and the relationship pointing to it: first `Z_<own number><INVERSE>`, then
/// `Z_<destination number><RELATIONSHIP>`; column names are unique across all join tables in
/// that walk's order (a clash gets 1, 2, ... appended). An ordered side adds a `Z_FOK_` order
/// column. The Wire stores of the corpus show all of this (`Z_24TRUSTEDBYCLIENTS` in 2.101,
/// `Z_24TRUSTEDCLIENTS` in 2.82, `Z_24USERS1`), EasyLife's `Z_2BLOCKING` a pair on one entity.
struct JoinTableBuilder {
    let numbering: EntityNumbering
    let framework: FrameworkVersion
    private(set) var tables: [JoinTableLayout] = []
    private var columnNames = NameAllocator()
    private var tableNames = NameAllocator()
    private var done = Set<String>()

    init(numbering: EntityNumbering, framework: FrameworkVersion) {
        self.numbering = numbering
        self.framework = framework
    }

    /// Lays out every many-to-many pair once, named by the side Core Data meets first.
    ///
    /// Meeting an entity tries every relationship of its lineage, and a relationship tried once
    /// adds nothing when tried again, so only an entity whose lineage has relationships not tried
    /// yet needs its keys in Core Data's order; with one such relationship, not even that. The
    /// lineage members not met yet are found through ``UntriedAncestors``, so a deep chain is
    /// not walked once per entity. (A subentity redeclaring an inherited relationship, which
    /// validation refuses, could be met in another order here.)
    mutating func build() {
        var untried = UntriedAncestors(numbering)
        for entity in numbering.nameOrdered {
            let fresh = untried.take(from: entity).flatMap { owner in
                owner.relationships.filter { !$0.isTransient }.map { (owner, $0) }
            }
            if fresh.count == 1 {
                add(fresh[0].1, of: fresh[0].0)
            } else if fresh.count > 1 {
                addAll(of: entity)
            }
        }
    }

    /// Tries every relationship of the entity and its ancestors in the order of Core Data's
    /// dictionary of the entity's columns, each with the nearest entity declaring its name.
    private mutating func addAll(of entity: Entity) {
        let lineage = numbering.entities.lineage(of: entity)
        var owners = [String: Entity]()
        var byName = [String: Relationship]()
        for member in lineage {
            for relationship in member.relationships where owners[relationship.name] == nil {
                owners[relationship.name] = member
            }
        }
        let relationships = lineage.reversed().flatMap { $0.relationships.filter { !$0.isTransient } }
        for relationship in relationships { byName[relationship.name] = relationship }
        let attributes = lineage.reversed().flatMap { $0.attributes.filter { !$0.isTransient } }
        for key in TigerDictionaryOrder.ordered(columnKeys(attributes: attributes, relationships: relationships)) {
            guard let relationship = byName[key], let owner = owners[key] else { continue }
            add(relationship, of: owner)
        }
    }

    /// The keys of Core Data's dictionary of an entity's columns, in the order it adds them,
    /// given its stored attributes and relationships, inherited ones first.
    func columnKeys(attributes: [Attribute], relationships: [Relationship]) -> [String] {
        var keys = ["_ent", "_pk", "_opt"] + attributes.map(\.name)
        for relationship in relationships where !relationship.isToMany {
            let name = relationship.name.uppercased()
            keys.append("_Z" + name)
            if numbering.hasSubentities(relationship.destinationEntityName),
                let number = numbering.numbers[relationship.destinationEntityName]
            {
                keys.append("_Z\(number)_" + name)
            }
        }
        return keys + relationships.map(\.name)
    }

    private mutating func add(_ relationship: Relationship, of entity: Entity) {
        guard relationship.isToMany, !relationship.isTransient, let inverseName = relationship.inverseName,
            let inverse = numbering.entities.relationship(named: inverseName, in: relationship.destinationEntityName),
            inverse.isToMany, !done.contains("\(entity.name).\(relationship.name)"),
            let source = numbering.numbers[entity.name],
            let destination = numbering.numbers[relationship.destinationEntityName]
        else { return }
        done.insert("\(entity.name).\(relationship.name)")
        done.insert("\(relationship.destinationEntityName).\(inverseName)")
        let isReflexive = entity.name == relationship.destinationEntityName && inverseName == relationship.name
        let tableName = tableNames.claim("Z_\(source)\(relationship.name.uppercased())")
        let sourceColumn = columnNames.claim("Z_\(source)\(inverseName.uppercased())")
        let destinationColumn =
            isReflexive ? "REFLEXIVE" : columnNames.claim("Z_\(destination)\(relationship.name.uppercased())")
        var columns = [sourceColumn, destinationColumn]
        if inverse.isOrdered && !isReflexive { columns.append("Z_FOK_" + sourceColumn.dropFirst(2)) }
        if relationship.isOrdered {
            columns.append(isReflexive ? "FOK_REFLEXIVE" : "Z_FOK_" + destinationColumn.dropFirst(2))
        }
        let definitions = columns.map { "\($0) INTEGER" } + ["PRIMARY KEY (\(sourceColumn), \(destinationColumn))"]
        let table = StoreTable(
            name: tableName, columns: columns.map { StoreColumn(name: $0, type: "INTEGER") },
            primaryKey: [sourceColumn, destinationColumn],
            sql: "CREATE TABLE \(tableName) ( \(definitions.joined(separator: ", ")) )")
        let indexName = "\(tableName)_\(destinationColumn)_INDEX"
        let index = StoreIndex(
            name: indexName, table: tableName,
            sql: "CREATE INDEX \(indexName) ON \(tableName) (\(destinationColumn), \(sourceColumn))")
        tables.append(
            JoinTableLayout(
                entity: entity.name, relationship: relationship.name,
                inverseEntity: relationship.destinationEntityName, inverseRelationship: inverseName,
                sourceColumn: sourceColumn, destinationColumn: destinationColumn, table: table, index: index))
    }
}
