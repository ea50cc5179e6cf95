import Foundation
import ModelExpression

/// A predicate in Core Data's format-string language (`NSPredicate(format:)`), with its
/// arguments: `%@` values (objects, IDs, strings, numbers, dates, collections), `%K` key paths,
/// `%d`/`%f` numbers. (Foundation on Linux has a `Predicate` of its own and no format
/// strings, hence the name.)
public struct FetchPredicate: Sendable, Hashable, CustomStringConvertible {
    public let predicateFormat: String
    /// The parsed predicate, its arguments in place.
    public let node: PredicateNode

    /// Parses `format` with `arguments`; throws the syntax error with its offset.
    public init(format: String, argumentArray arguments: [Any]) throws {
        predicateFormat = format
        let values = try arguments.map(PredicateArgument.value)
        node = try PredicateParser.predicate(format, arguments: values)
    }

    /// Parses `format` with `arguments`; throws the syntax error with its offset.
    public init(format: String, _ arguments: Any...) throws {
        try self.init(format: format, argumentArray: arguments)
    }

    /// `TRUEPREDICATE` or `FALSEPREDICATE`.
    public init(value: Bool) {
        predicateFormat = value ? "TRUEPREDICATE" : "FALSEPREDICATE"
        node = value ? .truePredicate : .falsePredicate
    }

    public var description: String { predicateFormat }
}
