import ModelSchema

/// Syntax trees of a mapping model's expressions, for a migration manager to evaluate.
extension PropertyMapping {
    /// The value expression as a syntax tree (`$source.x`, `FUNCTION($manager, …)`); nil when the
    /// mapping has none (the destination keeps its default).
    public func parsedValueExpression() throws(PredicateParser.SyntaxError) -> ExpressionNode? {
        guard let valueExpression else { return nil }
        return try PredicateParser.expression(valueExpression)
    }
}

extension SourceExpression {
    /// The filter of the source fetch as a syntax tree (`TRUEPREDICATE` when there is none).
    public func parsedPredicate() throws(PredicateParser.SyntaxError) -> PredicateNode {
        try PredicateParser.predicate(predicate)
    }
}
