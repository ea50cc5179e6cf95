import Foundation
import ModelExpression
import ModelStore

/// The predicate evaluator's view of a context's objects, for matching unsaved objects the way
/// the store's SQL matches rows: an object's key is its row (or, new, a number no row has), its
/// values as the context holds them now, and comparisons with `nil` under the store's rule
/// (``ExpressionEvaluator/NilSemantics/store``), so that `key != value` leaves out an unsaved
/// object whose key is `nil` as the store's SQL leaves out such a row.
struct ObjectEvaluation: EvaluationContext {
    let context: ManagedObjectContext

    init(_ context: ManagedObjectContext) {
        self.context = context
    }

    /// Whether `object` matches `predicate`; 134060 for a predicate that cannot be evaluated on it.
    func matches(_ object: ManagedObject, _ predicate: PredicateNode?) throws -> Bool {
        guard let predicate else { return true }
        return try Self.reporting { try ExpressionEvaluator(context: self, nilSemantics: .store).evaluate(predicate, on: .object(object.reference)) }
    }

    /// The value of a key path on `object`, as sorting compares it; 134060 for a path it has not.
    func value(atPath path: String, of object: ManagedObject) throws -> EvaluatedValue {
        try Self.reporting { try ExpressionEvaluator(context: self).value(atPath: path, of: .object(object.reference)) }
    }

    /// Runs `body` with the evaluator's errors reported as Core Data's generic error 134060
    /// (`NSCoreDataError`), so that a fetch matching unsaved objects fails with an `NSError` of
    /// `NSCocoaErrorDomain` as one the store answers does.
    private static func reporting<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as EvaluationError {
            throw ContextError.make(134060, "the fetch's predicate cannot be evaluated on an unsaved object: \(error.message)")
        }
    }

    func object(_ reference: ObjectReference) -> ManagedObject? {
        guard let shape = try? context.rows().shape(named: reference.entity) else { return nil }
        return context.registeredOrFault(ObjectKey(number: shape.number, key: reference.primaryKey))
    }

    func variable(_ name: String) throws -> EvaluatedValue {
        throw EvaluationError("the variable $\(name) has no value in a fetch")
    }

    /// A property's value; `entity` (unless a property has that name) is the object's entity,
    /// whose `name` is its name.
    func value(forKey key: String, of target: EvaluatedValue) throws -> EvaluatedValue {
        if let entity = target.entityName, key == "name" { return .string(entity) }
        guard case .object(let reference) = target, let object = object(reference) else {
            throw EvaluationError("\(target) has no key '\(key)'")
        }
        if key == "entity", object.entity.properties[key] == nil { return .entity(object.entity.name) }
        guard object.entity.properties[key] != nil else { throw EvaluationError("entity \(object.entity.name) has no key '\(key)'") }
        return Self.evaluated(object.value(forKey: key))
    }

    func call(_ selector: String, on receiver: EvaluatedValue, arguments: [EvaluatedValue]) throws -> EvaluatedValue {
        throw EvaluationError("\(selector) cannot be called in a fetch's predicate")
    }

    /// A property's value as the evaluator's value.
    static func evaluated(_ value: Any?) -> EvaluatedValue {
        switch value {
        case nil: return .null
        case let object as ManagedObject: return .object(object.reference)
        case let set as NSSet: return .collection(set.allObjects.map(evaluated))
        case let set as NSOrderedSet: return .collection(set.array.map(evaluated))
        case let some?: return (try? PredicateArgument.value(some)) ?? .null
        }
    }
}
