/// Canonical text of a derived attribute's expression, as `NSExpression.predicateFormat` prints it.
///
/// Core Data stores a derivation like `pages.@count` as the function expression
/// `count:(pages)`, and hashes that text. This covers the forms derived attributes allow: key
/// paths, and functions such as `now()` or `lowercase:(name)`, which print as written; Core Data's
/// `setDerivationExpression:` rewrites only key paths ending in `@count` (to `count:`) and
/// `@sum`/`@total` (to `sum:`).
enum DerivationExpression {
    /// The trailing collection operators Core Data rewrites, and the functions they become.
    private static let aggregates: [String: String] = ["@count": "count:", "@sum": "sum:", "@total": "sum:"]

    static func predicateFormat(of expression: String) -> String {
        let text = expression.trimmingWhitespace()
        let components = text.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        if components.count >= 2, let function = aggregates[components.last!] {
            let path = components.dropLast().joined(separator: ".")
            return "\(function)(\(path))"
        }
        return text
    }
}

extension String {
    /// The string without leading and trailing spaces, tabs and newlines.
    func trimmingWhitespace() -> String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
        guard let start = firstIndex(where: { !isSpace($0) }), let end = lastIndex(where: { !isSpace($0) }) else {
            return ""
        }
        return String(self[start...end])
    }
}
