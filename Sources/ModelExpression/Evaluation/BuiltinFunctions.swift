import Foundation

/// The functions `NSExpression` defines without a receiver (`now()`, `count:`, `uppercase:`, …),
/// evaluated on values; nil for a selector it does not define, which the context then answers.
enum BuiltinFunctions {
    static func call(_ selector: String, arguments: [EvaluatedValue]) throws -> EvaluatedValue? {
        switch (selector, arguments.count) {
        case ("now", 0):
            return .date(Date())
        case ("count:", 1):
            return .integer(Int64(arguments[0].elements.count))
        case ("sum:", 1):
            return CollectionOperator.sum(of: arguments[0].elements.filter { !$0.isNull })
        case ("average:", 1):
            let values = arguments[0].elements.compactMap(\.number)
            return values.isEmpty ? .null : .double(values.reduce(0, +) / Double(values.count))
        case ("min:", 1), ("max:", 1):
            return try CollectionOperator.extreme(of: arguments[0].elements, smallest: selector == "min:")
        case ("uppercase:", 1), ("lowercase:", 1):
            guard case .string(let text) = arguments[0] else { return arguments[0].isNull ? .null : try mismatch(selector, arguments[0]) }
            return .string(selector == "uppercase:" ? text.uppercased() : text.lowercased())
        case ("add:to:", 2), ("from:subtract:", 2), ("multiply:by:", 2), ("divide:by:", 2), ("modulus:by:", 2):
            return try arithmetic(selector, arguments[0], arguments[1])
        case ("abs:", 1):
            guard let number = arguments[0].number else { return try mismatch(selector, arguments[0]) }
            if case .integer(let value) = arguments[0] { return .integer(value.magnitude > Int64.max.magnitude ? value : abs(value)) }
            return .double(abs(number))
        default:
            return nil
        }
    }

    /// Arithmetic as NSNumber does it: integers stay integers except for division.
    private static func arithmetic(_ selector: String, _ lhs: EvaluatedValue, _ rhs: EvaluatedValue) throws -> EvaluatedValue {
        if lhs.isNull || rhs.isNull { return .null }
        guard let a = lhs.number, let b = rhs.number else { return try mismatch(selector, lhs.number == nil ? lhs : rhs) }
        if case .integer(let x) = lhs, case .integer(let y) = rhs, selector != "divide:by:" {
            switch selector {
            case "add:to:": return .integer(x &+ y)
            case "from:subtract:": return .integer(x &- y)
            case "multiply:by:": return .integer(x &* y)
            default:
                guard y != 0 else { throw EvaluationError("modulus by zero") }
                return .integer(x % y)
            }
        }
        switch selector {
        case "add:to:": return .double(a + b)
        case "from:subtract:": return .double(a - b)
        case "multiply:by:": return .double(a * b)
        case "divide:by:":
            guard b != 0 else { throw EvaluationError("division by zero") }
            return .double(a / b)
        default:
            guard b != 0 else { throw EvaluationError("modulus by zero") }
            return .double(a.truncatingRemainder(dividingBy: b))
        }
    }

    private static func mismatch(_ selector: String, _ value: EvaluatedValue) throws -> EvaluatedValue {
        throw EvaluationError("\(selector) cannot take \(value)")
    }
}
