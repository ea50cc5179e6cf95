import Foundation
import ModelExpression

/// A predicate in Core Data's format-string language (`NSPredicate(format:)`), with its
/// arguments: `%@` values (objects, IDs, strings, numbers, dates, collections), `%K` key paths,
/// `%d`/`%f` numbers. (Foundation on Linux has a `Predicate` of its own and no format
/// strings, hence the name.)
///
/// Making one never throws, as `NSPredicate(format:)` does not: a format that does not parse is
/// kept with its error (``formatError``), which the fetch, count or batch request using the
/// predicate throws, and ``checked()`` throws at once for callers that want to know first.
public struct FetchPredicate: Sendable, Hashable, CustomStringConvertible {
    /// The predicate as a format string, as `NSPredicate.predicateFormat` writes it.
    public let predicateFormat: String
    /// The parsed predicate, its arguments in place; `FALSEPREDICATE` when the format did not parse.
    public let node: PredicateNode
    /// Why the format did not parse (a syntax error with its offset, or an argument of a type
    /// predicates cannot hold); nil for a valid predicate.
    public let formatError: (any Error & Sendable)?

    /// Parses `format` with `arguments`; a format that does not parse is kept as ``formatError``.
    public init(format: String, argumentArray arguments: [Any]) {
        predicateFormat = format
        do {
            let values = try arguments.map(PredicateArgument.value)
            node = try PredicateParser.predicate(format, arguments: values)
            formatError = nil
        } catch {
            node = .falsePredicate
            formatError = error
        }
    }

    /// Parses `format` with `arguments`; a format that does not parse is kept as ``formatError``.
    public init(format: String, _ arguments: Any...) {
        self.init(format: format, argumentArray: arguments)
    }

    /// `TRUEPREDICATE` or `FALSEPREDICATE`.
    public init(value: Bool) {
        self.init(node: value ? .truePredicate : .falsePredicate, error: nil)
    }

    /// A predicate of a parsed tree, written back as its format; `error` when a part did not parse.
    init(node: PredicateNode, error: (any Error & Sendable)?) {
        predicateFormat = PredicateFormatter.format(node)
        self.node = node
        formatError = error
    }

    /// The predicate, or the error its format gave: what `modelc fetch --predicate` checks before
    /// it opens the store.
    @discardableResult
    public func checked() throws -> FetchPredicate {
        if let formatError { throw formatError }
        return self
    }

    /// The parsed tree a request runs, or the error its format gave.
    func checkedNode() throws -> PredicateNode {
        try checked().node
    }

    /// The predicate's format.
    public var description: String { predicateFormat }

    /// Whether both predicates have the same format, tree and format error.
    public static func == (lhs: FetchPredicate, rhs: FetchPredicate) -> Bool {
        lhs.predicateFormat == rhs.predicateFormat && lhs.node == rhs.node
            && lhs.formatError.map(String.init(describing:)) == rhs.formatError.map(String.init(describing:))
    }

    /// Hashes the format and the tree.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(predicateFormat)
        hasher.combine(node)
    }
}
