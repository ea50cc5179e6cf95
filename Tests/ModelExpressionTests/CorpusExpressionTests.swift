import Foundation
import ModelCompiler
import ModelExpression
import ModelSchema
import Testing
import _ModelTestSupport

/// Every value expression and source filter of the corpus's mapping models parsed and evaluated
/// on typed values of the mapping's own source model, as the migration manager evaluates them.
@Suite(Corpus.required)
struct CorpusExpressionTests {
    /// What evaluating one mapping model's expressions gave.
    struct Outcome {
        var evaluated = 0
        var failures: [String] = []
        var policyCalls: [String] = []
        var managerCalls: [String] = []
    }

    /// Parses and evaluates every expression of the mapping model at `relative`.
    static func evaluateAll(_ relative: String) throws -> Outcome {
        let model = try #require(MappingCompilation.read(at: Corpus.path(relative)).model)
        let context = try SnapshotContext(model: model)
        let evaluator = ExpressionEvaluator(context: context)
        var outcome = Outcome()
        for mapping in model.entityMappings {
            context.sourceObject = mapping.sourceEntityName.map { .object(ObjectReference(side: .source, entity: $0, primaryKey: 1)) } ?? .null
            if let source = mapping.sourceExpression {
                do {
                    _ = try evaluator.evaluate(try source.parsedPredicate(), on: context.sourceObject)
                    // The whole source expression as Core Data archives it: FETCH of $manager's request.
                    let fetched = try evaluator.evaluate(try PredicateParser.expression(source.format))
                    guard case .collection(let objects) = fetched, objects.count == 1 else { throw EvaluationError("FETCH gave \(fetched)") }
                    outcome.evaluated += 2
                } catch {
                    outcome.failures.append("\(mapping.name) filter '\(source.predicate)': \(error)")
                }
            }
            for property in mapping.attributeMappings + mapping.relationshipMappings {
                do {
                    guard let node = try property.parsedValueExpression() else { continue }
                    _ = try evaluator.evaluate(node)
                    outcome.evaluated += 1
                } catch {
                    outcome.failures.append("\(mapping.name).\(property.name) '\(property.valueExpression ?? "")': \(error)")
                }
            }
        }
        outcome.policyCalls = context.policyCalls
        outcome.managerCalls = context.managerCalls
        return outcome
    }

    @Test(arguments: CorpusMappings.all)
    func everyExpressionEvaluates(_ relative: String) throws {
        let outcome = try Self.evaluateAll(relative)
        #expect(outcome.failures == [])
        #expect(outcome.evaluated > 0)
    }

    /// The forms the corpus holds are all reached: relationship functions of `$manager`, the
    /// functions of entity policies, and the value expressions written by hand.
    @Test func theCorpusReachesManagerAndPolicyFunctions() throws {
        var outcome = Outcome()
        for relative in CorpusMappings.all {
            let one = try Self.evaluateAll(relative)
            outcome.evaluated += one.evaluated
            outcome.policyCalls += one.policyCalls
            outcome.managerCalls += one.managerCalls
        }
        #expect(Set(outcome.managerCalls).contains("destinationInstancesForEntityMappingNamed:sourceInstances:"))
        #expect(outcome.evaluated > 500)
        print("corpus expressions evaluated: \(outcome.evaluated); $manager: \(Set(outcome.managerCalls).sorted()); $entityPolicy: \(Set(outcome.policyCalls).sorted())")
    }
}
