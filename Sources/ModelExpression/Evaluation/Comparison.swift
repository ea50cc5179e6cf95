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
                return fold(haystack, options).contains(fold(needle, options))
            }
            return rhs.elements.contains { equal(lhs, $0, options) }
        case .contains:
            if case .string(let haystack) = lhs, case .string(let needle) = rhs {
                return fold(haystack, options).contains(fold(needle, options))
            }
            return lhs.elements.contains { equal($0, rhs, options) }
        case .between:
            let bounds = rhs.elements
            guard bounds.count == 2, !lhs.isNull else { return false }
            return try order(lhs, bounds[0], options) != .orderedAscending && order(lhs, bounds[1], options) != .orderedDescending
        case .beginsWith, .endsWith, .like, .matches:
            guard case .string(let text) = lhs, case .string(let pattern) = rhs else { return false }
            let (a, b) = (fold(text, options), fold(pattern, options))
            switch op {
            case .beginsWith: return a.hasPrefix(b)
            case .endsWith: return a.hasSuffix(b)
            case .like: return try matches(a, regex: likePattern(b))
            default: return try matches(a, regex: b)
            }
        }
    }

    /// The order of two values of comparable kinds; throws for kinds that have none.
    static func order(_ lhs: EvaluatedValue, _ rhs: EvaluatedValue, _ options: ComparisonOptions = []) throws -> ComparisonResult {
        switch (lhs, rhs) {
        case (.string(let a), .string(let b)):
            return ordered(fold(a, options), fold(b, options))
        case (.date(let a), .date(let b)):
            return ordered(a, b)
        case (.decimal(let a), .decimal(let b)):
            return ordered(a, b)
        case (.integer(let a), .integer(let b)):
            return ordered(a, b)
        default:
            guard let a = lhs.number, let b = rhs.number else { throw EvaluationError("cannot compare \(lhs) with \(rhs)") }
            return ordered(a, b)
        }
    }

    /// Equality as `isEqual:` answers it, numbers compared by value across their types.
    static func equal(_ lhs: EvaluatedValue, _ rhs: EvaluatedValue, _ options: ComparisonOptions = []) -> Bool {
        switch (lhs, rhs) {
        case (.string(let a), .string(let b)): return fold(a, options) == fold(b, options)
        case (.integer(let a), .integer(let b)): return a == b
        default:
            if let a = lhs.number, let b = rhs.number { return a == b }
            return lhs == rhs
        }
    }

    private static func ordered<T: Comparable>(_ a: T, _ b: T) -> ComparisonResult {
        a < b ? .orderedAscending : a > b ? .orderedDescending : .orderedSame
    }

    /// A string folded as `[c]` and `[d]` ask.
    private static func fold(_ text: String, _ options: ComparisonOptions) -> String {
        var folding: String.CompareOptions = []
        if options.contains(.caseInsensitive) { folding.insert(.caseInsensitive) }
        if options.contains(.diacriticInsensitive) { folding.insert(.diacriticInsensitive) }
        return folding.isEmpty ? text : text.folding(options: folding, locale: nil)
    }

    /// `LIKE`'s `*` and `?` wildcards as a regular expression.
    private static func likePattern(_ pattern: String) -> String {
        var regex = ""
        for character in pattern {
            switch character {
            case "*": regex += ".*"
            case "?": regex += "."
            default: regex += NSRegularExpression.escapedPattern(for: String(character))
            }
        }
        return regex
    }

    /// Whether the whole of `text` matches `regex`, as `MATCHES` requires.
    private static func matches(_ text: String, regex: String) throws -> Bool {
        let expression: NSRegularExpression
        do {
            expression = try NSRegularExpression(pattern: "^(?:\(regex))$", options: [.dotMatchesLineSeparators])
        } catch {
            throw EvaluationError("invalid regular expression '\(regex)'")
        }
        let range = NSRange(text.startIndex..., in: text)
        return expression.firstMatch(in: text, range: range) != nil
    }
}
