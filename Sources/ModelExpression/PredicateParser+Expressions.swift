/// The expression grammar of ``PredicateParser``: arithmetic (`+ - * / **`, unary minus), key
/// paths, constants, variables, aggregates and functions (`FUNCTION(…)`, `count:(…)`,
/// `add:to:(…)`, `CAST(…)`).
extension PredicateParser {

    /// `a + b`, `a - b`: NSExpression's arithmetic, as the functions `add:to:` and `from:subtract:`.
    mutating func expression() throws(SyntaxError) -> ExpressionNode {
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
    mutating func product() throws(SyntaxError) -> ExpressionNode {
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
    mutating func negation() throws(SyntaxError) -> ExpressionNode {
        var count = 0
        while accept(symbol: "-") { count += 1 }
        var result = try postfix()
        for _ in 0..<count {
            result = .function(operand: nil, selector: "from:subtract:", arguments: [.constant(.integer(0)), result])
        }
        return result
    }

    /// A primary expression followed by `.key` (or `.%K`) steps.
    mutating func postfix() throws(SyntaxError) -> ExpressionNode {
        var base = try primary()
        while accept(symbol: ".") {
            switch peek {
            case .word(let key)?:
                position += 1
                base = Self.appending(key, to: base)
            case .format("K")?:
                position += 1
                guard case .keyPath(.evaluatedObject, let path) = try argument(for: "K") else { throw error("expected a key after '.'") }
                base = Self.appending(path, to: base)
            default:
                throw error("expected a key after '.'")
            }
        }
        return base
    }

    /// `base.key`, folding consecutive keys into one key path as NSExpression does.
    static func appending(_ key: String, to base: ExpressionNode) -> ExpressionNode {
        if case .keyPath(let operand, let path) = base { return .keyPath(operand: operand, path: "\(path).\(key)") }
        return .keyPath(operand: base, path: key)
    }

    mutating func primary() throws(SyntaxError) -> ExpressionNode {
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
        case .format(let specifier): return try argument(for: specifier)
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
            case "SUBQUERY" where peek == .symbol("("):
                position += 1
                return try subquery()
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
    mutating func selector(startingWith word: String) -> String? {
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

    mutating func argumentList() throws(SyntaxError) -> [ExpressionNode] {
        var arguments = [ExpressionNode]()
        if accept(symbol: ")") { return arguments }
        repeat { arguments.append(try expression()) } while accept(symbol: ",")
        try expect(symbol: ")")
        return arguments
    }
}
