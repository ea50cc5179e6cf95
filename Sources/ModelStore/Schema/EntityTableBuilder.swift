import ModelSchema

/// Builds the single table that holds a root entity and all its subentities, with its indexes.
struct EntityTableBuilder {
    let root: Entity
    let numbering: EntityNumbering
    let framework: FrameworkVersion
    /// The root and its subentities, depth-first: the entities of this table.
    private let members: [Entity]

    private(set) var table = StoreTable(name: "", columns: [], primaryKey: [], sql: "")
    private(set) var indexes: [StoreIndex] = []
    private(set) var layouts: [EntityLayout] = []
    private(set) var hiddenInverses: [HiddenInverseLayout] = []

    private var tableName: String { "Z" + root.name.uppercased() }
    private var names = NameAllocator(reserving: ["Z_PK", "Z_ENT", "Z_OPT"])
    /// Columns in the order Core Data lists them before sorting by type.
    private var pending: [(name: String, type: ColumnType)] = []
    private var foreignKeys: [String] = []

    /// To-many relationships without an inverse whose destination is stored in this table.
    private let inverseless: [(entity: Entity, relationship: Relationship)]

    init(
        root: Entity, numbering: EntityNumbering, framework: FrameworkVersion,
        inverseless: [(entity: Entity, relationship: Relationship)] = []
    ) {
        self.root = root
        self.numbering = numbering
        self.framework = framework
        self.inverseless = inverseless
        members = numbering.hierarchy(of: root)
    }

    mutating func build() {
        var byEntity = [String: EntityColumns]()
        for entity in members {
            var columns = numbering.entities.parent(of: entity).flatMap { byEntity[$0.name] } ?? EntityColumns()
            addColumns(of: entity, to: &columns)
            byEntity[entity.name] = columns
        }
        addHiddenInverseColumns()
        addOrderColumns(to: &byEntity)
        for entity in members {
            let columns = byEntity[entity.name] ?? EntityColumns()
            layouts.append(
                EntityLayout(
                    name: entity.name, number: numbering.numbers[entity.name] ?? 0,
                    superNumber: numbering.entities.parent(of: entity).flatMap { numbering.numbers[$0.name] } ?? 0,
                    table: tableName, columns: columns.values, entityColumns: columns.entityColumns,
                    orderColumns: columns.orderColumns))
        }
        let sorted = pending.enumerated().sorted { ($0.element.type.rank, $0.offset) < ($1.element.type.rank, $1.offset) }
            .map(\.element)
        let columns =
            [StoreColumn(name: "Z_PK", type: "INTEGER"), StoreColumn(name: "Z_ENT", type: "INTEGER"),
             StoreColumn(name: "Z_OPT", type: "INTEGER")]
            + sorted.map { StoreColumn(name: $0.name, type: $0.type.declaredType) }
        let definitions = ["Z_PK INTEGER PRIMARY KEY"] + columns.dropFirst().map { "\($0.name) \($0.type)" }
        table = StoreTable(
            name: tableName, columns: columns, primaryKey: ["Z_PK"],
            sql: "CREATE TABLE \(tableName) ( \(definitions.joined(separator: ", ")) )")
        buildIndexes(byEntity)
    }

    /// Adds the entity's own attribute columns (by name), then its to-one foreign keys (by
    /// name, each with its `Z<n>_` entity column), then their order columns.
    private mutating func addColumns(of entity: Entity, to columns: inout EntityColumns) {
        for attribute in entity.attributes.sorted(by: { $0.name < $1.name }) where !attribute.isTransient {
            guard let type = ColumnType(attribute.type) else { continue }
            let name = names.claim("Z" + attribute.name.uppercased())
            pending.append((name, type))
            columns.values[attribute.name] = name
        }
        let toOnes = entity.relationships.filter { !$0.isTransient && !$0.isToMany }.sorted { $0.name < $1.name }
        for relationship in toOnes {
            let name = names.claim("Z" + relationship.name.uppercased())
            pending.append((name, .integer))
            foreignKeys.append(name)
            columns.values[relationship.name] = name
            if numbering.hasSubentities(relationship.destinationEntityName),
                let number = numbering.numbers[relationship.destinationEntityName]
            {
                let entityColumn = names.claim("Z\(number)_" + relationship.name.uppercased())
                pending.append((entityColumn, .integer))
                columns.entityColumns[relationship.name] = entityColumn
            }
        }
    }

    /// Adds, after the table's own foreign keys, a hidden `Z<n><NAME>` column for each to-many
    /// relationship without an inverse whose destination is stored in this table: Core Data keeps
    /// the link as a foreign key to the source entity `n`, indexed like the others.
    private mutating func addHiddenInverseColumns() {
        for (entity, relationship) in inverseless {
            guard let number = numbering.numbers[entity.name] else { continue }
            let name = names.claim("Z\(number)" + relationship.name.uppercased())
            pending.append((name, .integer))
            foreignKeys.append(name)
            hiddenInverses.append(
                HiddenInverseLayout(entity: entity.name, relationship: relationship.name, table: tableName, column: name))
        }
    }

    /// Adds the order columns (`Z_FOK_<TO-ONE>`) after all others: one per ordered to-many
    /// relationship whose inverse to-one is stored in this table, by the to-many's entity number
    /// and then by descending relationship name. Wire's stores fit this; within one entity the
    /// order likely follows Core Data's hash order, which one observation cannot pin down.
    private mutating func addOrderColumns(to byEntity: inout [String: EntityColumns]) {
        let memberNames = Set(members.map(\.name))
        for entity in numbering.ordered {
            for relationship in entity.relationships.sorted(by: { $0.name > $1.name })
            where relationship.isToMany && relationship.isOrdered && !relationship.isTransient {
                guard let inverseName = relationship.inverseName,
                    let owner = numbering.entities.declaringEntity(ofRelationship: inverseName, from: relationship.destinationEntityName),
                    memberNames.contains(owner.name),
                    let inverse = owner.relationships.first(where: { $0.name == inverseName }),
                    !inverse.isToMany, !inverse.isTransient
                else { continue }
                let name = names.claim("Z_FOK_" + inverseName.uppercased())
                pending.append((name, .integer))
                for member in numbering.hierarchy(of: owner) {
                    byEntity[member.name]?.orderColumns[inverseName] = name
                }
            }
        }
    }

    private mutating func buildIndexes(_ byEntity: [String: EntityColumns]) {
        var names = Set<String>()
        func add(_ name: String, unique: Bool = false, _ columnList: [String]) {
            guard names.insert(name).inserted else { return }
            let create = unique ? "CREATE UNIQUE INDEX" : "CREATE INDEX"
            indexes.append(
                StoreIndex(
                    name: name, table: tableName,
                    sql: "\(create) \(name) ON \(tableName) (\(columnList.joined(separator: ", ")))"))
        }
        for column in foreignKeys { add("\(tableName)_\(column)_INDEX", [column]) }
        if numbering.hasSubentities(root.name) { add("\(tableName)_Z_ENT_INDEX", ["Z_ENT"]) }
        for entity in members {
            let columns = byEntity[entity.name]?.values ?? [:]
            func collated(_ property: String, ascending: Bool = true) -> String? {
                columns[property].map { "\($0) COLLATE BINARY \(ascending ? "ASC" : "DESC")" }
            }
            for constraint in entity.uniquenessConstraints {
                let list = constraint.compactMap { collated($0) }
                guard list.count == constraint.count, !list.isEmpty else { continue }
                add("Z_\(entity.name)_UNIQUE_\(constraint.joined(separator: "_"))", unique: true, list)
            }
            for index in entity.fetchIndexes where index.partialIndexPredicate == nil && framework.namesIndexesByEntity {
                let list = index.elements.compactMap { element in
                    element.propertyName.flatMap { collated($0, ascending: element.isAscending) }
                }
                guard list.count == index.elements.count, !list.isEmpty else { continue }
                add("Z_\(entity.name)_\(index.name)", list)
            }
            for compound in compoundIndexes(of: entity) {
                if framework.namesIndexesByEntity {
                    let list = compound.compactMap { collated($0) }
                    guard list.count == compound.count, !list.isEmpty else { continue }
                    add("Z_\(entity.name)_\(compound.joined(separator: "_"))", list)
                } else {
                    let list = compound.compactMap { columns[$0] }
                    guard list.count == compound.count, !list.isEmpty else { continue }
                    add("\(tableName)_\(list.joined(separator: "_"))", list)
                }
            }
            for property in indexedAttributes(of: entity) {
                guard let column = columns[property] else { continue }
                if framework.namesIndexesByEntity {
                    add("Z_\(entity.name)_\(property)", [collated(property)!])
                } else {
                    add("\(tableName)_\(column)_INDEX", [column])
                }
            }
        }
    }

    /// The entity's compound indexes; for builds before fetch indexes existed, also its
    /// multi-property fetch indexes, which is how Xcode rewrites the compound indexes of old
    /// models.
    private func compoundIndexes(of entity: Entity) -> [[String]] {
        guard !framework.namesIndexesByEntity else { return entity.compoundIndexes }
        let fromFetchIndexes = entity.fetchIndexes.filter { $0.elements.count > 1 }.compactMap { index in
            let names = index.elements.compactMap(\.propertyName)
            return names.count == index.elements.count ? names : nil
        }
        return entity.compoundIndexes + fromFetchIndexes
    }

    /// Attributes Core Data indexes on their own: those marked `indexed`, and those that are the
    /// only element of an ascending fetch index (``Entity/attributesIndexedAlone``), in
    /// declaration order.
    private func indexedAttributes(of entity: Entity) -> [String] {
        var names = entity.attributes.filter { $0.isIndexed && !$0.isTransient }.map(\.name)
        let alone = entity.attributesIndexedAlone
        for index in entity.fetchIndexes {
            guard let name = index.elements.first?.propertyName, alone.contains(name), !names.contains(name) else { continue }
            names.append(name)
        }
        return names
    }
}

/// The columns an entity's properties map to, inherited ones included.
private struct EntityColumns {
    var values: [String: String] = [:]
    var entityColumns: [String: String] = [:]
    var orderColumns: [String: String] = [:]
}
