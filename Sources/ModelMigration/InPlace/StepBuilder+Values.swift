import GRDB
import ModelArchive
import ModelSchema
import ModelStore

/// The value of each destination column, as a typed ``SQLValue`` over the source row.
extension StepBuilder {
    /// The value of a destination column for each kind of row, over the source table.
    func value(of column: String, members: [EntityLayout], pairs: [(EntityLayout, EntityLayout)], sourceTable: String) throws -> SQLValue {
        var byNumber = [SQLValue.EntityValue]()
        for (new, old) in pairs {
            guard let expression = try expression(for: column, in: new, from: old) else { continue }
            byNumber.append(.init(number: old.number, value: expression))
        }
        guard let first = byNumber.first?.value else { return .null }
        // A plain source column is empty in rows of entities that lack it; anything else (a
        // default, a computed value) must be limited to the rows of entities that have it.
        var isPlainColumn = false
        if case .column(let name) = first { isPlainColumn = actual.table(named: sourceTable)?.column(named: name) != nil }
        if Set(byNumber.map(\.value)).count == 1 && (byNumber.count == pairs.count || isPlainColumn) { return first }
        return .perEntity(byNumber)
    }

    /// The value of `column` for rows of the source entity `old`, now `new`; `nil` when `new` does
    /// not have the column.
    func expression(for column: String, in new: EntityLayout, from old: EntityLayout) throws -> SQLValue? {
        if let property = new.columns.first(where: { $0.value == column })?.key {
            guard let entity = destinationEntities.entity(named: new.name) else { return .null }
            if let attribute = destinationEntities.attributes(of: entity).first(where: { $0.name == property }) {
                return attributeValue(attribute, in: new, from: old)
            }
            return try foreignKeyValue(property, in: new, from: old)
        }
        if let property = new.entityColumns.first(where: { $0.value == column })?.key {
            return try entityColumnValue(property, in: new, from: old)
        }
        if let property = new.orderColumns.first(where: { $0.value == column })?.key {
            guard let name = sourceName(of: property, in: new.name) else { return .column("Z_PK") }
            return .column(old.orderColumns[name] ?? "Z_PK")
        }
        return nil
    }

    func attributeValue(_ attribute: Attribute, in new: EntityLayout, from old: EntityLayout) -> SQLValue {
        let defaultValue = StoredDefault(of: attribute)
        guard let name = sourceName(of: attribute.name, in: new.name), let column = old.columns[name] else {
            return defaultValue.map(SQLValue.literal) ?? .null
        }
        let becameRequired = !attribute.isOptional && (sourceAttribute(name, of: old.name)?.isOptional ?? false)
        if becameRequired, let defaultValue { return .coalesce(column, defaultValue) }
        return .column(column)
    }

    func foreignKeyValue(_ relationship: String, in new: EntityLayout, from old: EntityLayout) throws -> SQLValue {
        guard let name = sourceName(of: relationship, in: new.name), let oldRelationship = sourceRelationship(name, of: old.name) else {
            return .null
        }
        if !oldRelationship.isToMany, let column = old.columns[name] { return .column(column) }
        if oldRelationship.isToMany, let (table, own, other) = sourceJoin(entity: old.name, relationship: name) {
            return .firstLink(table: table, own: own, other: other)
        }
        if oldRelationship.isToMany, let (table, key) = inverseForeignKey(of: oldRelationship) {
            // The links were kept on the other side (its to-one); take one of them.
            return .firstOwner(table: table, column: key)
        }
        throw MigrationError.unsupported("relationship '\(relationship)' of '\(new.name)' changes how it is stored")
    }

    /// The table and foreign key of a to-many relationship's to-one inverse, where its links are.
    func inverseForeignKey(of relationship: Relationship) -> (table: String, column: String)? {
        guard let inverse = relationship.inverseName,
            let owner = sourceDeclaringEntity(inverse, of: relationship.destinationEntityName),
            let inverseRelationship = sourceRelationship(inverse, of: owner), !inverseRelationship.isToMany,
            let ownerLayout = sourceLayout.entity(named: owner), let key = ownerLayout.columns[inverse]
        else { return nil }
        return (ownerLayout.table, key)
    }

    func entityColumnValue(_ relationship: String, in new: EntityLayout, from old: EntityLayout) throws -> SQLValue {
        let key = try foreignKeyValue(relationship, in: new, from: old)
        guard let name = sourceName(of: relationship, in: new.name) else { return .null }
        if let column = old.entityColumns[name] {
            return .entityNumber(column, mappedBy: entityNumberMap())
        }
        guard let relationship = sourceRelationship(name, of: old.name),
            let target = mapping.entities.first(where: { $0.source == relationship.destinationEntityName })?.destination,
            let number = destinationLayout.entity(named: target)?.number
        else { return .null }
        return .numberWhereSet(key, number)
    }
}
