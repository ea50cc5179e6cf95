import Foundation

/// Evaluates mapping-model expressions and predicates on typed values, asking its context for
/// variables, object values and the functions of `$manager` and `$entityPolicy`.
///
/// Recursion follows the syntax tree, whose depth the parser bounds (`PredicateParser.maximumDepth`).
public struct ExpressionEvaluator {
    /// How comparisons with `nil` come out: as `NSPredicate` evaluates them in memory, or as
    /// Core Data's SQLite store answers a fetch (SQL's three-valued logic; Predicates.md).
    public enum NilSemantics: Sendable {
        /// `nil` equals only `nil`; `key != value` holds for a `nil` key.
        case inMemory
        /// A comparison of `nil` with a value is unknown, and a predicate that comes out
        /// unknown does not match: `key != value` leaves out objects whose key is `nil`.
        case store
    }

    public let context: any EvaluationContext
    public var nilSemantics: NilSemantics
    /// The values of `SUBQUERY` variables in scope.
    var bindings: [String: EvaluatedValue] = [:]

    public init(context: any EvaluationContext, nilSemantics: NilSemantics = .inMemory) {
        self.context = context
        self.nilSemantics = nilSemantics
    }

    // MARK: - Expressions

    /// The value of `node`, with `object` as `SELF` (a key path without a variable starts there).
    public func evaluate(_ node: ExpressionNode, on object: EvaluatedValue = .null) throws -> EvaluatedValue {
        switch node {
        case .evaluatedObject:
            return object
        case .constant(let constant):
            return Self.value(of: constant)
        case .variable(let name):
            if let bound = bindings[name] { return bound }
            return try context.variable(name)
        case .value(let value):
            return value
        case .subquery(let collection, let variable, let predicate):
            let elements = try evaluate(collection, on: object).elements
            return .collection(try elements.filter { element in
                var inner = self
                inner.bindings[variable] = element
                return try inner.evaluate(predicate, on: element)
            })
        case .keyPath(let operand, let path):
            return try value(atPath: path, of: try evaluate(operand, on: object))
        case .aggregate(let elements):
            return .collection(try elements.map { try evaluate($0, on: object) })
        case .function(let operand, let selector, let arguments):
            let values = try arguments.map { try evaluate($0, on: object) }
            guard let operand else {
                if let result = try BuiltinFunctions.call(selector, arguments: values) { return result }
                return try context.call(selector == "FETCH" ? "FETCH:" : selector, on: .null, arguments: values)
            }
            return try call(selector, on: try evaluate(operand, on: object), arguments: values)
        }
    }

    /// `FUNCTION(receiver, selector, arguments…)`: `valueForKey:` and `valueForKeyPath:` on
    /// anything, the context's functions on objects and receivers, Foundation's methods on values.
    func call(_ selector: String, on receiver: EvaluatedValue, arguments: [EvaluatedValue]) throws -> EvaluatedValue {
        if ["valueForKey:", "valueForKeyPath:"].contains(selector), arguments.count == 1 {
            guard case .string(let path) = arguments[0] else { throw EvaluationError("\(selector) needs a string, not \(arguments[0])") }
            return selector == "valueForKey:" ? try value(forKey: path, of: receiver) : try value(atPath: path, of: receiver)
        }
        switch receiver {
        case .object, .receiver: return try context.call(selector, on: receiver, arguments: arguments)
        default: return try ValueMethods.call(selector, on: receiver, arguments: arguments)
        }
    }

    /// The value of a dotted key path (`owner.name`, `cars.@count`) on `value`, as key-value coding
    /// answers it: `nil` passes through, a collection maps each element, `@` operators aggregate.
    ///
    /// A path of more than ``PredicateParser/maximumDepth`` keys is refused: each key through a
    /// to-many nests the result one level deeper, and a collection operator recurses on the rest.
    public func value(atPath path: String, of value: EvaluatedValue) throws -> EvaluatedValue {
        // One plain key, the common case, without splitting the path.
        if !path.utf8.contains(UInt8(ascii: ".")), path.utf8.first != UInt8(ascii: "@") {
            return try self.value(forKey: path, of: value)
        }
        var keys = path.split(separator: ".").map(String.init)[...]
        guard keys.count <= PredicateParser.maximumDepth else {
            throw EvaluationError("the key path '\(path.prefix(60))…' has \(keys.count) keys; at most \(PredicateParser.maximumDepth) are evaluated")
        }
        var current = value
        while let key = keys.popFirst() {
            if key.hasPrefix("@") {
                let rest = keys.joined(separator: ".")
                let values = rest.isEmpty ? current.elements : try current.elements.map { try self.value(atPath: rest, of: $0) }
                return try CollectionOperator.apply(key, to: values)
            }
            current = try self.value(forKey: key, of: current)
        }
        return current
    }

    /// One key on one value: a collection maps each element (skipping none), `nil` stays `nil`,
    /// objects and receivers ask the context, other values answer Foundation's methods.
    func value(forKey key: String, of value: EvaluatedValue) throws -> EvaluatedValue {
        switch value {
        case .null: return .null
        case .collection(let elements): return .collection(try elements.map { try self.value(forKey: key, of: $0) })
        case .object, .receiver: return try context.value(forKey: key, of: value)
        default: return try ValueMethods.value(forKey: key, of: value)
        }
    }

    /// A parsed constant as a value.
    public static func value(of constant: ConstantValue) -> EvaluatedValue {
        switch constant {
        case .integer(let value): .integer(value)
        case .real(let value): .double(value)
        case .string(let value): .string(value)
        case .bool(let value): .bool(value)
        case .null: .null
        }
    }

    // MARK: - Predicates

    /// Whether `object` satisfies `predicate` (a source filter, a fetch's predicate).
    public func evaluate(_ predicate: PredicateNode, on object: EvaluatedValue) throws -> Bool {
        if nilSemantics == .store { return try truth(of: predicate, on: object) == true }
        switch predicate {
        case .truePredicate:
            return true
        case .falsePredicate:
            return false
        case .and(let parts):
            for part in parts where try !evaluate(part, on: object) { return false }
            return true
        case .or(let parts):
            for part in parts where try evaluate(part, on: object) { return true }
            return false
        case .not(let part):
            return try !evaluate(part, on: object)
        case .comparison(let left, let op, let right, let options, let modifier):
            let lhs = try evaluate(left, on: object)
            let rhs = try evaluate(right, on: object)
            switch modifier {
            case .direct: return try Comparison.holds(lhs, op, rhs, options: options)
            case .any: return try lhs.elements.contains { try Comparison.holds($0, op, rhs, options: options) }
            case .all: return try lhs.elements.allSatisfy { try Comparison.holds($0, op, rhs, options: options) }
            }
        }
    }
}
