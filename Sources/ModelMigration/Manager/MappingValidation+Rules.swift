import ModelSchema
import ModelStore

/// The rules of each kind as SQL conditions over an own row `o`, with the codes of
/// CoreDataErrors.h. Bounds apply to non-NULL values only (NULL comparisons are not true);
/// `required` is a rule of its own.
extension MappingValidation {
    // MARK: - Attributes

    /// Required, numeric bounds (1620/1610), date bounds (1640 too soon / 1630 too late), string
    /// length in UTF-16 units as NSString counts it (1670/1660) and pattern (1680).
    func attributeRules(_ attribute: Attribute, column: String) -> [ValidationRule] {
        let name = attribute.name
        var rules = [ValidationRule]()
        if !attribute.isOptional { rules.append(ValidationRule(condition: "\(column) IS NULL", message: "'\(name)' is required", code: 1570)) }
        func bounds(_ minimum: String?, _ maximum: String?, _ unit: String, codes: (Int, Int), parse: (String) -> String?,
            below: (String) -> String = { "\(column) < \($0)" }, above: (String) -> String = { "\(column) > \($0)" }) {
            if let minimum = minimum.flatMap(parse) {
                rules.append(ValidationRule(condition: below(minimum), message: "'\(name)' is below its minimum \(unit)\(minimum)", code: codes.0))
            }
            if let maximum = maximum.flatMap(parse) {
                rules.append(ValidationRule(condition: above(maximum), message: "'\(name)' is above its maximum \(unit)\(maximum)", code: codes.1))
            }
        }
        if attribute.type.isNumeric {
            bounds(attribute.minValueString, attribute.maxValueString, "", codes: (1620, 1610)) { Double($0).map { "\($0)" } }
        } else if attribute.type == .date {
            bounds(attribute.minDateTimeInterval, attribute.maxDateTimeInterval, "date (seconds since 2001) ", codes: (1640, 1630)) {
                Double($0).map { "\($0)" }
            }
        } else if attribute.type == .string {
            // A string's UTF-16 length lies between the characters SQLite's length() counts (up
            // to a first U+0000) and its UTF-8 bytes: SQL settles most rows, and only the others
            // call the Swift function.
            let units = "\(ValidationFunctions.utf16Length)(\(column))"
            bounds(
                attribute.minValueString, attribute.maxValueString, "length ", codes: (1670, 1660), parse: { Int($0).map { "\($0)" } },
                below: { "length(\(column)) < \($0) AND \(units) < \($0)" },
                above: { "(length(\(column)) > \($0) OR (length(CAST(\(column) AS BLOB)) > \($0) AND \(units) > \($0)))" })
        }
        if attribute.type == .string, let pattern = attribute.regularExpressionString {
            let number = functions.register(pattern: pattern)
            rules.append(
                ValidationRule(
                    condition: "\(column) IS NOT NULL AND NOT \(ValidationFunctions.matches)(\(column), \(number))",
                    message: functions.compiles(number)
                        ? "'\(name)' does not match its pattern '\(pattern)'"
                        : "'\(name)' has a pattern ICU cannot compile, '\(pattern)', which no value matches", code: 1680))
        }
        return rules
    }

    // MARK: - Relationships

    /// A required to-one present (1570); a to-many's count within `minCount`/`maxCount` (1580/1590),
    /// counted through where the store keeps its links. An optional to-many may be empty whatever
    /// its minimum: Core Data enforces the counts of an optional relationship only when it is not
    /// empty (NSRelationshipDescription's documentation, "Cardinality").
    func relationshipRules(_ relationship: Relationship, of entity: String, layout: EntityLayout) -> [ValidationRule] {
        let name = relationship.name
        guard relationship.isToMany else {
            guard !relationship.isOptional, let column = layout.columns[name] else { return [] }
            return [ValidationRule(condition: "o.\(column) IS NULL", message: "'\(name)' is required", code: 1570)]
        }
        let minimum = relationship.effectiveMinCount, maximum = relationship.effectiveMaxCount
        guard minimum > 0 || maximum > 0,
            let count = linkCount(relationship, of: entity)
        else { return [] }
        var rules = [ValidationRule]()
        if minimum > 0 {
            let condition = relationship.isOptional ? "\(count) BETWEEN 1 AND \(minimum - 1)" : "\(count) < \(minimum)"
            rules.append(ValidationRule(condition: condition, message: "'\(name)' has fewer than its minimum \(minimum) objects", code: 1580))
        }
        if maximum > 0 {
            rules.append(ValidationRule(condition: "\(count) > \(maximum)", message: "'\(name)' has more than its maximum \(maximum) objects", code: 1590))
        }
        return rules
    }

    /// SQL counting the objects the to-many `relationship` of the row `o` links to.
    private func linkCount(_ relationship: Relationship, of entity: String) -> String? {
        switch RelationshipStorage(relationship, of: entity, entities: rows.entities, layout: rows.layout) {
        case .inverseForeignKey(let table, let column, _, _):
            "(SELECT COUNT(*) FROM \(table) d WHERE d.\(column) = o.Z_PK AND d.Z_ENT IN (\(rows.kindNumbers(relationship.destinationEntityName))))"
        case .joinTable(let table, let own, _):
            "(SELECT COUNT(*) FROM \(table) j WHERE j.\(own) = o.Z_PK)"
        case .hiddenInverse(let table, let column):
            "(SELECT COUNT(*) FROM \(table) d WHERE d.\(column) = o.Z_PK)"
        case .foreignKey, nil:
            nil
        }
    }

    // MARK: - Uniqueness

    /// Each uniqueness constraint of the entity or of an ancestor (133021, the code of the
    /// constraint conflict a save reports): a row fails when another instance of the declaring
    /// entity's kind has equal values. A NULL equals nothing, as in the unique index Core Data
    /// creates for the constraint.
    func uniquenessRules(of entity: Entity, layout: EntityLayout) -> [ValidationRule] {
        var rules = [ValidationRule]()
        for declaring in rows.entities.lineage(of: entity) {
            for constraint in declaring.uniquenessConstraints {
                let columns = constraint.compactMap { layout.columns[$0] }
                guard columns.count == constraint.count, !columns.isEmpty else { continue }
                let equal = columns.map { "d.\($0) = o.\($0)" }.joined(separator: " AND ")
                rules.append(
                    ValidationRule(
                        condition: "EXISTS (SELECT 1 FROM \(layout.table) d WHERE d.Z_ENT IN (\(rows.kindNumbers(declaring.name))) AND d.Z_PK <> o.Z_PK AND \(equal))",
                        message: "(\(constraint.joined(separator: ", "))) is not unique among '\(declaring.name)' instances", code: 133021))
            }
        }
        return rules
    }
}
