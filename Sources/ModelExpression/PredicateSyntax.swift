/// An NSExpression, in the subset models, mapping models and fetch requests use.
public indirect enum ExpressionNode: Sendable, Hashable {
    /// `SELF`, the evaluated object.
    case evaluatedObject
    /// A constant: number, string, boolean or `nil`.
    case constant(ConstantValue)
    /// `$NAME`.
    case variable(String)
    /// A key path from an operand (`name`, `a.b`, `$source.title`).
    case keyPath(operand: ExpressionNode, path: String)
    /// A function: `count:(pages)`, `now()`, `FUNCTION($entityPolicy, "migrate:", $source)`.
    case function(operand: ExpressionNode?, selector: String, arguments: [ExpressionNode])
    /// `{a, b}`.
    case aggregate([ExpressionNode])
    /// A format argument (`%@`) that no literal can spell: a date, data, a UUID, a URI, an
    /// object, a collection. Only fetch predicates hold them; models never do.
    case value(EvaluatedValue)
    /// `SUBQUERY(collection, $variable, predicate)`: the elements of the collection for which the
    /// predicate holds, each bound to the variable (and evaluated as `SELF`). Fetch predicates only.
    case subquery(collection: ExpressionNode, variable: String, predicate: PredicateNode)
}

/// A constant of an expression.
public enum ConstantValue: Sendable, Hashable {
    case integer(Int64)
    case real(Double)
    case string(String)
    case bool(Bool)
    case null
}

/// An NSPredicate, in the subset models and mapping models use.
public indirect enum PredicateNode: Sendable, Hashable {
    case truePredicate
    case falsePredicate
    case comparison(ExpressionNode, ComparisonOperator, ExpressionNode, options: ComparisonOptions, modifier: ComparisonModifier)
    case and([PredicateNode])
    case or([PredicateNode])
    case not(PredicateNode)
}

/// NSPredicateOperatorType.
public enum ComparisonOperator: Int, Sendable, Hashable {
    case lessThan = 0
    case lessThanOrEqual = 1
    case greaterThan = 2
    case greaterThanOrEqual = 3
    case equal = 4
    case notEqual = 5
    case matches = 6
    case like = 7
    case beginsWith = 8
    case endsWith = 9
    case `in` = 10
    case contains = 99
    case between = 100

    /// The operator as `predicateFormat` prints it.
    public var symbol: String {
        switch self {
        case .lessThan: "<"
        case .lessThanOrEqual: "<="
        case .greaterThan: ">"
        case .greaterThanOrEqual: ">="
        case .equal: "=="
        case .notEqual: "!="
        case .matches: "MATCHES"
        case .like: "LIKE"
        case .beginsWith: "BEGINSWITH"
        case .endsWith: "ENDSWITH"
        case .in: "IN"
        case .contains: "CONTAINS"
        case .between: "BETWEEN"
        }
    }
}

/// `[c]`, `[d]`, `[n]` options of string comparisons (NSComparisonPredicate.Options bits).
public struct ComparisonOptions: OptionSet, Sendable, Hashable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }
    public static let caseInsensitive = ComparisonOptions(rawValue: 1)
    public static let diacriticInsensitive = ComparisonOptions(rawValue: 2)
    public static let normalized = ComparisonOptions(rawValue: 4)
}

/// `ANY`/`ALL` (NSComparisonPredicate.Modifier).
public enum ComparisonModifier: Int, Sendable, Hashable {
    case direct = 0
    case all = 1
    case any = 2
}
