import Foundation

/// `NSComparisonPredicate`'s operators on evaluated values: numbers across their types, strings
/// with `[c]`/`[d]`, dates, data, identifiers and objects.
enum Comparison {
    /// Whether `lhs op rhs` holds.
    static func holds(_ lhs: EvaluatedValue, _ op: ComparisonOperator, _ rhs: EvaluatedValue, options: ComparisonOptions) throws -> Bool {
        switch op {
        case .equal: return equal(lhs, rhs, options)
        case .notEqual: return !equal(lhs, rhs, options)
        case .lessThan, .lessThanOrEqual, .greaterThan, .greaterThanOrEqual:
            if lhs.isNull || rhs.isNull { return false }
            let order = try self.order(lhs, rhs, options)
            switch op {
            case .lessThan: return order == .orderedAscending
            case .lessThanOrEqual: return order != .orderedDescending
            case .greaterThan: return order == .orderedDescending
            default: return order != .orderedAscending
            }
        case .in:
            if case .string(let haystack) = rhs, case .string(let needle) = lhs {
                return try StringOperators.holds(haystack, .contains, needle, options: options)
            }
            return rhs.elements.contains { equal(lhs, $0, options) }
        case .contains:
            if case .string(let haystack) = lhs, case .string(let needle) = rhs {
                return try StringOperators.holds(haystack, .contains, needle, options: options)
            }
            return lhs.elements.contains { equal($0, rhs, options) }
        case .between:
            let bounds = rhs.elements
            guard bounds.count == 2, !lhs.isNull else { return false }
            return try order(lhs, bounds[0], options) != .orderedAscending && order(lhs, bounds[1], options) != .orderedDescending
        case .beginsWith, .endsWith, .like, .matches:
            guard case .string(let text) = lhs, case .string(let pattern) = rhs else { return false }
            return try StringOperators.holds(text, op, pattern, options: options)
        }
    }

    /// The order of two values of comparable kinds; throws for kinds that have none.
    static func order(_ lhs: EvaluatedValue, _ rhs: EvaluatedValue, _ options: ComparisonOptions = []) throws -> ComparisonResult {
        switch (lhs, rhs) {
        case (.string(let a), .string(let b)):
            return StringOperators.order(a, b, options: options)
        case (.date(let a), .date(let b)):
            return ordered(a, b)
        default:
            guard let order = numericOrder(lhs, rhs) else { throw EvaluationError("cannot order \(lhs) against \(rhs)") }
            return order
        }
    }

    /// The order of two numbers as NSNumber's `compare:` gives it, across integer, decimal,
    /// double and boolean: exact between integers and decimals; nil when either is no number.
    static func numericOrder(_ lhs: EvaluatedValue, _ rhs: EvaluatedValue) -> ComparisonResult? {
        switch (lhs, rhs) {
        case (.integer(let a), .integer(let b)): return ordered(a, b)
        case (.decimal, .decimal), (.decimal, .integer), (.integer, .decimal), (.decimal, .bool), (.bool, .decimal):
            return ordered(exactDecimal(lhs), exactDecimal(rhs))
        default:
            guard let a = lhs.number, let b = rhs.number else { return nil }
            return ordered(a, b)
        }
    }

    private static func exactDecimal(_ value: EvaluatedValue) -> Decimal {
        switch value {
        case .decimal(let number): number
        case .integer(let number): Decimal(number)
        default: Decimal(value.number ?? 0)
        }
    }

    /// Equality as `isEqual:` answers it: numbers by value across their types, strings folded as
    /// `[c]`/`[d]` ask, anything else (dates, data, UUIDs, URIs, objects) by identity of value.
    static func equal(_ lhs: EvaluatedValue, _ rhs: EvaluatedValue, _ options: ComparisonOptions = []) -> Bool {
        if case .string(let a) = lhs, case .string(let b) = rhs { return StringOperators.order(a, b, options: options) == .orderedSame }
        if let order = numericOrder(lhs, rhs) { return order == .orderedSame }
        return lhs == rhs
    }

    private static func ordered<T: Comparable>(_ a: T, _ b: T) -> ComparisonResult {
        a < b ? .orderedAscending : a > b ? .orderedDescending : .orderedSame
    }
}
