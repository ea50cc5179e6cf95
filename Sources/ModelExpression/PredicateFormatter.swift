import Foundation

/// Prints syntax trees back as `predicateFormat` text, the way NSPredicate and NSExpression do,
/// except that boolean constants print as `YES`/`NO` (NSPredicate prints 1/0) so text round-trips.
public enum PredicateFormatter {
    public static func format(_ predicate: PredicateNode) -> String {
        switch predicate {
        case .truePredicate: return "TRUEPREDICATE"
        case .falsePredicate: return "FALSEPREDICATE"
        case .comparison(let left, let op, let right, let options, let modifier):
            let prefix = modifier == .any ? "ANY " : modifier == .all ? "ALL " : ""
            var flags = ""
            if options.contains(.caseInsensitive) { flags += "c" }
            if options.contains(.diacriticInsensitive) { flags += "d" }
            if options.contains(.normalized) { flags += "n" }
            return "\(prefix)\(format(left)) \(op.symbol)\(flags.isEmpty ? "" : "[\(flags)]") \(format(right))"
        case .and(let terms): return terms.map { grouped($0) }.joined(separator: " AND ")
        case .or(let terms): return terms.map { grouped($0) }.joined(separator: " OR ")
        case .not(let inner): return "NOT \(grouped(inner))"
        }
    }

    private static func grouped(_ predicate: PredicateNode) -> String {
        switch predicate {
        case .and, .or: "(\(format(predicate)))"
        default: format(predicate)
        }
    }

    /// A string constant in double quotes, with `\\` and `"` escaped.
    static func quoted(_ text: String) -> String {
        var out = "\""
        for character in text {
            if character == "\\" || character == "\"" { out.append("\\") }
            out.append(character)
        }
        return out + "\""
    }

    public static func format(_ expression: ExpressionNode) -> String {
        switch expression {
        case .evaluatedObject: return "SELF"
        case .constant(let value):
            switch value {
            case .integer(let number): return String(number)
            case .real(let number): return number == number.rounded() && abs(number) < 1e15 ? String(Int64(number)) : String(number)
            case .string(let text): return quoted(text)
            case .bool(let flag): return flag ? "YES" : "NO"
            case .null: return "nil"
            }
        case .variable(let name): return "$\(name)"
        case .keyPath(let operand, let path):
            if case .evaluatedObject = operand { return path }
            return "\(format(operand)).\(path)"
        case .function(nil, let selector, let arguments) where arguments.count == 2 && infixOperators[selector] != nil:
            return arguments.map(operand).joined(separator: " \(infixOperators[selector]!) ")
        case .function(nil, "castObject:toType:", let arguments):
            return "CAST(" + arguments.map(format).joined(separator: ", ") + ")"
        case .function(let operand, let selector, let arguments):
            let list = arguments.map(format).joined(separator: ", ")
            if let operand {
                return "FUNCTION(\(format(operand)), \"\(selector)\"\(arguments.isEmpty ? "" : ", " + list))"
            }
            return selector.hasSuffix(":") ? "\(selector)(\(list))" : "\(selector)(\(list))"
        case .aggregate(let items): return "{" + items.map(format).joined(separator: ", ") + "}"
        case .value(let value): return format(value)
        case .subquery(let collection, let variable, let predicate):
            return "SUBQUERY(\(format(collection)), $\(variable), \(format(predicate)))"
        }
    }

    /// An argument value as `predicateFormat` prints it: dates as `CAST(seconds, "NSDate")`,
    /// collections as `{…}`, other values by their description.
    private static func format(_ value: EvaluatedValue) -> String {
        switch value {
        case .null: "nil"
        case .bool(let flag): flag ? "YES" : "NO"
        case .integer(let number): String(number)
        case .double(let number): format(.constant(.real(number)))
        case .decimal(let number): "\(number)"
        case .string(let text): quoted(text)
        case .date(let date): "CAST(\(format(.constant(.real(date.timeIntervalSinceReferenceDate)))), \"NSDate\")"
        case .uuid(let id): quoted(id.uuidString)
        case .uri(let url): quoted(url.absoluteString)
        case .collection(let items): "{" + items.map(format).joined(separator: ", ") + "}"
        case .data, .object, .receiver: value.description
        }
    }

    /// The arithmetic functions `predicateFormat` prints as operators.
    private static let infixOperators = ["add:to:": "+", "from:subtract:": "-", "multiply:by:": "*", "divide:by:": "/", "raise:toPower:": "**"]

    /// An operand of an operator, in parentheses when it is itself an operation.
    private static func operand(_ expression: ExpressionNode) -> String {
        if case .function(nil, let selector, let arguments) = expression, arguments.count == 2, infixOperators[selector] != nil {
            return "(\(format(expression)))"
        }
        return format(expression)
    }
}
