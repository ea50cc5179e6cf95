/// Parses NSPredicate and NSExpression format strings (the subset Core Data models use:
/// comparisons, `AND`/`OR`/`NOT`, key paths with collection operators, variables, constants,
/// `SELF`, functions) into syntax trees.
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

    private var tokens: [Token]
    private var position = 0
    /// How many ``unaryPredicate()`` and ``primary()`` calls are under way.
    private var depth = 0

    public static func predicate(_ text: String) throws(SyntaxError) -> PredicateNode {
        var parser = try PredicateParser(text)
        let result = try parser.orPredicate()
        try parser.expectEnd()
        return result
    }

    public static func expression(_ text: String) throws(SyntaxError) -> ExpressionNode {
        var parser = try PredicateParser(text)
        let result = try parser.expression()
        try parser.expectEnd()
        return result
    }

    private init(_ text: String) throws(SyntaxError) {
        tokens = try Tokenizer.tokens(of: text)
    }

    // MARK: - Predicates

    private mutating func orPredicate() throws(SyntaxError) -> PredicateNode {
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
    private static let expressionSymbols: Set<String> = [".", "+", "-", "*", "/", "**"]

    private static let comparisonWords: [String: ComparisonOperator] = [
        "MATCHES": .matches, "LIKE": .like, "BEGINSWITH": .beginsWith, "ENDSWITH": .endsWith, "IN": .in,
        "CONTAINS": .contains, "BETWEEN": .between,
    ]

    private mutating func comparison() throws(SyntaxError) -> PredicateNode {
        var modifier = ComparisonModifier.direct
        if accept(keyword: "ANY") || accept(keyword: "SOME") {
            modifier = .any
        } else if accept(keyword: "ALL") {
            modifier = .all
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
        return .comparison(left, op, right, options: options, modifier: modifier)
    }

    // MARK: - Expressions

    /// `a + b`, `a - b`: NSExpression's arithmetic, as the functions `add:to:` and `from:subtract:`.
    private mutating func expression() throws(SyntaxError) -> ExpressionNode {
        var result = try product()
        while true {
            if accept(symbol: "+") {
                result = .function(operand: nil, selector: "add:to:", arguments: [result, try product()])
            } else if accept(symbol: "-") {
                result = .function(operand: nil, selector: "from:subtract:", arguments: [result, try product()])
            } else {
                return result
            }
        }
    }

    /// `a * b`, `a / b`, `a ** b` (`multiply:by:`, `divide:by:`, `raise:toPower:`).
    private mutating func product() throws(SyntaxError) -> ExpressionNode {
        var result = try negation()
        while true {
            if accept(symbol: "*") {
                result = .function(operand: nil, selector: "multiply:by:", arguments: [result, try negation()])
            } else if accept(symbol: "/") {
                result = .function(operand: nil, selector: "divide:by:", arguments: [result, try negation()])
            } else if accept(symbol: "**") {
                result = .function(operand: nil, selector: "raise:toPower:", arguments: [result, try negation()])
            } else {
                return result
            }
        }
    }

    /// `-x` (a minus before anything but a number literal), as `from:subtract:(0, x)`; counted in
    /// a loop so that a run of minus signs costs no stack.
    private mutating func negation() throws(SyntaxError) -> ExpressionNode {
        var count = 0
        while accept(symbol: "-") { count += 1 }
        var result = try postfix()
        for _ in 0..<count {
            result = .function(operand: nil, selector: "from:subtract:", arguments: [.constant(.integer(0)), result])
        }
        return result
    }

    /// A primary expression followed by `.key` steps.
    private mutating func postfix() throws(SyntaxError) -> ExpressionNode {
        var base = try primary()
        while accept(symbol: ".") {
            guard case .word(let key)? = peek else { throw error("expected a key after '.'") }
            position += 1
            base = Self.appending(key, to: base)
        }
        return base
    }

    /// `base.key`, folding consecutive keys into one key path as NSExpression does.
    private static func appending(_ key: String, to base: ExpressionNode) -> ExpressionNode {
        if case .keyPath(let operand, let path) = base { return .keyPath(operand: operand, path: "\(path).\(key)") }
        return .keyPath(operand: base, path: key)
    }

    private mutating func primary() throws(SyntaxError) -> ExpressionNode {
        try descend()
        defer { depth -= 1 }
        guard let current = peek else { throw error("unexpected end of input") }
        position += 1
        switch current {
        case .string(let text): return .constant(.string(text))
        case .number(let text):
            if let integer = Int64(text) { return .constant(.integer(integer)) }
            if let real = Double(text) { return .constant(.real(real)) }
            throw error("bad number '\(text)'")
        case .variable(let name): return .variable(name)
        case .symbol("("):
            let inner = try expression()
            try expect(symbol: ")")
            return inner
        case .symbol("{"):
            var items = [ExpressionNode]()
            if !accept(symbol: "}") {
                repeat { items.append(try expression()) } while accept(symbol: ",")
                try expect(symbol: "}")
            }
            return .aggregate(items)
        case .word(let word):
            switch word.uppercased() {
            case "SELF": return .evaluatedObject
            case "YES", "TRUE": return .constant(.bool(true))
            case "NO", "FALSE": return .constant(.bool(false))
            case "NIL", "NULL": return .constant(.null)
            case "FUNCTION":
                try expect(symbol: "(")
                let operand = try expression()
                try expect(symbol: ",")
                guard case .string(let selector)? = peek else { throw error("expected a selector string") }
                position += 1
                var arguments = [ExpressionNode]()
                while accept(symbol: ",") { arguments.append(try expression()) }
                try expect(symbol: ")")
                return .function(operand: operand, selector: selector, arguments: arguments)
            case "CAST" where peek == .symbol("("):
                position += 1
                return .function(operand: nil, selector: "castObject:toType:", arguments: try argumentList())
            default:
                if let selector = selector(startingWith: word) {
                    return .function(operand: nil, selector: selector, arguments: try argumentList())
                }
                if peek == .symbol("(") {
                    position += 1
                    return .function(operand: nil, selector: word, arguments: try argumentList())
                }
                return .keyPath(operand: .evaluatedObject, path: word)
            }
        default:
            throw error("unexpected '\(current)'")
        }
    }

    /// A selector of one or more parts (`count:`, `add:to:`, `from:subtract:`) followed by `(`,
    /// consumed with the parenthesis; nil (nothing consumed) when the word does not start one.
    private mutating func selector(startingWith word: String) -> String? {
        var selector = word
        var index = position
        while token(at: index) == .symbol(":") {
            selector += ":"
            index += 1
            guard case .word(let part)? = token(at: index), token(at: index + 1) == .symbol(":") else { break }
            selector += part
            index += 1
        }
        guard selector.hasSuffix(":"), token(at: index) == .symbol("(") else { return nil }
        position = index + 1
        return selector
    }

    private mutating func argumentList() throws(SyntaxError) -> [ExpressionNode] {
        var arguments = [ExpressionNode]()
        if accept(symbol: ")") { return arguments }
        repeat { arguments.append(try expression()) } while accept(symbol: ",")
        try expect(symbol: ")")
        return arguments
    }

    /// Counts one more level of nesting; throws past ``maximumDepth``.
    private mutating func descend() throws(SyntaxError) {
        depth += 1
        guard depth <= Self.maximumDepth else { throw error("nested more than \(Self.maximumDepth) levels deep") }
    }

    // MARK: - Tokens

    private var peek: Token? { token(at: position) }

    private func token(at index: Int) -> Token? { index < tokens.count ? tokens[index] : nil }

    private mutating func accept(keyword: String) -> Bool {
        guard case .word(let word)? = peek, word.uppercased() == keyword else { return false }
        position += 1
        return true
    }

    private mutating func accept(symbol: String) -> Bool {
        guard case .symbol(let found)? = peek, found == symbol else { return false }
        position += 1
        return true
    }

    private mutating func expect(symbol: String) throws(SyntaxError) {
        guard accept(symbol: symbol) else { throw error("expected '\(symbol)'") }
    }

    private func expectEnd() throws(SyntaxError) {
        if position < tokens.count { throw error("unexpected '\(tokens[position])'") }
    }

    private func error(_ message: String) -> SyntaxError {
        SyntaxError(message: message, offset: position)
    }
}
