import Foundation
import ModelExpression
import ModelSchema

/// An evaluation context over a mapping model's own model snapshots: every object has, for each
/// key its entity declares, a value of that attribute's type (a to-one gives one object, a
/// to-many two), and `$manager` answers the calls Core Data's migration manager answers, checking
/// the names they pass against the mapping model. A key or a mapping name the models do not
/// declare fails, as it would fail in a real migration.
final class SnapshotContext: EvaluationContext {
    let model: MappingModel
    let source: EntityHierarchy
    let destination: EntityHierarchy
    /// `$source`: an instance of the entity mapping's source entity.
    var sourceObject: EvaluatedValue = .null
    /// The selectors `FUNCTION($entityPolicy, …)` called, in order.
    private(set) var policyCalls: [String] = []
    /// The `$manager` selectors called, in order.
    private(set) var managerCalls: [String] = []

    init(model: MappingModel) throws {
        guard let source = model.sourceSnapshot, let destination = model.destinationSnapshot else {
            throw EvaluationError("'\(model.name)' has no model snapshots")
        }
        self.model = model
        self.source = EntityHierarchy(source)
        self.destination = EntityHierarchy(destination)
    }

    /// Typed sample values, one per attribute type, fixed so that tests can name them.
    static func sample(_ type: AttributeType) -> EvaluatedValue {
        switch type {
        case .integer16, .integer32, .integer64: .integer(3)
        case .decimal: .decimal(Decimal(string: "12.5")!)
        case .double, .float: .double(2.5)
        case .string: .string("Sample Text")
        case .boolean: .bool(true)
        case .date: .date(Date(timeIntervalSinceReferenceDate: 700_000_000))
        case .binary, .transformable: .data(Data([1, 2, 3]))
        case .uuid: .uuid(UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!)
        case .uri: .uri(URL(string: "x-coredata://store/Entity/p1")!)
        case .undefined, .objectID, .composite: .null
        }
    }

    // MARK: - EvaluationContext

    func variable(_ name: String) throws -> EvaluatedValue {
        switch name {
        case "source": sourceObject
        case "manager", "entityPolicy", "entityMapping", "propertyMapping": .receiver(name)
        default: throw EvaluationError("no variable $\(name)")
        }
    }

    func value(forKey key: String, of target: EvaluatedValue) throws -> EvaluatedValue {
        switch target {
        case .receiver("manager") where ["sourceContext", "destinationContext"].contains(key):
            return .receiver(key)
        case .receiver("manager") where ["sourceModel", "destinationModel", "mappingModel", "userInfo"].contains(key):
            return .receiver(key)
        case .object(let object):
            let hierarchy = object.side == .source ? source : destination
            guard let entity = hierarchy.entity(named: object.entity) else { throw EvaluationError("no entity '\(object.entity)'") }
            if let attribute = hierarchy.attributes(of: entity).first(where: { $0.name == key }) {
                return Self.sample(attribute.type)
            }
            guard let relationship = hierarchy.relationships(of: entity).first(where: { $0.name == key }) else {
                throw EvaluationError("'\(object.entity)' has no property '\(key)'")
            }
            let targets = (1...(relationship.isToMany ? 2 : 1)).map {
                EvaluatedValue.object(ObjectReference(side: object.side, entity: relationship.destinationEntityName, primaryKey: Int64($0)))
            }
            return relationship.isToMany ? .collection(targets) : targets[0]
        default:
            throw EvaluationError("no key '\(key)' on \(target)")
        }
    }

    func call(_ selector: String, on receiver: EvaluatedValue, arguments: [EvaluatedValue]) throws -> EvaluatedValue {
        switch receiver {
        case .receiver("entityPolicy"):
            policyCalls.append(selector)
            return .null
        case .receiver("manager"):
            managerCalls.append(selector)
            return try manager(selector, arguments)
        case .null where selector == "FETCH:":
            guard case .receiver(let request) = arguments.first, request.hasPrefix("fetch ") else {
                throw EvaluationError("FETCH of \(arguments.first ?? .null)")
            }
            return .collection([.object(ObjectReference(side: .source, entity: String(request.dropFirst(6)), primaryKey: 1))])
        default:
            throw EvaluationError("no function '\(selector)' on \(receiver)")
        }
    }

    // MARK: - $manager

    /// The migration manager's functions mapping expressions call.
    private func manager(_ selector: String, _ arguments: [EvaluatedValue]) throws -> EvaluatedValue {
        switch (selector, arguments.first) {
        case ("destinationInstancesForEntityMappingNamed:sourceInstances:", .string(let name)?):
            guard let mapping = model.entityMapping(named: name), let entity = mapping.destinationEntityName else {
                throw EvaluationError("no entity mapping '\(name)' with a destination")
            }
            return .collection(arguments[1].elements.map { _ in .object(ObjectReference(side: .destination, entity: entity, primaryKey: 1)) })
        case ("destinationInstancesForSourceRelationshipNamed:sourceInstances:", .string(let name)?):
            return .collection(try arguments[1].elements.map { element in
                guard case .object(let object) = element else { throw EvaluationError("\(element) is not an object") }
                guard let mapping = model.entityMappings.first(where: { $0.sourceEntityName == object.entity }),
                    let entity = mapping.destinationEntityName
                else { throw EvaluationError("no entity mapping for '\(object.entity)' (relationship '\(name)')") }
                return .object(ObjectReference(side: .destination, entity: entity, primaryKey: object.primaryKey))
            })
        case ("fetchRequestForSourceEntityNamed:predicateString:", .string(let name)?):
            guard source.entity(named: name) != nil else { throw EvaluationError("no source entity '\(name)'") }
            _ = try PredicateParser.predicate(arguments.count > 1 ? Self.text(arguments[1]) : "TRUEPREDICATE")
            return .receiver("fetch \(name)")
        default:
            throw EvaluationError("$manager has no function '\(selector)' taking \(arguments)")
        }
    }

    private static func text(_ value: EvaluatedValue) throws -> String {
        guard case .string(let text) = value else { throw EvaluationError("\(value) is not a string") }
        return text
    }
}
