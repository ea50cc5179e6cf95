import GRDB
import ModelSchema
import ModelStore

/// The validation Core Data runs on the migrated objects before it saves them, counted in SQL
/// over the destination's rows: required attributes and to-ones present, numbers within their
/// minimum and maximum; and the source values a mapping leaves behind.
struct MappingValidation {
    let rows: ObjectRows

    /// One message per failing rule of `entity`'s own instances, with the number of instances.
    func failures(of entity: String) throws -> [String] {
        guard let model = rows.entities.entity(named: entity), let layout = rows.layout.entity(named: entity) else { return [] }
        var failures = [String]()
        let own = "FROM \(layout.table) WHERE Z_ENT = \(layout.number)"
        for attribute in rows.entities.attributes(of: model) {
            guard let column = layout.columns[attribute.name] else { continue }
            var conditions = [(String, String)]()
            if !attribute.isOptional { conditions.append(("\(column) IS NULL", "'\(attribute.name)' is required")) }
            if attribute.type.isNumeric {
                if let minimum = attribute.minValueString.flatMap(Double.init) {
                    conditions.append(("\(column) < \(minimum)", "'\(attribute.name)' is below its minimum \(minimum)"))
                }
                if let maximum = attribute.maxValueString.flatMap(Double.init) {
                    conditions.append(("\(column) > \(maximum)", "'\(attribute.name)' is above its maximum \(maximum)"))
                }
            }
            for (condition, message) in conditions {
                let count = try Int.fetchOne(rows.db, sql: "SELECT COUNT(*) \(own) AND \(condition)") ?? 0
                if count > 0 { failures += Array(repeating: message, count: count) }
            }
        }
        for relationship in rows.entities.relationships(of: model) where !relationship.isToMany && !relationship.isOptional {
            guard let column = layout.columns[relationship.name] else { continue }
            let count = try Int.fetchOne(rows.db, sql: "SELECT COUNT(*) \(own) AND \(column) IS NULL") ?? 0
            if count > 0 { failures += Array(repeating: "'\(relationship.name)' is required", count: count) }
        }
        return failures
    }

    /// The non-empty values of the mapping's source instances in attributes no property mapping
    /// of it names (`$source.<name>` in no value expression): what the migration drops.
    static func droppedValues(of mapping: ModelSchema.EntityMapping, in source: ObjectRows) throws -> Int {
        guard mapping.type != .add, let name = mapping.sourceEntityName, let entity = source.entities.entity(named: name),
            let layout = source.layout.entity(named: name)
        else { return 0 }
        let expressions = (mapping.attributeMappings + mapping.relationshipMappings).compactMap(\.valueExpression).joined(separator: " ")
        var dropped = 0
        for attribute in source.entities.attributes(of: entity) {
            guard let column = layout.columns[attribute.name] else { continue }
            if mapping.type != .remove, mapping.policyClassName != nil || Self.reads(expressions, attribute.name) { continue }
            dropped += try Int.fetchOne(
                source.db, sql: "SELECT COUNT(*) FROM \(layout.table) WHERE Z_ENT = \(layout.number) AND \(column) IS NOT NULL") ?? 0
        }
        return dropped
    }

    /// Whether the expressions read the key `name` (`$source.name`, `.name.`, `.name)`).
    private static func reads(_ expressions: String, _ name: String) -> Bool {
        var rest = Substring(expressions)
        while let range = rest.range(of: "." + name) {
            let next = rest[range.upperBound...].first
            if next == nil || !(next!.isLetter || next!.isNumber || next! == "_") { return true }
            rest = rest[range.upperBound...]
        }
        return false
    }
}
