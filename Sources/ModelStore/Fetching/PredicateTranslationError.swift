/// A fetch predicate or sort key that the store's SQL cannot answer as the evaluator would:
/// the store refuses it, naming the part, rather than return a different set of objects.
public struct PredicateTranslationError: Error, Sendable, CustomStringConvertible {
    /// What cannot be translated and why; the wording may change.
    public var message: String

    init(_ message: String) { self.message = message }

    public var description: String { message }
}
