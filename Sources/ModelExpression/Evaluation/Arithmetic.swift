import Foundation

/// NSExpression's arithmetic functions (`add:to:`, `from:subtract:`, `multiply:by:`, `divide:by:`,
/// `modulus:by:`, `raise:toPower:`) on values, as NSNumber computes them: integers stay integers
/// (a result past 64 bits becomes a double), a decimal operand makes the result a decimal,
/// division is never integral, and a date moves by a number of seconds.
enum Arithmetic {
    /// The selectors this type evaluates.
    static let selectors: Set<String> = ["add:to:", "from:subtract:", "multiply:by:", "divide:by:", "modulus:by:", "raise:toPower:"]

    /// `selector(lhs, rhs)`; `nil` on either side gives `nil`, as key paths through `nil` do.
    static func apply(_ selector: String, _ lhs: EvaluatedValue, _ rhs: EvaluatedValue) throws -> EvaluatedValue {
        if lhs.isNull || rhs.isNull { return .null }
        if case .date(let date) = lhs { return try dated(selector, date, rhs) }
        guard let a = lhs.number, let b = rhs.number else {
            throw EvaluationError("\(selector) needs numbers, not \(lhs.number == nil ? lhs : rhs)")
        }
        if let x = integral(lhs), let y = integral(rhs), selector != "divide:by:", selector != "raise:toPower:" {
            return try integer(selector, x, y) ?? .double(double(selector, a, b))
        }
        if isDecimal(lhs) || isDecimal(rhs), let x = decimal(lhs), let y = decimal(rhs), selector != "raise:toPower:" {
            return .decimal(try decimal(selector, x, y))
        }
        return .double(try double(selector, a, b))
    }

    // MARK: - Kinds of numbers

    /// The value as an integer when it is one (booleans count as 0 and 1).
    private static func integral(_ value: EvaluatedValue) -> Int64? {
        switch value {
        case .integer(let number): number
        case .bool(let flag): flag ? 1 : 0
        default: nil
        }
    }

    private static func isDecimal(_ value: EvaluatedValue) -> Bool {
        if case .decimal = value { true } else { false }
    }

    /// The value as a decimal when one of the pair is a decimal and this one is exact (not a double).
    private static func decimal(_ value: EvaluatedValue) -> Decimal? {
        switch value {
        case .decimal(let number): number
        case .integer(let number): Decimal(number)
        case .bool(let flag): flag ? 1 : 0
        default: nil
        }
    }

    /// Integer arithmetic; nil when the result overflows 64 bits (the caller then uses doubles).
    private static func integer(_ selector: String, _ x: Int64, _ y: Int64) throws -> EvaluatedValue? {
        let (result, overflow): (Int64, Bool)
        switch selector {
        case "add:to:": (result, overflow) = x.addingReportingOverflow(y)
        case "from:subtract:": (result, overflow) = x.subtractingReportingOverflow(y)
        case "multiply:by:": (result, overflow) = x.multipliedReportingOverflow(by: y)
        default:
            guard y != 0 else { throw EvaluationError("modulus:by: by zero") }
            (result, overflow) = x.remainderReportingOverflow(dividingBy: y)
        }
        return overflow ? nil : .integer(result)
    }

    private static func decimal(_ selector: String, _ x: Decimal, _ y: Decimal) throws -> Decimal {
        switch selector {
        case "add:to:": return x + y
        case "from:subtract:": return x - y
        case "multiply:by:": return x * y
        case "divide:by:":
            guard y != 0 else { throw EvaluationError("divide:by: by zero") }
            return x / y
        default:
            guard y != 0 else { throw EvaluationError("modulus:by: by zero") }
            let quotient = NSDecimalNumber(decimal: x / y).int64Value
            return x - Decimal(quotient) * y
        }
    }

    private static func double(_ selector: String, _ a: Double, _ b: Double) throws -> Double {
        switch selector {
        case "add:to:": return a + b
        case "from:subtract:": return a - b
        case "multiply:by:": return a * b
        case "raise:toPower:": return pow(a, b)
        case "divide:by:":
            guard b != 0 else { throw EvaluationError("divide:by: by zero") }
            return a / b
        default:
            guard b != 0 else { throw EvaluationError("modulus:by: by zero") }
            return a.truncatingRemainder(dividingBy: b)
        }
    }

    /// A date plus or minus seconds, or the seconds between two dates.
    private static func dated(_ selector: String, _ date: Date, _ rhs: EvaluatedValue) throws -> EvaluatedValue {
        switch (selector, rhs) {
        case ("from:subtract:", .date(let other)): return .double(date.timeIntervalSince(other))
        case ("add:to:", _) where rhs.number != nil: return .date(date.addingTimeInterval(rhs.number!))
        case ("from:subtract:", _) where rhs.number != nil: return .date(date.addingTimeInterval(-rhs.number!))
        default: throw EvaluationError("\(selector) cannot take a date and \(rhs)")
        }
    }
}
