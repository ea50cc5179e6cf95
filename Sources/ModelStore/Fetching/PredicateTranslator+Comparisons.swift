import Foundation
import GRDB
import ModelExpression
import ModelSchema

/// Comparisons of two operands as SQL conditions that are true, false or NULL exactly when the
/// store rule of ``ExpressionEvaluator`` says true, false or unknown.
extension PredicateTranslator {
    /// The condition `lhs op rhs`; throws for operands SQL cannot compare as the evaluator does.
    mutating func compare(_ lhs: SQLOperand, _ op: ComparisonOperator, _ rhs: SQLOperand, _ options: ComparisonOptions) throws -> String {
        switch (lhs, rhs) {
        case (.toMany(let owner, let relationship, []), .value(let value, _)) where op == .contains:
            return try membership(owner, relationship, value)
        case (.value(let value, _), .toMany(let owner, let relationship, [])) where op == .in:
            return try membership(owner, relationship, value)
        case (.toMany(_, let relationship, _), _), (_, .toMany(_, let relationship, _)):
            throw PredicateTranslationError("the to-many '\(relationship.name)' needs ANY, ALL, NONE or a collection operator here")
        case (.value(_, true), let other), (let other, .value(_, true)):
            guard op == .equal || op == .notEqual else { return "NULL" }
            return try isNull(other, negated: op == .notEqual)
        case (.value, .value):
            throw PredicateTranslationError("a comparison of two constants is not sent to the store")
        case (.scalar(let sql, let type), .value(let value, _)):
            return try compare(sql, type, op, value, options)
        case (.value(let value, _), .scalar(let sql, let type)):
            if let mirrored = op.mirrored { return try compare(sql, type, mirrored, value, options) }
            guard type == .string, case .string = value, let text = Self.stringFunction(op, text: parameter(try encode(value, as: type)), pattern: sql, options) else {
                throw PredicateTranslationError("\(value.kind) \(op.symbol) a column cannot be translated to SQL")
            }
            return text
        case (.scalar(let a, let typeA), .scalar(let b, let typeB)):
            guard Self.family(typeA) == Self.family(typeB), Self.family(typeA) != nil else {
                throw PredicateTranslationError("cannot compare a \(typeA.xmlName ?? "value") with a \(typeB.xmlName ?? "value") in SQL")
            }
            if typeA == .string, let text = Self.stringFunction(op, text: a, pattern: b, options) { return text }
            guard let symbol = op.sqlSymbol else { throw PredicateTranslationError("\(op.symbol) between two key paths cannot be translated to SQL") }
            if typeA == .string, !options.subtracting(.normalized).isEmpty {
                return "NSCoreDataStringCompare(\(a), \(b), \(CoreDataFunctions.flags(options))) \(symbol) 0"
            }
            return "\(a) \(symbol) \(b)"
        case (.toOne(let key, let entityColumn, let destination), .value(let value, _)):
            return try objects(op, key: key, entityColumn: entityColumn, destination: destination, value)
        case (.row(let row), .value(let value, _)):
            return try objects(op, key: "\(row.alias).Z_PK", entityColumn: "\(row.alias).Z_ENT", destination: row.entity, value)
        case (.entity(let row, let isName), .value(let value, _)):
            guard options.subtracting(.normalized).isEmpty else { throw PredicateTranslationError("entity names compare without [c] or [d]") }
            return try entityTest(op, row, isName: isName, value)
        case (.value, .toOne), (.value, .row), (.value, .entity):
            guard op == .equal || op == .notEqual else { throw PredicateTranslationError("\(op.symbol) with a constant on the left cannot be translated to SQL") }
            return try compare(rhs, op, lhs, options)
        default:
            throw PredicateTranslationError("\(op.symbol) between these operands cannot be translated to SQL")
        }
    }

    // MARK: - Attributes

    /// A column (or scalar subquery) of attribute type `type` against a constant.
    private mutating func compare(_ sql: String, _ type: AttributeType, _ op: ComparisonOperator, _ value: EvaluatedValue, _ options: ComparisonOptions)
        throws -> String
    {
        let folding = !options.subtracting(.normalized).isEmpty
        switch op {
        case .between:
            let bounds = value.elements
            guard !folding, bounds.count == 2, !bounds.contains(.null) else { throw PredicateTranslationError("BETWEEN needs two bounds that are not nil") }
            return "\(sql) BETWEEN \(parameter(try encode(bounds[0], as: type))) AND \(parameter(try encode(bounds[1], as: type)))"
        case .in:
            if case .string(let text) = value, type == .string {
                return Self.stringFunction(.in, text: sql, pattern: parameter(text.databaseValue), options)!
            }
            guard case .collection(let items) = value, !folding else { throw PredicateTranslationError("IN needs a list of values for a column") }
            if items.isEmpty { return "0" }
            return "\(sql) IN (" + (try items.map { $0.isNull ? "NULL" : parameter(try encode($0, as: type)) }).joined(separator: ", ") + ")"
        case .contains, .beginsWith, .endsWith, .like, .matches:
            guard type == .string, case .string = value else { throw PredicateTranslationError("\(op.symbol) needs a string attribute and a string, not \(value.kind)") }
            return Self.stringFunction(op, text: sql, pattern: parameter(try encode(value, as: type)), options)!
        default:
            guard let symbol = op.sqlSymbol else { throw PredicateTranslationError("\(op.symbol) cannot be translated to SQL") }
            if [.uuid, .binary, .uri].contains(type), op != .equal, op != .notEqual {
                throw PredicateTranslationError("\(type.xmlName ?? "binary") values have no order in SQL")
            }
            if type == .string, folding {
                return "NSCoreDataStringCompare(\(sql), \(parameter(try encode(value, as: type))), \(CoreDataFunctions.flags(options))) \(symbol) 0"
            }
            return "\(sql) \(symbol) \(parameter(try encode(value, as: type)))"
        }
    }

    /// The string function for `op` on `text` and `pattern` (SQL expressions); nil for an
    /// operator that is no string search.
    static func stringFunction(_ op: ComparisonOperator, text: String, pattern: String, _ options: ComparisonOptions) -> String? {
        let flags = CoreDataFunctions.flags(options)
        switch op {
        case .contains, .beginsWith, .endsWith: return "NSCoreDataStringSearch(\(text), \(pattern), \(flags), \(op.rawValue))"
        case .in: return "NSCoreDataStringSearch(\(pattern), \(text), \(flags), \(ComparisonOperator.contains.rawValue))"
        case .like: return "NSCoreDataLike(\(text), \(pattern), \(flags))"
        case .matches: return "NSCoreDataMatches(\(text), \(pattern), \(flags))"
        default: return nil
        }
    }

    /// `IS NULL` or `IS NOT NULL` of an operand compared with a `nil` literal.
    private func isNull(_ operand: SQLOperand, negated: Bool) throws -> String {
        switch operand {
        case .scalar(let sql, _), .toOne(let sql, _, _): return "\(sql) IS \(negated ? "NOT " : "")NULL"
        case .row, .entity: return negated ? "1" : "0"
        case .value(let value, _): return value.isNull != negated ? "1" : "0"
        case .toMany(_, let relationship, _): throw PredicateTranslationError("the to-many '\(relationship.name)' compared with nil")
        }
    }

    // MARK: - Objects and entities

    /// A to-one or a row against an object or a list of objects (`==`, `!=`, `IN`).
    private mutating func objects(_ op: ComparisonOperator, key: String, entityColumn: String?, destination: String, _ value: EvaluatedValue) throws -> String {
        func match(_ item: EvaluatedValue, _ translator: inout PredicateTranslator) throws -> String {
            guard case .object(let reference) = item else { throw PredicateTranslationError("an object is compared with \(item.kind)") }
            // A new object (a key below 1) or an object of another store (another key space) is no row of this one.
            let isRow = reference.primaryKey > 0 && KeySpace(containing: reference.primaryKey) == translator.keys
            guard translator.entities.isKind(reference.entity, of: destination), isRow,
                let number = translator.layout.entity(named: reference.entity)?.number
            else {
                return "(\(key) IS NULL AND NULL)"
            }
            let keyTest = "\(key) = \(translator.parameter(translator.keys.primaryKey(reference.primaryKey).databaseValue))"
            return entityColumn.map { "(\(keyTest) AND \($0) = \(translator.parameter(number.databaseValue)))" } ?? keyTest
        }
        switch op {
        case .equal: return try match(value, &self)
        case .notEqual: return "(NOT \(try match(value, &self)))"
        case .in:
            guard case .collection(let items) = value else { throw PredicateTranslationError("IN needs a collection of objects") }
            if items.isEmpty { return "0" }
            return "(" + (try items.map { try match($0, &self) }).joined(separator: " OR ") + ")"
        default:
            throw PredicateTranslationError("objects compare with ==, != and IN only, not \(op.symbol)")
        }
    }

    /// Whether a to-many of `owner` links to the object `value` (`rel CONTAINS %@`, `%@ IN rel`).
    private mutating func membership(_ owner: RowSource, _ relationship: Relationship, _ value: EvaluatedValue) throws -> String {
        "EXISTS " + (try subquery(relationship, from: owner) { translator, element in
            ("1", try translator.objects(.equal, key: "\(element.alias).Z_PK", entityColumn: "\(element.alias).Z_ENT", destination: element.entity, value))
        })
    }

    /// `entity == %@` (an entity description) or `entity.name == "Name"`, as a test of `Z_ENT`.
    private func entityTest(_ op: ComparisonOperator, _ row: RowSource, isName: Bool, _ value: EvaluatedValue) throws -> String {
        func number(_ item: EvaluatedValue) throws -> String {
            let name: String? = isName ? { if case .string(let text) = item { text } else { nil } }() : item.entityName
            guard let name else { throw PredicateTranslationError("entity\(isName ? ".name" : "") is compared with \(item.kind)") }
            return layout.entity(named: name).map { String($0.number) } ?? "-1"
        }
        switch op {
        case .equal: return "\(row.alias).Z_ENT = \(try number(value))"
        case .notEqual: return "\(row.alias).Z_ENT <> \(try number(value))"
        case .in: return "\(row.alias).Z_ENT IN (\((try value.elements.map(number)).joined(separator: ", ")))"
        default: throw PredicateTranslationError("entity compares with ==, != and IN only, not \(op.symbol)")
        }
    }
}

extension ComparisonOperator {
    /// The SQL operator of an ordering or equality comparison.
    var sqlSymbol: String? {
        switch self {
        case .equal: "="
        case .notEqual: "<>"
        case .lessThan, .lessThanOrEqual, .greaterThan, .greaterThanOrEqual: symbol
        default: nil
        }
    }

    /// The operator with its sides swapped (`a < b` is `b > a`); nil for one that has none.
    var mirrored: ComparisonOperator? {
        switch self {
        case .equal, .notEqual: self
        case .lessThan: .greaterThan
        case .lessThanOrEqual: .greaterThanOrEqual
        case .greaterThan: .lessThan
        case .greaterThanOrEqual: .lessThanOrEqual
        default: nil
        }
    }
}
