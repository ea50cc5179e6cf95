import Foundation
import ModelObjects
import ModelSchema

/// A format string and its arguments.
struct GeneratedPredicate: CustomStringConvertible {
    var format: String
    var arguments: [Any]

    init(_ format: String, _ arguments: Any...) {
        self.format = format
        self.arguments = arguments
    }

    var description: String { "\(format) with \(arguments.map { "\($0)" })" }
}

/// Predicates over the values an entity's objects actually hold: each operator and modifier on
/// each attribute, key paths through to-ones, to-manys with ANY/ALL/NONE, collection operators,
/// SUBQUERY, IN, BETWEEN, string operators with [c][d], object and entity tests.
struct PredicateGenerator {
    let model: ManagedObjectModel
    let entity: EntityDescription
    let objects: [ManagedObject]

    func predicates() -> [GeneratedPredicate] {
        var result = [GeneratedPredicate]()
        for attribute in entity.attributes where !attribute.isTransient {
            result += attributePredicates(attribute.name, attribute.type, values(of: attribute.name, in: objects), total: objects.count)
        }
        for relationship in entity.relationships where !relationship.isTransient {
            result += relationship.isToMany ? toManyPredicates(relationship) : toOnePredicates(relationship)
        }
        if objects.count >= 2 {
            result.append(GeneratedPredicate("SELF == %@", objects[objects.count / 2]))
            result.append(GeneratedPredicate("SELF IN %@", [objects[0], objects[objects.count - 1]]))
            result.append(GeneratedPredicate("NOT (SELF IN %@)", [objects[0]]))
        }
        if let sample = objects.last {
            result.append(GeneratedPredicate("entity.name == %@", sample.entity.name))
            result.append(GeneratedPredicate("entity == %@ OR entity IN %@", sample.entity, [entity]))
        }
        return result
    }

    /// The non-nil values of `key` on `objects`, in their order.
    private func values(of key: String, in objects: [ManagedObject]) -> [Any] {
        objects.compactMap { $0.value(forKey: key) }
    }

    // MARK: - Attributes

    /// Comparisons of `path` with values it holds (`values`, of `total` objects); `prefix` puts a
    /// modifier before each. Values are picked among the distinct ones, so that most comparisons
    /// match some objects and not others.
    private func attributePredicates(_ path: String, _ type: AttributeType, _ values: [Any], total: Int, prefix: String = "") -> [GeneratedPredicate] {
        var result = [GeneratedPredicate]()
        if prefix.isEmpty {
            result.append(GeneratedPredicate("%K == nil", path))
            if !values.isEmpty && values.count < total { result.append(GeneratedPredicate("%K != nil", path)) }
        }
        // Floats are left out: an object holds a Float, its column the double (Predicates.md).
        guard !values.isEmpty, ![.float, .transformable, .binary, .undefined, .objectID].contains(type) else { return result }
        var seen = Set<String>()
        let distinct = values.filter { seen.insert("\($0)").inserted }.sorted(by: isLess)
        let value = distinct[distinct.count / 2]
        let other = distinct[distinct.count / 3]
        let isOrdered = ![.uuid, .uri].contains(type) && distinct.count > 1
        result += (isOrdered ? ["==", "!=", "<", "<=", ">", ">="] : ["==", "!="]).map { GeneratedPredicate("\(prefix)%K \($0) %@", path, value) }
        if prefix.isEmpty {
            result.append(GeneratedPredicate("NOT (%K == %@)", path, value))
            result.append(GeneratedPredicate("%K IN %@", path, [value, other]))
            result.append(GeneratedPredicate("NOT (%K IN %@) OR %K == %@", path, [other], path, value))
        }
        if isOrdered {
            result.append(GeneratedPredicate("\(prefix)%K BETWEEN %@", path, [other, value]))
        }
        if type == .string, let text = value as? String, !text.isEmpty {
            let upper = text.uppercased()
            result += [
                GeneratedPredicate("\(prefix)%K ==[c] %@", path, upper),
                GeneratedPredicate("\(prefix)%K BEGINSWITH[c] %@", path, String(upper.prefix(2))),
                GeneratedPredicate("\(prefix)%K CONTAINS[cd] %@", path, String(upper.dropFirst().prefix(3))),
                GeneratedPredicate("\(prefix)%K CONTAINS %@", path, String(text.dropFirst().prefix(2))),
                GeneratedPredicate("\(prefix)%K ENDSWITH %@", path, String(text.suffix(2))),
                GeneratedPredicate("\(prefix)%K LIKE[c] %@", path, String(upper.prefix(1)) + "*"),
                GeneratedPredicate("\(prefix)%K LIKE %@", path, "?" + String(text.dropFirst().prefix(2)) + "*"),
                GeneratedPredicate("\(prefix)%K MATCHES %@", path, NSRegularExpression.escapedPattern(for: String(text.prefix(2))) + ".*"),
                GeneratedPredicate("\(prefix)%K <[c] %@", path, upper),
            ]
        }
        return result
    }

    /// The order of two values of one attribute, for BETWEEN's bounds.
    private func isLess(_ a: Any, _ b: Any) -> Bool {
        switch (a, b) {
        case (let x as String, let y as String): x.unicodeScalars.lexicographicallyPrecedes(y.unicodeScalars)
        case (let x as Date, let y as Date): x < y
        case (let x as Decimal, let y as Decimal): x < y
        default: (number(a) ?? 0) < (number(b) ?? 0)
        }
    }

    private func number(_ value: Any) -> Double? {
        switch value {
        case let x as Int16: Double(x)
        case let x as Int32: Double(x)
        case let x as Int64: Double(x)
        case let x as Int: Double(x)
        case let x as Double: x
        case let x as Bool: x ? 1 : 0
        default: nil
        }
    }

    /// The stored attributes of a relationship's destination entity.
    private func attributes(of relationship: Relationship) -> [Attribute] {
        (model.entitiesByName[relationship.destinationEntityName]?.attributes ?? []).filter { !$0.isTransient }
    }

    // MARK: - Relationships

    private func toOnePredicates(_ relationship: Relationship) -> [GeneratedPredicate] {
        let targets = values(of: relationship.name, in: objects).compactMap { $0 as? ManagedObject }
        guard let target = targets.dropFirst(targets.count / 2).first else { return [GeneratedPredicate("%K == nil", relationship.name)] }
        var result = [
            GeneratedPredicate("%K == %@", relationship.name, target), GeneratedPredicate("%K != %@", relationship.name, target),
            GeneratedPredicate("%K == %@", relationship.name, target.objectID), GeneratedPredicate("%K IN %@", relationship.name, [target]),
            GeneratedPredicate("%K == nil", relationship.name), GeneratedPredicate("%K != nil", relationship.name),
        ]
        for attribute in attributes(of: relationship).prefix(6) {
            let path = "\(relationship.name).\(attribute.name)"
            result += attributePredicates(path, attribute.type, values(of: attribute.name, in: targets), total: targets.count).prefix(5)
        }
        return result
    }

    private func toManyPredicates(_ relationship: Relationship) -> [GeneratedPredicate] {
        let name = relationship.name
        let owned = objects.map { (($0.value(forKey: name) as? NSSet)?.allObjects ?? ($0.value(forKey: name) as? NSOrderedSet)?.array ?? []) as? [ManagedObject] ?? [] }
        let elements = owned.flatMap { $0 }
        let counts = owned.map(\.count).sorted()
        var result = [
            GeneratedPredicate("%K.@count == 0", name), GeneratedPredicate("%K.@count >= %d", name, counts[counts.count / 2]),
            GeneratedPredicate("%K.@count > %ld", name, counts.first ?? 0),
        ]
        guard let element = elements.dropFirst(elements.count / 2).first else { return result }
        result += [GeneratedPredicate("%K CONTAINS %@", name, element), GeneratedPredicate("%@ IN %K", element, name)]
        for attribute in attributes(of: relationship).prefix(8) {
            let path = "\(name).\(attribute.name)"
            let values = values(of: attribute.name, in: elements)
            for modifier in ["ANY ", "ALL ", "NONE "] {
                result += attributePredicates(path, attribute.type, values, total: elements.count, prefix: modifier).prefix(modifier == "ANY " ? 16 : 3)
            }
            guard let value = values.dropFirst(values.count / 2).first, [.integer16, .integer32, .integer64, .double, .decimal, .date, .string].contains(attribute.type)
            else { continue }
            result.append(GeneratedPredicate("SUBQUERY(%K, $x, $x.%K == %@).@count > 0", name, attribute.name, value))
            result.append(GeneratedPredicate("SUBQUERY(%K, $x, $x.%K != %@ OR $x.%K == nil).@count >= 1", name, attribute.name, value, attribute.name))
            if attribute.type != .string {
                result.append(GeneratedPredicate("%K.@max.%K >= %@", name, attribute.name, value))
                result.append(GeneratedPredicate("%K.@min.%K < %@", name, attribute.name, value))
            }
            if ![.string, .date].contains(attribute.type) {
                result.append(GeneratedPredicate("%K.@sum.%K >= %@", name, attribute.name, value))
                result.append(GeneratedPredicate("%K.@avg.%K < %@", name, attribute.name, value))
            }
        }
        return result
    }
}
