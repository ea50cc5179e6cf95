import Foundation

/// The functions `NSExpression` defines without a receiver (`now()`, `count:`, `uppercase:`,
/// `add:to:`, `CAST`, …), evaluated on values; nil for a selector it does not define, which the
/// context then answers.
enum BuiltinFunctions {
    static func call(_ selector: String, arguments: [EvaluatedValue]) throws -> EvaluatedValue? {
        if Arithmetic.selectors.contains(selector) {
            guard arguments.count == 2 else { throw EvaluationError("\(selector) takes 2 arguments, not \(arguments.count)") }
            return try Arithmetic.apply(selector, arguments[0], arguments[1])
        }
        switch (selector, arguments.count) {
        case ("now", 0):
            return .date(Date())
        case ("random", 0):
            return .double(Double.random(in: 0..<1))
        case ("castObject:toType:", 2):
            return try cast(arguments[0], to: arguments[1])
        case (_, 1):
            return try unary(selector, arguments[0])
        default:
            return nil
        }
    }

    // MARK: - One argument

    /// The functions of one argument; nil for a selector that is not one.
    private static func unary(_ selector: String, _ argument: EvaluatedValue) throws -> EvaluatedValue? {
        switch selector {
        case "count:":
            return .integer(Int64(argument.elements.count))
        case "sum:":
            return CollectionOperator.sum(of: argument.elements.filter { !$0.isNull })
        case "average:":
            return try CollectionOperator.apply("@avg", to: argument.elements)
        case "min:", "max:":
            return try CollectionOperator.extreme(of: argument.elements, smallest: selector == "min:")
        case "median:", "mode:", "stddev:":
            return try statistic(selector, numbers(selector, argument.elements))
        case "uppercase:", "lowercase:":
            if argument.isNull { return .null }
            guard case .string(let text) = argument else { throw EvaluationError("\(selector) needs a string, not \(argument)") }
            return .string(selector == "uppercase:" ? text.uppercased() : text.lowercased())
        case "abs:":
            switch argument {
            case .null: return .null
            case .integer(let value) where value != .min: return .integer(abs(value))
            case .decimal(let value): return .decimal(abs(value))
            default: return .double(abs(try numbers(selector, [argument])[0]))
            }
        case "sqrt:", "log:", "ln:", "exp:", "floor:", "ceiling:", "trunc:":
            if argument.isNull { return .null }
            return .double(mathematical(selector, try numbers(selector, [argument])[0]))
        default:
            return nil
        }
    }

    private static func numbers(_ selector: String, _ values: [EvaluatedValue]) throws -> [Double] {
        try values.filter { !$0.isNull }.map { value in
            guard let number = value.number else { throw EvaluationError("\(selector) needs numbers, not \(value)") }
            return number
        }
    }

    private static func mathematical(_ selector: String, _ x: Double) -> Double {
        switch selector {
        case "sqrt:": sqrt(x)
        case "log:": log10(x)
        case "ln:": log(x)
        case "exp:": exp(x)
        case "floor:": x.rounded(.down)
        case "ceiling:": x.rounded(.up)
        default: x.rounded(.towardZero)
        }
    }

    /// The median, the most frequent value (the first of the most frequent) or the population
    /// standard deviation of numbers; `nil` for none.
    private static func statistic(_ selector: String, _ values: [Double]) throws -> EvaluatedValue {
        guard !values.isEmpty else { return .null }
        switch selector {
        case "median:":
            let sorted = values.sorted()
            let middle = sorted.count / 2
            return .double(sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2)
        case "mode:":
            var counts = [Double: Int]()
            for value in values { counts[value, default: 0] += 1 }
            let most = counts.values.max() ?? 0
            return .double(values.first { counts[$0] == most } ?? values[0])
        default:
            let mean = values.reduce(0, +) / Double(values.count)
            return .double(sqrt(values.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(values.count)))
        }
    }

    // MARK: - CAST

    /// `CAST(value, 'Class')`: `predicateFormat` writes dates as `CAST(seconds, "NSDate")`;
    /// numbers and strings convert both ways.
    static func cast(_ value: EvaluatedValue, to type: EvaluatedValue) throws -> EvaluatedValue {
        guard case .string(let name) = type else { throw EvaluationError("CAST needs a class name, not \(type)") }
        if value.isNull { return .null }
        switch (name, value) {
        case ("NSDate", .date), ("NSString", .string), ("NSNumber", .integer), ("NSNumber", .double), ("NSNumber", .bool),
            ("NSNumber", .decimal), ("NSDecimalNumber", .decimal), ("NSData", .data), ("NSUUID", .uuid), ("NSURL", .uri):
            return value
        case ("NSDate", _) where value.number != nil:
            return .date(Date(timeIntervalSinceReferenceDate: value.number!))
        case ("NSNumber", .date(let date)):
            return .double(date.timeIntervalSinceReferenceDate)
        case ("NSNumber", .string(let text)):
            if let integer = Int64(text.trimmingCharacters(in: .whitespaces)) { return .integer(integer) }
            return Double(text.trimmingCharacters(in: .whitespaces)).map(EvaluatedValue.double) ?? .integer(0)
        case ("NSDecimalNumber", .string(let text)):
            return Decimal(string: text).map(EvaluatedValue.decimal) ?? .null
        case ("NSDecimalNumber", _) where value.number != nil:
            if case .integer(let integer) = value { return .decimal(Decimal(integer)) }
            return .decimal(Decimal(value.number!))
        case ("NSString", _):
            return try ValueMethods.value(forKey: "description", of: value)
        default:
            throw EvaluationError("CAST cannot make \(value) into \(name)")
        }
    }
}
