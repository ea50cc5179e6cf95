import ModelSchema

/// Builds the join tables of many-to-many relationships (FORMATS §6.5).
///
/// Entities are visited in name order and their relationships in name order; the first side of
/// a pair met names the table `Z_<n><RELATIONSHIP>`. A relationship whose inverse is on the same
/// entity is an exception: which of the two names the table follows Core Data's hash order, not
/// names. Builds before 700 took the first by name, later ones mostly the last (EasyLife and
/// Wire's stores; Wire 2.98 and later name `trustedByClients`' table after the first again). Each of its two columns holds one side's
/// primary keys and is named after that side's entity number and the relationship pointing to
/// it; column names are unique across all join tables (a clash gets 1, 2, ... appended). An
/// ordered side adds a `Z_FOK_` order column. The Wire stores of the corpus show all of this.
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

    mutating func build() {
        for entity in numbering.ordered.sorted(by: { $0.name < $1.name }) {
            let byName = entity.relationships.sorted { $0.name < $1.name }
            let sameEntityFirst = framework.number < 700 ? byName : byName.reversed()
            for relationship in byName where relationship.destinationEntityName != entity.name {
                add(relationship, of: entity)
            }
            for relationship in sameEntityFirst where relationship.destinationEntityName == entity.name {
                add(relationship, of: entity)
            }
        }
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
