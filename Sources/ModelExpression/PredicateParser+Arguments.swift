/// The fetch-only grammar of ``PredicateParser``: format arguments (`%@`, `%K`, `%d`, `%f`, …)
/// and `SUBQUERY(collection, $variable, predicate)`.
extension PredicateParser {
    /// The expression the next argument stands for at a `%specifier`: `%K` a key path, `%@` a
    /// value, the `printf` integer and real conversions a number of their kind.
    mutating func argument(for specifier: String) throws(SyntaxError) -> ExpressionNode {
        guard usedArguments < arguments.count else {
            throw error("missing argument \(usedArguments + 1) for %\(specifier) (\(arguments.count) given)")
        }
        let value = arguments[usedArguments]
        usedArguments += 1
        let conversion = specifier.last ?? "@"
        switch conversion {
        case "K":
            guard case .string(let path) = value, !path.isEmpty, !path.split(separator: ".", omittingEmptySubsequences: false).contains("") else {
                throw error("argument \(usedArguments) for %K must be a key path string, not \(value.kind)")
            }
            return .keyPath(operand: .evaluatedObject, path: path)
        case "@":
            switch value {
            case .null: return .constant(.null)
            case .string(let text): return .constant(.string(text))
            case .integer(let number): return .constant(.integer(number))
            case .double(let number): return .constant(.real(number))
            case .bool(let flag): return .constant(.bool(flag))
            default: return .value(value)
            }
        case "f", "F", "g", "G", "e", "E":
            guard let number = value.number else {
                throw error("argument \(usedArguments) for %\(specifier) must be a number, not \(value.kind)")
            }
            return .constant(.real(number))
        default:
            switch value {
            case .integer(let number): return .constant(.integer(number))
            case .bool(let flag): return .constant(.integer(flag ? 1 : 0))
            default: throw error("argument \(usedArguments) for %\(specifier) must be an integer, not \(value.kind)")
            }
        }
    }

    /// `SUBQUERY(collection, $variable, predicate)`, after its opening parenthesis.
    mutating func subquery() throws(SyntaxError) -> ExpressionNode {
        guard isFetchPredicate else { throw error("SUBQUERY is accepted in fetch predicates only (its archived form is not known)") }
        let collection = try expression()
        try expect(symbol: ",")
        guard case .variable(let variable)? = peek else { throw error("expected the SUBQUERY's $variable") }
        position += 1
        try expect(symbol: ",")
        let predicate = try orPredicate()
        try expect(symbol: ")")
        return .subquery(collection: collection, variable: variable, predicate: predicate)
    }
}
