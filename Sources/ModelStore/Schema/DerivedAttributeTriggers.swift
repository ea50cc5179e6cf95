import ModelSchema

/// The triggers with which Core Data keeps a derived attribute up to date in the store, in
/// its spelling: for a count over a to-many relationship (`pages.@count`),
/// four triggers on the destination's table that add or take one as an object joins or leaves
/// the relationship, and one on the entity's own table that counts on insert. Each also calls
/// one of Core Data's SQL functions (``CoreDataFunctions``) to report the new value.
///
/// Checked against the triggers Core Data wrote into CoreDataPlus's SampleModel2 stores. Other
/// derivations (a to-one's key path, `@sum` and the other aggregates, `now()`) have triggers
/// of their own that no real store shows; no trigger is written for them.
enum DerivedAttributeTriggers {
    /// The triggers of every entity's own derived counts, in entity-number order.
    static func triggers(_ numbering: EntityNumbering, layouts: [EntityLayout]) -> [StoreTrigger] {
        let byName = Dictionary(layouts.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        var triggers = [StoreTrigger]()
        for entity in numbering.ordered {
            for attribute in entity.attributes where attribute.isDerived && !attribute.isTransient {
                guard let expression = attribute.derivationExpression, let counted = countedRelationship(expression),
                    let relationship = numbering.entities.relationship(named: counted, in: entity.name), relationship.isToMany,
                    let inverse = numbering.entities.inverse(of: relationship), !inverse.isToMany,
                    let own = byName[entity.name], let column = own.columns[attribute.name],
                    let destination = byName[relationship.destinationEntityName], let key = destination.columns[inverse.name]
                else { continue }
                triggers += count(
                    entity: entity.name, attribute: attribute.name, table: own.table, column: column, parameterTable: destination.table, key: key)
            }
        }
        return triggers
    }

    /// The relationship of a derivation `name.@count`, or nil for any other derivation.
    private static func countedRelationship(_ expression: String) -> String? {
        let parts = expression.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[1] == "@count", !parts[0].isEmpty, parts[0].allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }) else {
            return nil
        }
        return String(parts[0])
    }

    /// The five triggers of `entity.attribute` (in `table.column`) counting the rows of
    /// `parameterTable` whose foreign key `key` points at it.
    private static func count(entity: String, attribute: String, table: String, column: String, parameterTable: String, key: String) -> [StoreTrigger] {
        let prefix = "Z_DA_\(parameterTable)_\(entity)_\(attribute)_PARAMETER_"
        func report(_ function: String, _ row: String) -> String {
            "SELECT \(function)('\(table)', Z_ENT, Z_PK, '\(attribute)', \(column)) FROM \(table) WHERE Z_PK = \(row); END"
        }
        func parameter(_ suffix: String, _ event: String, _ row: String, _ change: String) -> StoreTrigger {
            StoreTrigger(
                name: prefix + suffix, table: parameterTable,
                sql: "CREATE TRIGGER \(prefix + suffix) AFTER \(event) ON \(parameterTable) FOR EACH ROW WHEN (\(row) NOT NULL) BEGIN "
                    + "UPDATE \(table) SET \(column) = \(change) WHERE Z_PK = \(row); "
                    + report("NSCoreDataDATriggerUpdatedAffectedObjectValue", row))
        }
        let source = "Z_DA_\(table)_\(entity)_\(attribute)_SOURCE_INSERT"
        return [
            parameter("INSERT", "INSERT", "NEW.\(key)", "IFNULL(\(column), 0) + 1"),
            parameter("UPDATE_INCREMENT", "UPDATE OF \(key)", "NEW.\(key)", "\(column) + 1"),
            parameter("UPDATE_DECREMENT", "UPDATE OF \(key)", "OLD.\(key)", "\(column) - 1"),
            parameter("DELETE", "DELETE", "OLD.\(key)", "\(column) - 1"),
            StoreTrigger(
                name: source, table: table,
                sql: "CREATE TRIGGER \(source) AFTER INSERT ON \(table) FOR EACH ROW BEGIN "
                    + "UPDATE \(table) SET \(column) = (SELECT IFNULL(COUNT(\(key)), 0) FROM \(parameterTable) WHERE \(key) = NEW.Z_PK) WHERE Z_PK = NEW.Z_PK; "
                    + report("NSCoreDataDATriggerInsertUpdatedAffectedObjectValue", "NEW.Z_PK")),
        ]
    }
}
