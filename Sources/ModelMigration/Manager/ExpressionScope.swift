import ModelExpression
import ModelSchema
import ModelStore

/// The world one value expression is evaluated in: `$source`, `$destination`, `$manager`,
/// `$entityPolicy`, `$entityMapping` and `$propertyMapping`, the values of both
/// stores' objects, and the functions of `$manager` and `$entityPolicy`. A class, so that the
/// set-based path can keep one per property mapping and only change `$source` from row to row.
final class ExpressionScope: EvaluationContext {
    let context: MigrationContext
    var mapping: EntityMapping?
    var source: EvaluatedValue = .null
    var destination: EvaluatedValue = .null
    var property: PropertyMapping?
    /// Attribute values of `$source` already read (passed by SQL), by key.
    var sourceValues: [String: EvaluatedValue] = [:]

    init(context: MigrationContext, mapping: EntityMapping? = nil, source: EvaluatedValue = .null) {
        self.context = context
        self.mapping = mapping
        self.source = source
    }

    /// The value of one property mapping's expression; nil when it has none (the destination
    /// keeps its default). A failure names the mapping, the property and the expression.
    func evaluate(_ property: PropertyMapping) throws -> EvaluatedValue? {
        self.property = property
        let node: ExpressionNode?
        do {
            node = try context.parsed(property)
        } catch {
            throw failure(error, property)
        }
        guard let node else { return nil }
        return try evaluate(node, with: ExpressionEvaluator(context: self))
    }

    /// The value of `property`'s parsed expression, with an evaluator of this scope: what the
    /// set-based path calls for every row, without looking the expression up again.
    func evaluate(_ node: ExpressionNode, with evaluator: ExpressionEvaluator) throws -> EvaluatedValue {
        do {
            return try evaluator.evaluate(node)
        } catch let error as MigrationError {
            throw error
        } catch let error as StoreError {
            throw context.storeFailure(error)
        } catch {
            throw failure(error, property)
        }
    }

    /// A failure that names the mapping, the property and the expression.
    private func failure(_ error: any Error, _ property: PropertyMapping?) -> MigrationError {
        MigrationError(
            .policyFailed, path: context.path,
            message: "entity mapping '\(mapping?.name ?? "")', property '\(property?.name ?? "")': cannot evaluate '\(property?.valueExpression ?? "")': \(error)")
    }

    // MARK: - EvaluationContext

    func variable(_ name: String) throws -> EvaluatedValue {
        switch name {
        case "source": return source
        case "destination": return destination
        case "manager": return .receiver("manager")
        case "entityPolicy": return .receiver("entityPolicy")
        case "entityMapping": return .receiver("entityMapping")
        case "propertyMapping": return .receiver("propertyMapping")
        default: throw EvaluationError("unknown variable '$\(name)'")
        }
    }

    func value(forKey key: String, of target: EvaluatedValue) throws -> EvaluatedValue {
        switch target {
        case .object(let object):
            if let known = sourceValues[key], target == source { return known }
            return try context.rows(object.side).value(forKey: key, of: object)
        case .receiver("manager") where key == "sourceContext" || key == "destinationContext":
            return .receiver(key)
        case .receiver("entityMapping") where key == "name":
            return .string(mapping?.name ?? "")
        case .receiver("propertyMapping") where key == "name":
            return .string(property?.name ?? "")
        default:
            throw EvaluationError("cannot read '\(key)' of \(target)")
        }
    }

    func call(_ selector: String, on receiver: EvaluatedValue, arguments: [EvaluatedValue]) throws -> EvaluatedValue {
        switch receiver {
        case .receiver("manager"):
            return try managerCall(selector, arguments)
        case .receiver("entityPolicy"):
            guard let function = context.registry.function(for: selector) else {
                throw MigrationError(.missingPolicy, path: context.path, message: "no policy function is registered for '\(selector)'")
            }
            return try function(arguments, context)
        case .null where selector == "FETCH:":
            guard arguments.count >= 1, case .receiver(let request) = arguments[0], request.hasPrefix(Self.requestPrefix) else {
                throw EvaluationError("FETCH needs a fetch request of $manager")
            }
            let parts = request.dropFirst(Self.requestPrefix.count).split(separator: "\u{0}", maxSplits: 1, omittingEmptySubsequences: false)
            let found = try context.fetch(String(parts[0]), predicate: parts.count > 1 ? String(parts[1]) : "TRUEPREDICATE", in: context.source)
            let countOnly = arguments.count > 2 && arguments[2] == .bool(true)
            return countOnly ? .integer(Int64(found.count)) : .collection(found.map(EvaluatedValue.object))
        default:
            throw EvaluationError("no function '\(selector)' on \(receiver)")
        }
    }

    private static let requestPrefix = "fetchRequest\u{0}"

    /// The functions of `$manager` that value expressions call.
    private func managerCall(_ selector: String, _ arguments: [EvaluatedValue]) throws -> EvaluatedValue {
        func string(_ index: Int) throws -> String {
            guard arguments.count > index, case .string(let text) = arguments[index] else {
                throw EvaluationError("'\(selector)' needs a string as argument \(index + 1)")
            }
            return text
        }
        let instances = arguments.count > 1 ? arguments[1].elements.compactMap { element -> ObjectReference? in
            if case .object(let object) = element { return object }
            return nil
        } : []
        switch selector {
        case "destinationInstancesForEntityMappingNamed:sourceInstances:":
            let mapping = try context.index(ofMapping: try string(0))
            return .collection(try instances.flatMap { try context.associations.destinations(of: $0, mapping: mapping) }.map(EvaluatedValue.object))
        case "sourceInstancesForEntityMappingNamed:destinationInstances:":
            let mapping = try context.index(ofMapping: try string(0))
            return .collection(try instances.flatMap { try context.associations.sources(of: $0, mapping: mapping) }.map(EvaluatedValue.object))
        case "destinationInstancesForSourceRelationshipNamed:sourceInstances:":
            // The instances each source became through any mapping, of the destination
            // relationship's entity (Core Data looks the mapping up from the relationship).
            let target = destinationTarget()
            return .collection(try instances.flatMap { try context.associations.destinations(of: $0, mapping: nil) }
                .filter { target == nil || context.destination.entities.isKind($0.entity, of: target!) }
                .map(EvaluatedValue.object))
        case "fetchRequestForSourceEntityNamed:predicateString:":
            return .receiver(Self.requestPrefix + (try string(0)) + "\u{0}" + (try string(1)))
        default:
            throw EvaluationError("$manager has no function '\(selector)'")
        }
    }

    /// The destination entity of the relationship the current property mapping sets.
    private func destinationTarget() -> String? {
        guard let entity = mapping?.destinationEntityName, let name = property?.name else { return nil }
        return context.destination.entities.relationship(named: name, in: entity)?.destinationEntityName
    }
}
