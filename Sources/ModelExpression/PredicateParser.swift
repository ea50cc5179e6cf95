/// Parses NSPredicate and NSExpression format strings (comparisons, `AND`/`OR`/`NOT`,
/// `ANY`/`ALL`/`NONE`, key paths with collection operators, variables, constants, `SELF`,
/// functions; for fetch predicates also format arguments and `SUBQUERY`) into syntax trees.
public struct PredicateParser {
    public struct SyntaxError: Error, Sendable, CustomStringConvertible {
        public var message: String
        public var offset: Int
        public var description: String { "\(message) at offset \(offset)" }
    }

    /// Predicates and expressions nested deeper than this (parentheses, `NOT`, `{}`, function
    /// calls) are refused: models nest a few levels, and the bound keeps every recursive walk
    /// over the tree (parsing, archiving, formatting, releasing it) within the stack.
    public static let maximumDepth = 100

    var tokens: [Token]
    var position = 0
    /// How many ``unaryPredicate()`` and ``primary()`` calls are under way.
    var depth = 0
    /// The values of the format's `%@`, `%K`, `%d`… in order, and how many were used so far.
    var arguments: [EvaluatedValue]
    var usedArguments = 0
    /// Whether fetch-only forms (`SUBQUERY`, argument values) are accepted: models archive their
    /// predicates, and the archived form of these is not known.
    let isFetchPredicate: Bool

    /// A predicate of a model (fetch request template, fetched property, validation): no format
    /// arguments, no `SUBQUERY`.
    public static func predicate(_ text: String) throws(SyntaxError) -> PredicateNode {
        var parser = try PredicateParser(text, arguments: [], isFetchPredicate: false)
        return try parser.wholePredicate()
    }

    /// A fetch request's predicate, `NSPredicate(format:argumentArray:)`: each format specifier
    /// takes the next argument; throws when their numbers or kinds disagree.
    public static func predicate(_ text: String, arguments: [EvaluatedValue]) throws(SyntaxError) -> PredicateNode {
        var parser = try PredicateParser(text, arguments: arguments, isFetchPredicate: true)
        return try parser.wholePredicate()
    }

    public static func expression(_ text: String) throws(SyntaxError) -> ExpressionNode {
        var parser = try PredicateParser(text, arguments: [], isFetchPredicate: false)
        let result = try parser.expression()
        try parser.expectEnd()
        return result
    }

    private init(_ text: String, arguments: [EvaluatedValue], isFetchPredicate: Bool) throws(SyntaxError) {
        tokens = try Tokenizer.tokens(of: text)
        self.arguments = arguments
        self.isFetchPredicate = isFetchPredicate
    }

    private mutating func wholePredicate() throws(SyntaxError) -> PredicateNode {
        let result = try orPredicate()
        try expectEnd()
        guard usedArguments == arguments.count else {
            throw SyntaxError(message: "\(arguments.count) arguments given, but the format uses \(usedArguments)", offset: tokens.count)
        }
        return result
    }

    // MARK: - Predicates

    mutating func orPredicate() throws(SyntaxError) -> PredicateNode {
        var terms = [try andPredicate()]
        while accept(keyword: "OR") || accept(symbol: "||") { terms.append(try andPredicate()) }
        return terms.count == 1 ? terms[0] : .or(terms)
    }

    private mutating func andPredicate() throws(SyntaxError) -> PredicateNode {
        var terms = [try unaryPredicate()]
        while accept(keyword: "AND") || accept(symbol: "&&") { terms.append(try unaryPredicate()) }
        return terms.count == 1 ? terms[0] : .and(terms)
    }

    private mutating func unaryPredicate() throws(SyntaxError) -> PredicateNode {
        try descend()
        defer { depth -= 1 }
        if accept(keyword: "NOT") || accept(symbol: "!") { return .not(try unaryPredicate()) }
        if accept(keyword: "TRUEPREDICATE") { return .truePredicate }
        if accept(keyword: "FALSEPREDICATE") { return .falsePredicate }
        if case .symbol("(")? = peek, isParenthesizedPredicate() {
            position += 1
            let inner = try orPredicate()
            try expect(symbol: ")")
            return inner
        }
        return try comparison()
    }

    /// Whether the parenthesis at the cursor opens a predicate rather than an expression.
    private func isParenthesizedPredicate() -> Bool {
        var depth = 0
        var index = position
        while index < tokens.count {
            switch tokens[index] {
            case .symbol("("): depth += 1
            case .symbol(")"):
                depth -= 1
                if depth == 0 {
                    guard index + 1 < tokens.count else { return true }
                    if case .symbol(let next) = tokens[index + 1], Self.comparisonSymbols[next] != nil || Self.expressionSymbols.contains(next) {
                        return false
                    }
                    if case .word(let next) = tokens[index + 1], Self.comparisonWords[next.uppercased()] != nil { return false }
                    return true
                }
            default: break
            }
            index += 1
        }
        return true
    }

    private static let comparisonSymbols: [String: ComparisonOperator] = [
        "==": .equal, "=": .equal, "!=": .notEqual, "<>": .notEqual, "<": .lessThan, "<=": .lessThanOrEqual,
        "=<": .lessThanOrEqual, ">": .greaterThan, ">=": .greaterThanOrEqual, "=>": .greaterThanOrEqual,
    ]

    /// Symbols that continue an expression after a parenthesis: key paths and arithmetic.
    static let expressionSymbols: Set<String> = [".", "+", "-", "*", "/", "**"]

    private static let comparisonWords: [String: ComparisonOperator] = [
        "MATCHES": .matches, "LIKE": .like, "BEGINSWITH": .beginsWith, "ENDSWITH": .endsWith, "IN": .in,
        "CONTAINS": .contains, "BETWEEN": .between,
    ]

    private mutating func comparison() throws(SyntaxError) -> PredicateNode {
        var modifier = ComparisonModifier.direct
        var isNone = false
        if accept(keyword: "ANY") || accept(keyword: "SOME") {
            modifier = .any
        } else if accept(keyword: "ALL") {
            modifier = .all
        } else if !startsOperator(at: position + 1), accept(keyword: "NONE") {
            // NSPredicate has no NONE modifier: it parses `NONE x op y` as `NOT (ANY x op y)`.
            // A `none` followed by an operator is a key, as models written before NONE used it.
            (modifier, isNone) = (.any, true)
        }
        let left = try expression()
        let op: ComparisonOperator
        switch peek {
        case .symbol(let symbol)? where Self.comparisonSymbols[symbol] != nil:
            op = Self.comparisonSymbols[symbol]!
        case .word(let word)? where Self.comparisonWords[word.uppercased()] != nil:
            op = Self.comparisonWords[word.uppercased()]!
        default:
            throw error("expected a comparison operator")
        }
        position += 1
        var options = ComparisonOptions()
        if accept(symbol: "[") {
            guard case .word(let flags)? = peek else { throw error("expected comparison options") }
            position += 1
            for flag in flags.lowercased() {
                switch flag {
                case "c": options.insert(.caseInsensitive)
                case "d": options.insert(.diacriticInsensitive)
                case "n": options.insert(.normalized)
                default: throw error("unknown comparison option '\(flag)'")
                }
            }
            try expect(symbol: "]")
        }
        let right = try expression()
        let comparison = PredicateNode.comparison(left, op, right, options: options, modifier: modifier)
        return isNone ? .not(comparison) : comparison
    }

    /// Whether the token at `index` is a comparison operator.
    private func startsOperator(at index: Int) -> Bool {
        switch token(at: index) {
        case .symbol(let symbol)?: Self.comparisonSymbols[symbol] != nil
        case .word(let word)?: Self.comparisonWords[word.uppercased()] != nil
        default: false
        }
    }

    /// Counts one more level of nesting; throws past ``maximumDepth``.
    mutating func descend() throws(SyntaxError) {
        depth += 1
        guard depth <= Self.maximumDepth else { throw error("nested more than \(Self.maximumDepth) levels deep") }
    }

    // MARK: - Tokens

    var peek: Token? { token(at: position) }

    func token(at index: Int) -> Token? { index < tokens.count ? tokens[index] : nil }

    mutating func accept(keyword: String) -> Bool {
        guard case .word(let word)? = peek, word.uppercased() == keyword else { return false }
        position += 1
        return true
    }

    mutating func accept(symbol: String) -> Bool {
        guard case .symbol(let found)? = peek, found == symbol else { return false }
        position += 1
        return true
    }

    mutating func expect(symbol: String) throws(SyntaxError) {
        guard accept(symbol: symbol) else { throw error("expected '\(symbol)'") }
    }

    private func expectEnd() throws(SyntaxError) {
        if position < tokens.count { throw error("unexpected '\(tokens[position])'") }
    }

    func error(_ message: String) -> SyntaxError {
        SyntaxError(message: message, offset: position)
    }
}
