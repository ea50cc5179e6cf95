import Foundation

/// The string operators of predicates (`==`, `<`, `CONTAINS`, `BEGINSWITH`, `ENDSWITH`, `LIKE`,
/// `MATCHES`, with `[c]` and `[d]`), in one place so that the evaluator and the SQL functions a
/// store registers (`NSCoreDataStringSearch`, `NSCoreDataLike`, …) answer alike.
///
/// Without options strings compare by Unicode scalars, the order of SQLite's `BINARY` collation
/// on UTF-8 and of `isEqual:`'s literal comparison; `[c]` and `[d]` fold case and diacritics
/// first. An empty pattern is found nowhere, as `NSString`'s `rangeOfString:` finds it. `[n]` (normalized) is accepted and changes nothing, as it only tells Core Data that
/// the values are already folded.
public enum StringOperators {
    /// Whether `text op pattern` holds, for the operators that take a string on either side.
    /// - Throws: for a `MATCHES` pattern that is no regular expression.
    public static func holds(_ text: String, _ op: ComparisonOperator, _ pattern: String, options: ComparisonOptions) throws -> Bool {
        switch op {
        case .equal: return order(text, pattern, options: options) == .orderedSame
        case .notEqual: return order(text, pattern, options: options) != .orderedSame
        case .lessThan: return order(text, pattern, options: options) == .orderedAscending
        case .lessThanOrEqual: return order(text, pattern, options: options) != .orderedDescending
        case .greaterThan: return order(text, pattern, options: options) == .orderedDescending
        case .greaterThanOrEqual: return order(text, pattern, options: options) != .orderedAscending
        case .contains: return !pattern.isEmpty && scalars(fold(text, options)).contains(scalars(fold(pattern, options)))
        case .in: return try holds(pattern, .contains, text, options: options)
        case .beginsWith: return !pattern.isEmpty && scalars(fold(text, options)).starts(with: scalars(fold(pattern, options)))
        case .endsWith: return !pattern.isEmpty && scalars(fold(text, options)).reversed().starts(with: scalars(fold(pattern, options)).reversed())
        case .like: return try matches(fold(text, options), regex: likePattern(fold(pattern, options)), caseInsensitive: false)
        case .matches:
            // The pattern is a regular expression: case is the engine's to fold, not the text's.
            let diacritics: ComparisonOptions = options.contains(.diacriticInsensitive) ? .diacriticInsensitive : []
            return try matches(fold(text, diacritics), regex: fold(pattern, diacritics), caseInsensitive: options.contains(.caseInsensitive))
        case .between: return false
        }
    }

    /// The order of two strings after folding as `options` ask, by Unicode scalars.
    public static func order(_ a: String, _ b: String, options: ComparisonOptions) -> ComparisonResult {
        let (x, y) = (fold(a, options).unicodeScalars, fold(b, options).unicodeScalars)
        var (i, j) = (x.makeIterator(), y.makeIterator())
        while true {
            switch (i.next(), j.next()) {
            case (nil, nil): return .orderedSame
            case (nil, _): return .orderedAscending
            case (_, nil): return .orderedDescending
            case (let p?, let q?) where p != q: return p.value < q.value ? .orderedAscending : .orderedDescending
            default: continue
            }
        }
    }

    /// A string folded as `[c]` and `[d]` ask.
    static func fold(_ text: String, _ options: ComparisonOptions) -> String {
        var folding: String.CompareOptions = []
        if options.contains(.caseInsensitive) { folding.insert(.caseInsensitive) }
        if options.contains(.diacriticInsensitive) { folding.insert(.diacriticInsensitive) }
        return folding.isEmpty ? text : text.folding(options: folding, locale: nil)
    }

    private static func scalars(_ text: String) -> [Unicode.Scalar] { Array(text.unicodeScalars) }

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
    /// - Throws: for a pattern that is no regular expression, and for one the engine gave up on
    ///   (``backtrackingLimit``): no answer is not "no match".
    private static func matches(_ text: String, regex: String, caseInsensitive: Bool) throws -> Bool {
        let expression: NSRegularExpression
        do {
            let options: NSRegularExpression.Options = caseInsensitive ? [.dotMatchesLineSeparators, .caseInsensitive] : [.dotMatchesLineSeparators]
            expression = try NSRegularExpression(pattern: "^(?:\(regex))$", options: options)
        } catch {
            throw EvaluationError("invalid regular expression '\(regex)'")
        }
        var (matched, ticks, failed) = (false, 0, false)
        expression.enumerateMatches(in: text, options: [.reportProgress, .reportCompletion], range: NSRange(text.startIndex..., in: text)) { result, flags, stop in
            if result != nil { matched = true }
            if flags.contains(.progress) { ticks += 1 }
            if flags.contains(.internalError) || ticks > backtrackingLimit { failed = true }
            if matched || failed { stop.pointee = true }
        }
        if failed && !matched {
            throw EvaluationError(
                "the regular expression '\(regex)' gave up on a text of \(text.utf16.count) UTF-16 units (too much backtracking): "
                    + "it can tell neither a match nor none")
        }
        return matched
    }

    /// How many of the engine's progress reports (one per about ten thousand steps, ICU's
    /// match callback) a match may take before it counts as given up. ICU on Linux stops a
    /// runaway match after some thousands of them and reports no match and no error, so the
    /// limit is well below that: a `MATCHES` is answered, or fails, but never wrongly says no.
    static let backtrackingLimit = 500
}
