import ModelExpression

extension PredicateParser {
    /// Format strings with arguments: until the parser takes them, only the argument-free form.
    static func predicate(_ format: String, arguments: [EvaluatedValue]) throws -> PredicateNode {
        guard arguments.isEmpty else { throw ContextError.make(1550, "predicate arguments are not supported yet") }
        return try predicate(format)
    }
}
