import ModelExpression
import ModelSchema

/// What one side of a comparison is in SQL.
enum SQLOperand {
    /// A scalar SQL expression (a column, a count, an aggregate) and the attribute type of its values.
    case scalar(String, AttributeType)
    /// A to-one relationship: its foreign key, its entity column and its destination entity.
    case toOne(key: String, entityColumn: String?, destination: String)
    /// A row itself: `SELF`, a `SUBQUERY` variable, the end of an empty key path.
    case row(PredicateTranslator.RowSource)
    /// A to-many of `owner`, and the rest of the key path after it.
    case toMany(owner: PredicateTranslator.RowSource, relationship: Relationship, rest: [String])
    /// `entity` of a row (`Z_ENT`), or `entity.name`.
    case entity(PredicateTranslator.RowSource, isName: Bool)
    /// A constant, from a literal (`isNilLiteral` for `nil` itself), an argument or an aggregate of them.
    case value(EvaluatedValue, isNilLiteral: Bool)
}

/// Expressions and key paths as ``SQLOperand``s.
extension PredicateTranslator {
    /// The operand `node` stands for.
    mutating func operand(_ node: ExpressionNode) throws -> SQLOperand {
        switch node {
        case .constant(let constant):
            return .value(ExpressionEvaluator.value(of: constant), isNilLiteral: constant == .null)
        case .value(let value):
            return .value(value, isNilLiteral: false)
        case .aggregate(let items):
            return .value(.collection(try items.map { item in
                guard case .value(let value, _) = try operand(item) else {
                    throw PredicateTranslationError("only constants can be listed in '\(PredicateFormatter.format(node))'")
                }
                return value
            }), isNilLiteral: false)
        case .evaluatedObject:
            return .row(selfRow)
        case .variable(let name):
            guard let row = variables[name] else { throw PredicateTranslationError("the variable $\(name) has no value in a fetch") }
            return .row(row)
        case .keyPath(.subquery(let collection, let variable, let predicate), "@count"):
            return .scalar(try subqueryCount(collection, variable, predicate), .integer64)
        case .keyPath(let base, let path):
            guard case .row(let row) = try operand(base) else {
                throw PredicateTranslationError("the key path '\(PredicateFormatter.format(node))' does not start at SELF or a SUBQUERY variable")
            }
            let keys = path.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
            let resolved = try resolve(keys, from: row)
            if case .toMany(let owner, let relationship, let rest) = resolved, let aggregate = try aggregate(owner, relationship, rest) {
                return aggregate
            }
            return resolved
        case .subquery:
            throw PredicateTranslationError("a SUBQUERY is translated only as SUBQUERY(…).@count")
        case .function(_, let selector, _):
            throw PredicateTranslationError("the function '\(selector)' in '\(PredicateFormatter.format(node))' cannot be translated to SQL")
        }
    }

    /// The operand a key path stands for from `source`: attributes as columns, to-ones through
    /// joins, a to-many with the keys after it left for the caller.
    mutating func resolve(_ keys: [String], from source: RowSource) throws -> SQLOperand {
        var current = source
        var index = 0
        while index < keys.count {
            let key = keys[index]
            let isLast = index == keys.count - 1
            guard let model = entities.entity(named: current.entity), let table = layout.entity(named: current.entity) else {
                throw PredicateTranslationError("the store has no entity '\(current.entity)'")
            }
            if let attribute = entities.attributes(of: model).first(where: { $0.name == key }) {
                guard isLast else { throw PredicateTranslationError("'\(key)' of '\(current.entity)' is an attribute; '\(keys.joined(separator: "."))' goes past it") }
                guard let column = table.columns[key] else { throw PredicateTranslationError("'\(current.entity).\(key)' has no column") }
                return .scalar("\(current.alias).\(column)", attribute.type)
            }
            if let relationship = entities.relationships(of: model).first(where: { $0.name == key }) {
                if relationship.isToMany { return .toMany(owner: current, relationship: relationship, rest: Array(keys[(index + 1)...])) }
                guard let column = table.columns[key] else { throw PredicateTranslationError("'\(current.entity).\(key)' has no column") }
                if isLast {
                    return .toOne(
                        key: "\(current.alias).\(column)", entityColumn: table.entityColumns[key].map { "\(current.alias).\($0)" },
                        destination: relationship.destinationEntityName)
                }
                current = try join(relationship, column: column, from: current)
                index += 1
                continue
            }
            if key == "entity", isLast || (keys[index + 1] == "name" && index + 2 == keys.count) {
                return .entity(current, isName: !isLast)
            }
            throw PredicateTranslationError("entity '\(current.entity)' has no key '\(key)' (in '\(keys.joined(separator: "."))')")
        }
        return .row(current)
    }

    /// `rel.@count`, `rel.@sum.key` (or `rel.key.@sum`), `@avg`, `@min`, `@max` as correlated
    /// subqueries; nil when the keys after the to-many name no collection operator.
    private mutating func aggregate(_ owner: RowSource, _ relationship: Relationship, _ rest: [String]) throws -> SQLOperand? {
        guard let op = rest.first(where: { $0.hasPrefix("@") }) else { return nil }
        guard rest.first == op || rest.last == op else { throw PredicateTranslationError("the collection operator \(op) must come first or last after '\(relationship.name)'") }
        if op == "@count" {
            guard rest == ["@count"] else { throw PredicateTranslationError("@count takes no key path after '\(relationship.name)'") }
            return .scalar(try subquery(relationship, from: owner) { _, _ in ("COUNT(*)", nil) }, .integer64)
        }
        guard let function = ["@sum": "SUM", "@avg": "AVG", "@min": "MIN", "@max": "MAX"][op] else {
            throw PredicateTranslationError("the collection operator \(op) cannot be translated to SQL")
        }
        let path = rest.first == op ? Array(rest.dropFirst()) : Array(rest.dropLast())
        var type = AttributeType.undefined
        let sql = try subquery(relationship, from: owner) { translator, element in
            guard case .scalar(let value, let valueType) = try translator.resolve(path, from: element) else {
                throw PredicateTranslationError("\(op) needs an attribute after '\(relationship.name)', not '\(path.joined(separator: "."))'")
            }
            guard ["MIN", "MAX"].contains(function) || Self.family(valueType) == .number else {
                throw PredicateTranslationError("\(op) needs a numeric attribute after '\(relationship.name)'")
            }
            type = valueType
            return (function == "SUM" ? "IFNULL(SUM(\(value)), 0)" : "\(function)(\(value))", nil)
        }
        return .scalar(sql, function == "AVG" ? .double : type)
    }

    /// `SUBQUERY(toMany, $x, predicate).@count`: the elements for which the predicate holds,
    /// each as `$x` and as `SELF`.
    private mutating func subqueryCount(_ collection: ExpressionNode, _ variable: String, _ predicate: PredicateNode) throws -> String {
        guard case .toMany(let owner, let relationship, let rest) = try operand(collection), rest.isEmpty else {
            throw PredicateTranslationError("a SUBQUERY needs a to-many key path, not '\(PredicateFormatter.format(collection))'")
        }
        return try subquery(relationship, from: owner) { translator, element in
            let (outerSelf, outerBinding) = (translator.selfRow, translator.variables[variable])
            translator.selfRow = element
            translator.variables[variable] = element
            let condition = try translator.condition(predicate)
            translator.selfRow = outerSelf
            translator.variables[variable] = outerBinding
            return ("COUNT(*)", condition)
        }
    }
}
