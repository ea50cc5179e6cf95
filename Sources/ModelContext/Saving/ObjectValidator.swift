import Foundation
import ModelSchema

/// The checks a save makes before writing (`validateForInsert`, `validateForUpdate`,
/// `validateForDelete`), with Core Data's codes: required values and to-ones (1570), number
/// bounds (1620 too small, 1610 too large), date bounds (1640 too soon, 1630 too late), string
/// lengths in UTF-16 units (1670 too short, 1660 too long), patterns (1680), to-many counts
/// (1580 too few, 1590 too many) and deny delete rules (1600). The same rules, with the same
/// codes, as the migration manager's validation pass in SQL.
enum ObjectValidator {
    static func errors(inserted: [ManagedObject], updated: [ManagedObject], deleted: [ManagedObject], in context: ManagedObjectContext) -> [NSError] {
        var errors = [NSError]()
        for object in [inserted, updated].joined() { errors += check(object, in: context) }
        for object in deleted { errors += checkDelete(object, in: context) }
        return errors
    }

    private static func check(_ object: ManagedObject, in context: ManagedObjectContext) -> [NSError] {
        var errors = [NSError]()
        for (attribute, property) in object.entity.validatedAttributes {
            guard let value = object.value(of: property, key: attribute.name) else {
                if !attribute.isOptional, !attribute.isTransient {
                    errors.append(ContextError.validation(1570, "\(attribute.name) is a required value.", object: object, key: attribute.name, value: nil))
                }
                continue
            }
            if let error = checkValue(value, attribute, of: object) { errors.append(error) }
        }
        for relationship in object.entity.relationships where !relationship.isTransient {
            if relationship.isToMany {
                let count = context.contents(of: relationship, in: object).count
                if count == 0 && relationship.isOptional { continue }
                if let minimum = relationship.minCount, minimum > 0, count < minimum {
                    errors.append(ContextError.validation(1580, "Too few items in \(relationship.name).", object: object, key: relationship.name, value: count))
                } else if let maximum = relationship.maxCount, maximum > 0, count > maximum {
                    errors.append(ContextError.validation(1590, "Too many items in \(relationship.name).", object: object, key: relationship.name, value: count))
                }
            } else if !relationship.isOptional, context.target(of: relationship, in: object) == nil {
                errors.append(ContextError.validation(1570, "\(relationship.name) is a required value.", object: object, key: relationship.name, value: nil))
            }
        }
        return errors
    }

    private static func checkValue(_ value: Any, _ attribute: Attribute, of object: ManagedObject) -> NSError? {
        let key = attribute.name
        func failure(_ code: Int, _ message: String) -> NSError {
            ContextError.validation(code, message, object: object, key: key, value: value)
        }
        if attribute.type.isNumeric, let number = (value as? NSNumber)?.doubleValue ?? (value as? Decimal).map({ NSDecimalNumber(decimal: $0).doubleValue }) {
            if let minimum = attribute.minValueString.flatMap(Double.init), number < minimum { return failure(1620, "\(key) is too small.") }
            if let maximum = attribute.maxValueString.flatMap(Double.init), number > maximum { return failure(1610, "\(key) is too large.") }
        } else if attribute.type == .date, let date = value as? Date {
            let seconds = date.timeIntervalSinceReferenceDate
            if let minimum = attribute.minDateTimeInterval.flatMap(Double.init), seconds < minimum { return failure(1640, "\(key) is too soon.") }
            if let maximum = attribute.maxDateTimeInterval.flatMap(Double.init), seconds > maximum { return failure(1630, "\(key) is too late.") }
        } else if attribute.type == .string, let text = value as? String {
            let length = text.utf16.count
            if let minimum = attribute.minValueString.flatMap(Int.init), length < minimum { return failure(1670, "\(key) is too short.") }
            if let maximum = attribute.maxValueString.flatMap(Int.init), length > maximum { return failure(1660, "\(key) is too long.") }
            if let pattern = attribute.regularExpressionString, !matchesWhole(text, pattern) { return failure(1680, "\(key) does not match its pattern.") }
        }
        return nil
    }

    /// Whether the whole of `text` matches `pattern` (NSPredicate's MATCHES); a pattern that does
    /// not compile matches nothing.
    private static func matchesWhole(_ text: String, _ pattern: String) -> Bool {
        guard let expression = try? NSRegularExpression(pattern: "^(?:" + pattern + ")$") else { return false }
        return expression.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
    }

    /// A deny rule refuses to delete an object whose relationship still has a destination.
    private static func checkDelete(_ object: ManagedObject, in context: ManagedObjectContext) -> [NSError] {
        object.entity.relationships.filter { $0.deleteRule == .deny && !$0.isTransient }.compactMap { relationship in
            let present = relationship.isToMany
                ? context.contents(of: relationship, in: object).objects.contains { !$0.deleted }
                : context.target(of: relationship, in: object).map { !$0.deleted } ?? false
            guard present else { return nil }
            return ContextError.validation(1600, "\(relationship.name) still has objects, and its delete rule is Deny.", object: object, key: relationship.name, value: nil)
        }
    }
}
