import Foundation
import ModelSchema

/// The checks a save makes before writing, through each object's `validateForInsert`,
/// `validateForUpdate` and `validateForDelete` (which an app may override), with Core Data's
/// codes for the model's rules: required values and to-ones (1570), number bounds (1620 too
/// small, 1610 too large), date bounds (1640 too soon, 1630 too late), string lengths in UTF-16
/// units (1670 too short, 1660 too long), patterns (1680), to-many counts (1580 too few, 1590 too
/// many) and deny delete rules (1600). The same rules, with the same codes, as the migration
/// manager's validation pass in SQL.
enum ObjectValidator {
    /// Every error of a save's objects: each object's own validation method's, a 1560 it throws
    /// spread into the errors it lists, so that the save reports them all in one 1560.
    /// An object whose class overrides nothing (``GeneratedClassDefinition``) is checked as its
    /// `validateForInsert` or `validateForUpdate` would check it, skipping the attributes no
    /// rule constrains.
    static func errors(inserted: [ManagedObject], updated: [ManagedObject], deleted: [ManagedObject]) -> [NSError] {
        var errors = [NSError]()
        var defaults = DefaultValidation()
        // Inserted and updated objects alike: the shortcut, or their own `validate` method.
        func check(_ objects: [ManagedObject], _ validate: (ManagedObject) throws -> Void) {
            for object in objects {
                if defaults.isKept(by: object) { errors += propertyErrors(of: object, ruledOnly: true) } else { collect(into: &errors) { try validate(object) } }
            }
        }
        check(inserted) { try $0.validateForInsert() }
        check(updated) { try $0.validateForUpdate() }
        for object in deleted { collect(into: &errors) { try object.validateForDelete() } }
        return errors
    }

    /// Whether objects of a class validate as ``ManagedObject`` itself does (no override can be
    /// in the way), remembered for the class last asked about: a save's objects come in runs
    /// of one class.
    struct DefaultValidation {
        private var type: ObjectIdentifier?
        private var keeps = false

        /// Whether `object`'s class is `ManagedObject` or a generated class definition
        /// (``GeneratedClassDefinition``).
        mutating func isKept(by object: ManagedObject) -> Bool {
            let objectType = Swift.type(of: object)
            guard ObjectIdentifier(objectType) != type else { return keeps }
            type = ObjectIdentifier(objectType)
            keeps = objectType == ManagedObject.self || (objectType as? any GeneratedClassDefinition.Type)?.generatedClass == objectType
            return keeps
        }
    }

    /// Adds to `errors` what `body` throws: nothing when it passes, the error it throws, or those
    /// a 1560 it throws lists. A passing check appends nothing (an empty array appended would
    /// still allocate, once per property of every saved object).
    static func collect(into errors: inout [NSError], _ body: () throws -> Void) {
        do {
            try body()
        } catch {
            let error = error as NSError
            if error.domain == NSCocoaErrorDomain, error.code == 1560, let listed = error.userInfo[NSDetailedErrorsKey] as? [NSError] {
                errors += listed
            } else {
                errors.append(error)
            }
        }
    }

    /// The errors of `object`'s properties, each checked through its `validateValue(_:forKey:)`;
    /// with `ruledOnly`, for an object whose `validateValue(_:forKey:)` is `ManagedObject`'s, the
    /// attributes no rule constrains are passed unread (a fault left so is fired by the save's
    /// write, as their reads would have fired it).
    static func propertyErrors(of object: ManagedObject, ruledOnly: Bool = false) -> [NSError] {
        var errors = [NSError]()
        let attributes = object.entity.validatedAttributes
        let properties = object.entity.properties
        // A stored attribute's value is read by its slot, found once with the entity.
        for (name, index, slot) in attributes {
            if ruledOnly, !properties.isRuled(at: index) { continue }
            var value = slot >= 0 ? object.attributeValue(slot) : object.value(ofPropertyAt: index, key: name)
            collect(into: &errors) { try object.validateValue(&value, forKey: name) }
        }
        for relationship in object.entity.relationships {
            var value = object.value(forKey: relationship.name)
            collect(into: &errors) { try object.validateValue(&value, forKey: relationship.name) }
        }
        return errors
    }

    /// Whether some value of `property` can break a rule of the model: false for an attribute that
    /// is derived, or optional (or transient) with no bounds, lengths or pattern, and for a
    /// relationship that is transient, or optional with no counts.
    static func canBreakRule(_ property: EntityDescription.Property) -> Bool {
        switch property {
        case .attribute(let attribute, _), .transient(let attribute):
            return !attribute.isDerived && (hasValueRules(attribute) || !attribute.isOptional && !attribute.isTransient)
        case .toOne(let relationship, _):
            return !relationship.isTransient && !relationship.isOptional
        case .toMany(let relationship):
            return !relationship.isTransient && ((relationship.minCount ?? 0) > 0 || (relationship.maxCount ?? 0) > 0)
        }
    }

    /// Whether `attribute` has bounds, lengths or a pattern that a value is checked against.
    private static func hasValueRules(_ attribute: Attribute) -> Bool {
        attribute.minValueString != nil || attribute.maxValueString != nil || attribute.minDateTimeInterval != nil
            || attribute.maxDateTimeInterval != nil || attribute.regularExpressionString != nil
    }

    /// The error of the model's rules for property `key` of `object` holding `value`; nil when it passes.
    static func ruleError(_ value: Any?, forKey key: String, of object: ManagedObject) -> NSError? {
        let properties = object.entity.properties
        // Most properties have no rule any value could break (``canBreakRule(_:)``, which also
        // passes derived attributes and transient relationships): passed without casting the value.
        guard properties.hasRules, let index = properties.index(of: key), properties.isRuled(at: index) else { return nil }
        let value = value is NSNull ? nil : value
        switch properties.property(at: index) {
        case .attribute(let attribute, _), .transient(let attribute):
            guard let value else {
                guard !attribute.isOptional, !attribute.isTransient else { return nil }
                return ContextError.validation(1570, "\(key) is a required value.", object: object, key: key, value: nil)
            }
            return checkValue(value, attribute, of: object)
        case .toMany(let relationship):
            let count = (value as? NSSet)?.count ?? (value as? NSOrderedSet)?.count ?? ManagedObject.objects(in: value).count
            if count == 0 && relationship.isOptional { return nil }
            if let minimum = relationship.minCount, minimum > 0, count < minimum {
                return ContextError.validation(1580, "Too few items in \(key).", object: object, key: key, value: count)
            }
            if let maximum = relationship.maxCount, maximum > 0, count > maximum {
                return ContextError.validation(1590, "Too many items in \(key).", object: object, key: key, value: count)
            }
            return nil
        case .toOne:
            guard value == nil else { return nil }
            return ContextError.validation(1570, "\(key) is a required value.", object: object, key: key, value: nil)
        }
    }

    private static func checkValue(_ value: Any, _ attribute: Attribute, of object: ManagedObject) -> NSError? {
        // Most attributes have no rule on their value: passed without casting it (costly on Linux).
        guard hasValueRules(attribute) else { return nil }
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
    static func deleteErrors(of object: ManagedObject) -> [NSError] {
        guard let context = object.managedObjectContext else { return [] }
        return object.entity.relationships.filter { $0.deleteRule == .deny && !$0.isTransient }.compactMap { relationship in
            let present = relationship.isToMany
                ? context.contents(of: relationship, in: object).objects.contains { !$0.deleted }
                : context.target(of: relationship, in: object).map { !$0.deleted } ?? false
            guard present else { return nil }
            return ContextError.validation(1600, "\(relationship.name) still has objects, and its delete rule is Deny.", object: object, key: relationship.name, value: nil)
        }
    }
}
