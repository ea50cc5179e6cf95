import GRDB
import ModelSchema
import ModelStore

/// The validation Core Data runs on the migrated objects before it saves them
/// (`validateForInsert`), counted in SQL over the destination's rows: required values, numbers,
/// dates and string lengths within their bounds, strings matching their pattern, to-many counts
/// within their bounds, uniqueness constraints; and the source values a mapping leaves behind.
struct MappingValidation {
    let rows: ObjectRows
    /// The SQL functions the string rules call, installed on the destination on first use.
    let functions = ValidationFunctions()

    // MARK: - Validation

    /// What fails among `entity`'s own instances: a count per rule, never a row per failure, so
    /// that memory stays flat however many rows fail.
    func failures(of entity: String) throws -> ValidationFailures {
        var failures = ValidationFailures()
        guard let model = rows.entities.entity(named: entity), let layout = rows.layout.entity(named: entity) else { return failures }
        try functions.install(on: rows.db)
        var rules = [ValidationRule]()
        for attribute in rows.entities.attributes(of: model) {
            guard let column = layout.columns[attribute.name] else { continue }
            rules += attributeRules(attribute, column: "o.\(column)")
        }
        for relationship in rows.entities.relationships(of: model) {
            rules += relationshipRules(relationship, of: entity, layout: layout)
        }
        rules += uniquenessRules(of: model, layout: layout)
        guard !rules.isEmpty else { return failures }
        // One pass over the rows for all the rules, a count per rule.
        let counts = rules.map { "SUM(CASE WHEN \($0.condition) THEN 1 ELSE 0 END)" }.joined(separator: ", ")
        guard let row = try Row.fetchOne(rows.db, sql: "SELECT \(counts) FROM \(layout.table) o WHERE o.Z_ENT = \(layout.number)") else {
            return failures
        }
        let checked = CheckedRow(row, table: layout.table, in: rows.db)
        for (index, rule) in rules.enumerated() { failures.add(try checked.optional(index, rule.message, as: Int.self) ?? 0, rule) }
        return failures
    }

    // MARK: - Dropped values

    /// The non-empty values of the mapping's source instances in attributes no property mapping
    /// of it names (`$source.<name>` in no value expression): what the migration drops.
    static func droppedValues(of mapping: EntityMapping, in source: ObjectRows) throws -> Int {
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

/// One validation rule as SQL: the condition an own row `o` of the entity meets when it fails,
/// the message that names the property, and Core Data's error code for the failure.
struct ValidationRule {
    var condition: String
    var message: String
    var code: Int
}

/// What validation found for one entity: how many values fail, and the first failing rule.
struct ValidationFailures {
    private(set) var count = 0
    /// The first failing rule's message.
    private(set) var first: String?
    private var firstCode: Int?

    /// Core Data's code for the whole: the rule's own code when only one value fails,
    /// NSValidationMultipleErrorsError (1560) when several do.
    var code: Int? { count > 1 ? 1560 : firstCode }

    /// Counts `count` failures of `rule`.
    mutating func add(_ count: Int, _ rule: ValidationRule) {
        guard count > 0 else { return }
        if first == nil { (first, firstCode) = (rule.message, rule.code) }
        self.count += count
    }
}
