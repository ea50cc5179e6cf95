import ModelSchema

/// Where the links of one relationship live in a store: a foreign key in the
/// owner's row, the inverse's foreign key in the destination's rows, a many-to-many join table,
/// or the hidden column of a to-many without an inverse.
package enum RelationshipStorage: Sendable, Hashable {
    /// A to-one: `column` in the owner's table, with the destination's `Z_ENT` in `entityColumn`
    /// when the destination has subentities.
    case foreignKey(column: String, entityColumn: String?)
    /// A to-many whose inverse is a to-one: that to-one's column in the destination's table.
    case inverseForeignKey(table: String, column: String, entityColumn: String?, orderColumn: String?)
    /// A many-to-many: the join table, the column holding the owner's keys and the one holding
    /// the destination's.
    case joinTable(table: String, ownColumn: String, otherColumn: String)
    /// A to-many without an inverse: the destination's table holds the owner's key in `column`.
    case hiddenInverse(table: String, column: String)

    /// How `relationship` of `entity` is stored in a store laid out as `layout`; nil when it has
    /// no storage (transient, or the layout lacks it).
    package init?(_ relationship: Relationship, of entity: String, entities: EntityHierarchy, layout: StoreLayout) {
        guard !relationship.isTransient, let owner = layout.entity(named: entity) else { return nil }
        if !relationship.isToMany {
            guard let column = owner.columns[relationship.name] else { return nil }
            self = .foreignKey(column: column, entityColumn: owner.entityColumns[relationship.name])
            return
        }
        let declaring = entities.declaringEntity(ofRelationship: relationship.name, from: entity)?.name ?? entity
        if let inverse = entities.inverse(of: relationship) {
            if !inverse.isToMany {
                guard let destination = layout.entity(named: relationship.destinationEntityName),
                    let column = destination.columns[inverse.name]
                else { return nil }
                self = .inverseForeignKey(
                    table: destination.table, column: column, entityColumn: destination.entityColumns[inverse.name],
                    orderColumn: relationship.isOrdered ? destination.orderColumns[inverse.name] : nil)
                return
            }
            if let join = layout.joinTables.first(where: { $0.entity == declaring && $0.relationship == relationship.name }) {
                self = .joinTable(table: join.table.name, ownColumn: join.sourceColumn, otherColumn: join.destinationColumn)
                return
            }
            if let join = layout.joinTables.first(where: { $0.inverseEntity == declaring && $0.inverseRelationship == relationship.name }) {
                self = .joinTable(table: join.table.name, ownColumn: join.destinationColumn, otherColumn: join.sourceColumn)
                return
            }
            return nil
        }
        guard let hidden = layout.hiddenInverses.first(where: { $0.entity == declaring && $0.relationship == relationship.name }) else {
            return nil
        }
        self = .hiddenInverse(table: hidden.table, column: hidden.column)
    }
}
