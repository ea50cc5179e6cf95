import Foundation
import ModelExpression
import Testing

/// The evaluator on the forms real mapping models use, over objects held in a dictionary.
struct ExpressionEvaluatorTests {
    /// Objects by reference, each a dictionary of keys to values; `$source` is the first car.
    struct Objects: EvaluationContext {
        var values: [ObjectReference: [String: EvaluatedValue]]
        var source: EvaluatedValue

        func variable(_ name: String) throws -> EvaluatedValue {
            switch name {
            case "source": source
            case "manager": .receiver("manager")
            default: throw EvaluationError("no $\(name)")
            }
        }

        func value(forKey key: String, of target: EvaluatedValue) throws -> EvaluatedValue {
            guard case .object(let object) = target, let value = values[object]?[key] else { throw EvaluationError("no \(key) on \(target)") }
            return value
        }

        func call(_ selector: String, on receiver: EvaluatedValue, arguments: [EvaluatedValue]) throws -> EvaluatedValue {
            guard receiver == .receiver("manager"), selector == "destinationInstancesForEntityMappingNamed:sourceInstances:" else {
                throw EvaluationError("no \(selector)")
            }
            return .collection(arguments[1].elements.map { element in
                guard case .object(var object) = element else { return element }
                object.side = .destination
                return .object(object)
            })
        }
    }

    static let car = ObjectReference(side: .source, entity: "Car", primaryKey: 1)
    static let owner = ObjectReference(side: .source, entity: "Person", primaryKey: 7)
    static let objects = Objects(
        values: [
            car: ["maker": .string("FIAT"), "owner": .object(owner), "price": .decimal(Decimal(string: "12.5")!)],
            owner: ["name": .string("Ada"), "cars": .collection([.object(car)]), "age": .integer(40)],
        ],
        source: .object(car))

    func evaluate(_ text: String) throws -> EvaluatedValue {
        try ExpressionEvaluator(context: Self.objects).evaluate(try PredicateParser.expression(text))
    }

    @Test func keyPathsFollowRelationships() throws {
        #expect(try evaluate("$source.maker") == .string("FIAT"))
        #expect(try evaluate("$source.owner.name") == .string("Ada"))
        #expect(try evaluate("$source.owner.cars.@count") == .integer(1))
        #expect(try evaluate("$source.owner.cars.maker") == .collection([.string("FIAT")]))
    }

    @Test func managerFunctionsReachTheContext() throws {
        let value = try evaluate(#"FUNCTION($manager, "destinationInstancesForEntityMappingNamed:sourceInstances:", "PersonToPerson", $source.owner)"#)
        #expect(value == .collection([.object(ObjectReference(side: .destination, entity: "Person", primaryKey: 7))]))
    }

    /// Forms published outside the corpus: the Pragmatic Core Data book passes `$source` itself
    /// (one object, not a collection) as `sourceInstances`, and filters with `image != nil`.
    @Test func publishedFormsBeyondTheCorpus() throws {
        let value = try evaluate(#"FUNCTION($manager, "destinationInstancesForEntityMappingNamed:sourceInstances:", "NoteToNote", $source)"#)
        #expect(value == .collection([.object(ObjectReference(side: .destination, entity: "Car", primaryKey: 1))]))
        let evaluator = ExpressionEvaluator(context: Self.objects)
        #expect(try evaluator.evaluate(PredicateParser.predicate("owner != nil"), on: .object(Self.car)))
        #expect(try evaluate("$source.price * 100") == .decimal(Decimal(1250)))
    }

    @Test func constantsAndBuiltins() throws {
        #expect(try evaluate("YES") == .bool(true))
        #expect(try evaluate(#"uppercase:("abc")"#) == .string("ABC"))
    }

    @Test func predicatesFilterObjects() throws {
        let evaluator = ExpressionEvaluator(context: Self.objects)
        #expect(try evaluator.evaluate(PredicateParser.predicate("maker BEGINSWITH[c] 'fi' AND owner.age > 30"), on: .object(Self.car)))
        #expect(try !evaluator.evaluate(PredicateParser.predicate("owner == nil"), on: .object(Self.car)))
        #expect(try evaluator.evaluate(PredicateParser.predicate("TRUEPREDICATE"), on: .object(Self.car)))
    }

    @Test func unknownVariablesFailWithTheirName() {
        #expect(throws: EvaluationError("no $destination")) { try evaluate("$destination.name") }
    }
}
