import Foundation
import ModelExpression
import ModelSchema
import ModelStore

/// One entry of a dictionary fetch's `propertiesToFetch`: an attribute by name, or a named
/// expression: an attribute's key path, or an aggregate of one (`count:`, `sum:`, `min:`, `max:`,
/// `average:`) over each group of `propertiesToGroupBy` (over every row without one). Values
/// follow SQL's aggregates, which Core Data's store computes: null values are left out, `count:`
/// of no values is 0, the others give no value.
enum FetchedProperty {
    case attribute(String)
    case keyPath(name: String, path: String)
    case aggregate(name: String, function: String, path: String, type: AttributeType)

    static let functions: Set<String> = ["count:", "sum:", "min:", "max:", "average:"]

    /// The entries of `propertiesToFetch`; a kind of entry or expression the store cannot answer is 134060.
    static func parse(_ entries: [Any]) throws -> [FetchedProperty] {
        try entries.map { entry in
            if let name = entry as? String { return .attribute(name) }
            guard let description = entry as? ExpressionDescription, let expression = description.expression else {
                throw ContextError.make(134060, "propertiesToFetch holds \(type(of: entry)); it takes attribute names and ExpressionDescriptions with an expression")
            }
            switch expression.node {
            case .keyPath(.evaluatedObject, let path):
                return .keyPath(name: description.name, path: path)
            case .function(nil, let function, let arguments) where functions.contains(function):
                guard arguments.count == 1, case .keyPath(.evaluatedObject, let path) = arguments[0] else { break }
                return .aggregate(name: description.name, function: function, path: path, type: description.expressionResultType)
            default:
                break
            }
            throw ContextError.make(134060, "the store cannot fetch the expression '\(expression)' of '\(description.name)': it takes a key path, or count:, sum:, min:, max: or average: of one")
        }
    }

    var isAggregate: Bool {
        if case .aggregate = self { return true }
        return false
    }

    /// The attribute a plain entry names.
    var attributeName: String? {
        switch self {
        case .attribute(let name): name
        case .keyPath(_, let path): path
        case .aggregate: nil
        }
    }

    /// The entry's value in the dictionary of `rows` (one row, or a group's rows).
    func value(over rows: [[String: Any]]) -> (key: String, value: Any?) {
        switch self {
        case .attribute(let name): return (name, rows.first?[name])
        case .keyPath(let name, let path): return (name, rows.first?[path])
        case .aggregate(let name, let function, let path, let type):
            return (name, Self.aggregate(function, rows.compactMap { $0[path] }, as: type))
        }
    }

    private static func aggregate(_ function: String, _ values: [Any], as type: AttributeType) -> Any? {
        if function == "count:" { return converted(Int64(values.count), to: type) }
        guard !values.isEmpty else { return nil }
        switch function {
        case "min:", "max:":
            let key = SortKey("", ascending: true)
            let best = values.dropFirst().reduce(values[0]) { best, value in
                let order = SortKey.compare(evaluated(value), evaluated(best), by: key)
                return (function == "min:" ? order == .orderedAscending : order == .orderedDescending) ? value : best
            }
            return converted(best, to: type)
        case "sum:":
            let integers = values.compactMap(integer)
            if integers.count == values.count { return converted(integers.reduce(0, &+), to: type) }
            return converted(values.reduce(0.0) { $0 + (evaluated($1).number ?? 0) }, to: type)
        default:
            return converted(values.reduce(0.0) { $0 + (evaluated($1).number ?? 0) } / Double(values.count), to: type)
        }
    }

    private static func integer(_ value: Any) -> Int64? {
        switch value {
        case let number as Int64: number
        case let number as Int32: Int64(number)
        case let number as Int16: Int64(number)
        case let flag as Bool: flag ? 1 : 0
        default: nil
        }
    }

    private static func evaluated(_ value: Any) -> EvaluatedValue {
        (try? PredicateArgument.value(value)) ?? .null
    }

    /// `value` in the expression's result type (as it is for an undefined or matching type).
    private static func converted(_ value: Any, to type: AttributeType) -> Any {
        guard let number = evaluated(value).number else { return value }
        switch type {
        case .integer16, .integer32, .integer64: return integer(value) ?? Int64(exactly: number.rounded(.towardZero)) ?? value
        case .double: return number
        case .float: return Float(number)
        case .decimal: return Decimal(number)
        default: return value
        }
    }
}
