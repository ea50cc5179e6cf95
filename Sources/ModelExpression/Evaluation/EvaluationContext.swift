/// What an expression needs from the world it is evaluated in: the variables (`$source`,
/// `$manager`, `$entityPolicy`, …), the values of objects, and the functions of receivers.
///
/// The migration manager implements it over the two stores; the evaluator itself knows only
/// values, key paths, collection operators, predicates and Foundation's built-in functions.
public protocol EvaluationContext {
    /// The value of `$name`; throws for a variable the context does not define.
    func variable(_ name: String) throws -> EvaluatedValue

    /// The value of `key` on an object or a receiver: an attribute's typed value, a to-one's
    /// object or `.null`, a to-many's `.collection`.
    func value(forKey key: String, of target: EvaluatedValue) throws -> EvaluatedValue

    /// `FUNCTION(receiver, "selector:", arguments…)` for a receiver the evaluator does not handle
    /// (`$manager`, `$entityPolicy`, objects), and `FETCH(request, context, countOnly)` with
    /// `receiver` `.null` and selector `FETCH:`.
    func call(_ selector: String, on receiver: EvaluatedValue, arguments: [EvaluatedValue]) throws -> EvaluatedValue
}
