import ModelSchema

/// A model version's entities as the object layer reads and writes their rows: for each entity
/// its table, number, root number and the columns of its stored attributes and to-ones; for each
/// table the select list its rows are read with.
package struct ObjectRowLayout: Sendable {
    package let layout: StoreLayout
    package let entities: EntityHierarchy
    private let shapesByName: [String: EntityRowShape]
    private let shapesByNumber: [Int: EntityRowShape]
    /// Each table's columns after `Z_PK, Z_ENT, Z_OPT`, in the order they are selected.
    let tableColumns: [String: [String]]
    /// The order columns of join tables, as `table.column`.
    private let joinOrderColumns: Set<String>

    package init(_ version: ModelVersion, layout: StoreLayout) {
        self.layout = layout
        entities = EntityHierarchy(version)
        var columnsByTable = [String: [String]]()
        for entity in layout.entities {
            var columns = columnsByTable[entity.table] ?? []
            let own = entity.columns.values.sorted() + entity.entityColumns.values.sorted() + entity.orderColumns.values.sorted()
            for column in own where !columns.contains(column) { columns.append(column) }
            columnsByTable[entity.table] = columns
        }
        tableColumns = columnsByTable
        joinOrderColumns = Set(layout.joinTables.flatMap { join in
            join.table.columns.map(\.name).filter { $0.hasPrefix("Z_FOK_") }.map { "\(join.table.name).\($0)" }
        })
        var byName = [String: EntityRowShape]()
        // Each entity's number by name, for roots and destinations: found in one table, not by a
        // search of the layout for each.
        let numbers = Dictionary(layout.entities.map { ($0.name, $0.number) }, uniquingKeysWith: { first, _ in first })
        for entity in layout.entities {
            guard let model = entities.entity(named: entity.name) else { continue }
            let rootNumber = numbers[entities.root(of: model).name] ?? entity.number
            byName[entity.name] = EntityRowShape(
                entity: model, layout: entity, rootNumber: rootNumber, entities: entities, numbers: numbers,
                selected: columnsByTable[entity.table] ?? [])
        }
        shapesByName = byName
        shapesByNumber = Dictionary(byName.values.map { ($0.number, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// The shape of the entity `name`.
    package func shape(named name: String) -> EntityRowShape? { shapesByName[name] }

    /// The shape of the entity whose `Z_ENT` is `number`.
    package func shape(number: Int) -> EntityRowShape? { shapesByNumber[number] }

    /// The columns a fetch of `entity` selects, on alias `t0`: `Z_PK`, `Z_ENT`, `Z_OPT`, then every
    /// column of its table, so that rows of any subentity decode from one statement.
    package func selectList(forTableOf entity: String) -> [String] {
        guard let table = shapesByName[entity]?.table else { return ["t0.Z_PK", "t0.Z_ENT", "t0.Z_OPT"] }
        return ["t0.Z_PK", "t0.Z_ENT", "t0.Z_OPT"] + (tableColumns[table] ?? []).map { "t0." + $0 }
    }

    /// The column of a join table that orders the objects of `otherColumn` in the list of the
    /// other column's object (`Z_FOK_` and its name: wire's ordered many-to-manys), when that
    /// side is ordered.
    package func orderColumn(ofJoinTable table: String, otherColumn: String) -> String? {
        let name = "Z_FOK_" + otherColumn.dropFirst(2)
        return joinOrderColumns.contains("\(table).\(name)") ? name : nil
    }

    /// Where `relationship` of `entity` keeps its links.
    package func storage(of relationship: Relationship, in entity: String) -> RelationshipStorage? {
        RelationshipStorage(relationship, of: entity, entities: entities, layout: layout)
    }
}

/// One entity's row: its table and numbers, and the place of each stored attribute and to-one in
/// the table's select list. A class, as every row read looks its shape up: a struct of names and
/// arrays was copied, each of its references retained and released, once a row.
package final class EntityRowShape: Sendable {
    /// A stored attribute and its column.
    package struct AttributeSlot: Sendable {
        package let name: String
        package let type: AttributeType
        /// Derived attributes are computed by the store's triggers and never written.
        package let isDerived: Bool
        /// Values of attributes that allow external storage carry a marker (``ExternalBinaryData``).
        package let isExternal: Bool
        package let column: String
        /// The column's index in a selected row.
        let index: Int
    }

    /// A stored to-one relationship and its foreign key (with the destination's entity column when
    /// the destination has subentities, and the order column when the inverse is ordered).
    package struct ToOneSlot: Sendable {
        package let name: String
        package let destination: String
        package let column: String
        let entityColumn: String?
        let orderColumn: String?
        let index: Int
        let entityIndex: Int?
        /// The destination's entity number, what a row's link names when the destination has no
        /// subentities (and so no entity column); 0 when the store has no such entity.
        let destinationNumber: Int
    }

    package let name: String
    package let number: Int
    /// The number of the hierarchy's root, whose `Z_PRIMARYKEY.Z_MAX` hands out this table's keys.
    package let rootNumber: Int
    package let table: String
    package let attributes: [AttributeSlot]
    package let toOnes: [ToOneSlot]
    /// How many of the attributes are strings, and how many others an object keeps as
    /// themselves, not as their bits (``AttributeValues``): the room a row's values set aside.
    package let stringAttributes: Int, otherAttributesKeptAsThemselves: Int
    /// Whether any attribute's values carry the external-storage marker.
    package var hasExternalAttributes: Bool { attributes.contains { $0.isExternal } }

    init(entity: Entity, layout: EntityLayout, rootNumber: Int, entities: EntityHierarchy, numbers: [String: Int], selected: [String]) {
        name = entity.name
        number = layout.number
        self.rootNumber = rootNumber
        table = layout.table
        let position = Dictionary(selected.enumerated().map { ($1, $0 + 3) }, uniquingKeysWith: { first, _ in first })
        attributes = entities.attributes(of: entity).compactMap { attribute in
            guard let column = layout.columns[attribute.name], let index = position[column] else { return nil }
            let isExternal = attribute.allowsExternalBinaryDataStorage && [.binary, .transformable].contains(attribute.type)
            return AttributeSlot(
                name: attribute.name, type: attribute.type, isDerived: attribute.isDerived, isExternal: isExternal, column: column, index: index)
        }
        stringAttributes = attributes.count { $0.type == .string }
        otherAttributesKeptAsThemselves = attributes.count { $0.type != .string && !AttributeValues.keepsBits(of: $0.type) }
        toOnes = entities.relationships(of: entity).compactMap { relationship in
            guard !relationship.isToMany, let column = layout.columns[relationship.name], let index = position[column] else { return nil }
            let entityColumn = layout.entityColumns[relationship.name]
            return ToOneSlot(
                name: relationship.name, destination: relationship.destinationEntityName, column: column, entityColumn: entityColumn,
                orderColumn: layout.orderColumns[relationship.name], index: index, entityIndex: entityColumn.flatMap { position[$0] },
                destinationNumber: numbers[relationship.destinationEntityName] ?? 0)
        }
    }
}
