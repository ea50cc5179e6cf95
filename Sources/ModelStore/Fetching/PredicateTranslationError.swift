/// A fetch predicate or sort key that the store's SQL cannot answer as the evaluator would:
/// the store refuses it, naming the part, rather than return a different set of objects.
package struct PredicateTranslationError: Error, Sendable, CustomStringConvertible {
    /// What cannot be translated and why; the wording may change.
    package var message: String

    init(_ message: String) { self.message = message }

    package var description: String { message }
}
