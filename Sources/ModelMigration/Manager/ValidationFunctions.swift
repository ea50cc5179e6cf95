import Foundation
import GRDB
import ModelStore

/// The SQL functions validation needs that SQLite lacks: a string's length in UTF-16 units, as
/// NSString's `length` counts it (SQLite's `length()` counts code points, one for an emoji where
/// NSString counts two), and ICU pattern matching of the whole string, as a predicate's MATCHES.
final class ValidationFunctions: @unchecked Sendable {
    static let utf16Length = "modelc_utf16_length"
    static let matches = "modelc_matches"

    /// The patterns registered so far, compiled once; nil for a pattern ICU cannot compile.
    private var patterns = [(text: String, expression: NSRegularExpression?)]()
    private var isInstalled = false
    private let lock = NSLock()

    /// Adds both functions to the connection `db`, once, their text read whole
    /// (``WholeTextFunction``) so that a string holding U+0000 is measured and matched in full.
    /// - Throws: `DatabaseError` when SQLite refuses a function.
    func install(on db: Database) throws {
        guard !isInstalled else { return }
        try WholeTextFunction(Self.utf16Length, argumentCount: 1, pure: true) { arguments in
            String.fromDatabaseValue(arguments[0]).map { $0.utf16.count }
        }.install(in: db)
        try WholeTextFunction(Self.matches, argumentCount: 2, pure: true) { [self] arguments in
            guard let text = String.fromDatabaseValue(arguments[0]), let number = Int.fromDatabaseValue(arguments[1]) else { return nil }
            return self.matches(text, number)
        }.install(in: db)
        isInstalled = true
    }

    /// The number `modelc_matches` takes for `pattern`, compiled here once.
    func register(pattern: String) -> Int {
        lock.withLock {
            if let known = patterns.firstIndex(where: { $0.text == pattern }) { return known }
            // MATCHES tests the whole string: anchored at both ends, alternatives included.
            patterns.append((pattern, try? NSRegularExpression(pattern: "\\A(?:\(pattern))\\z")))
            return patterns.count - 1
        }
    }

    /// Whether the pattern number `number` compiles.
    func compiles(_ number: Int) -> Bool {
        lock.withLock { patterns[number].expression != nil }
    }

    /// Whether `text` matches the pattern number `number` in full; a pattern ICU cannot compile
    /// matches nothing, so every value fails (where Core Data raises an exception).
    private func matches(_ text: String, _ number: Int) -> Bool {
        guard let expression = lock.withLock({ patterns.indices.contains(number) ? patterns[number].expression : nil }) else { return false }
        let range = NSRange(text.startIndex..., in: text)
        return expression.firstMatch(in: text, options: [.anchored], range: range) != nil
    }
}
