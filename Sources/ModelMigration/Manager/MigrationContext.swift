import Foundation
import ModelExpression
import ModelSchema
import ModelStore

/// What a running migration offers its entity migration policies (the `manager` of Core Data's
/// `NSEntityMigrationPolicy` hooks): the models, the current entity mapping and progress, the
/// associations between source and destination instances, inserting and fetching destination
/// instances, and the default work of each hook.
public final class MigrationContext {
    public let mappingModel: MappingModel
    public let sourceModel: ModelVersion
    public let destinationModel: ModelVersion
    /// Values the caller passes to its policies (`NSMigrationManager.userInfo`).
    public let userInfo: [String: String]
    /// The entity mapping being run.
    public internal(set) var currentEntityMapping: EntityMapping
    /// How far the migration is, from 0 to 1.
    public internal(set) var migrationProgress: Double = 0

    let source: ObjectRows
    let destination: ObjectRows
    let associations: Associations
    let registry: PolicyRegistry
    /// The store, for errors.
    let path: String
    /// What each entity mapping did, by position.
    var reports: [EntityMappingReport]
    /// Value expressions parsed once, by their text.
    private var expressions: [String: ExpressionNode] = [:]

    init(
        mappingModel: MappingModel, source: ObjectRows, destination: ObjectRows, associations: Associations,
        registry: PolicyRegistry, userInfo: [String: String], path: String
    ) {
        self.mappingModel = mappingModel
        self.sourceModel = source.version
        self.destinationModel = destination.version
        self.source = source
        self.destination = destination
        self.associations = associations
        self.registry = registry
        self.userInfo = userInfo
        self.path = path
        self.currentEntityMapping = mappingModel.entityMappings.first ?? EntityMapping(name: "", type: .undefined)
        self.reports = mappingModel.entityMappings.map(EntityMappingReport.init)
    }

    /// The syntax tree of a property mapping's value expression, parsed once per text.
    func parsed(_ property: PropertyMapping) throws -> ExpressionNode? {
        guard let text = property.valueExpression else { return nil }
        if let known = expressions[text] { return known }
        let node = try property.parsedValueExpression()
        expressions[text] = node
        return node
    }

    /// The rows of one side.
    func rows(_ side: ObjectReference.Side) -> ObjectRows { side == .source ? source : destination }

    /// A damaged row read during the migration (`error` names its table, row and column) as a
    /// failure of the store being migrated, with the class and code of the store error.
    func storeFailure(_ error: StoreError) -> MigrationError {
        MigrationError(.store(error.errorClass), code: error.code, path: path, message: error.message, sqliteCode: error.sqliteCode)
    }

    /// The position of the entity mapping named `name`.
    func index(ofMapping name: String) throws -> Int {
        guard let index = mappingModel.entityMappings.firstIndex(where: { $0.name == name }) else {
            throw EvaluationError("the mapping model has no entity mapping '\(name)'")
        }
        return index
    }

    private func objects(_ references: [ObjectReference]) -> [MigrationObject] {
        references.map { MigrationObject($0, context: self) }
    }

    // MARK: - Associations

    /// Records that `source` became `destination` through `mapping`.
    public func associate(source: MigrationObject, destination: MigrationObject, mapping: EntityMapping) throws {
        try associations.associate(source.reference, destination.reference, mapping: try index(ofMapping: mapping.name))
    }

    /// The destination instances the source instances became through the mapping `name`.
    public func destinationInstances(forEntityMappingName name: String, sourceInstances: [MigrationObject]) throws -> [MigrationObject] {
        let mapping = try index(ofMapping: name)
        return objects(try sourceInstances.flatMap { try associations.destinations(of: $0.reference, mapping: mapping) })
    }

    /// The source instances the destination instances came from through the mapping `name`.
    public func sourceInstances(forEntityMappingName name: String, destinationInstances: [MigrationObject]) throws -> [MigrationObject] {
        let mapping = try index(ofMapping: name)
        return objects(try destinationInstances.flatMap { try associations.sources(of: $0.reference, mapping: mapping) })
    }

    // MARK: - Destination instances

    /// Inserts a destination instance of `entity`, its attributes at their defaults or `values`.
    public func insertDestinationInstance(entity: String, values: [String: EvaluatedValue] = [:]) throws -> MigrationObject {
        let reference = try destination.insert(entity, values: values)
        reports[index(of: currentEntityMapping)].instancesCreated += 1
        return MigrationObject(reference, context: self)
    }

    /// The destination instances of `entity` (and its subentities) whose attribute `key` equals `value`.
    public func destinationInstances(entity: String, where key: String, equals value: EvaluatedValue) throws -> [MigrationObject] {
        objects(try destination.instances(ofKind: entity, where: key, equals: value))
    }

    /// The destination instances of `entity` (and its subentities) matching a predicate in
    /// `NSPredicate` format (`name == "Tesla"`), read in bounded batches.
    public func destinationInstances(entity: String, matching predicate: String) throws -> [MigrationObject] {
        objects(try fetch(entity, predicate: predicate, in: destination))
    }

    /// The instances of `entity` and its subentities in `rows` that satisfy `predicate`.
    func fetch(_ entity: String, predicate: String, in rows: ObjectRows) throws -> [ObjectReference] {
        let parsed = try PredicateParser.predicate(predicate)
        let evaluator = ExpressionEvaluator(context: ExpressionScope(context: self))
        var found = [ObjectReference](), last: Int64 = 0
        while true {
            let batch = try rows.instances(ofKind: entity, after: last, limit: MigrationRunner.batchSize)
            guard let end = batch.last else { return found }
            found += try batch.filter { try evaluator.evaluate(parsed, on: .object($0)) }
            last = end.primaryKey
        }
    }

    private func index(of mapping: EntityMapping) -> Int {
        mappingModel.entityMappings.firstIndex { $0.name == mapping.name } ?? 0
    }

    // MARK: - Defaults

    /// Core Data's default instance creation: inserts one instance of the mapping's destination
    /// entity with each attribute mapping's value (the others keep their default) and associates
    /// it with `source`.
    public func createDefaultDestinationInstances(forSource source: MigrationObject, in mapping: EntityMapping) throws {
        guard let entity = mapping.destinationEntityName else { return }
        let scope = ExpressionScope(context: self, mapping: mapping, source: .object(source.reference))
        var values = [String: EvaluatedValue]()
        let late = mapping.attributeMappings.filter { $0.valueExpression?.contains("$destination") ?? false }
        for property in mapping.attributeMappings where !late.contains(property) {
            guard let value = try scope.evaluate(property) else { continue }
            values[property.name] = value
        }
        let created = try insertDestinationInstance(entity: entity, values: values)
        scope.destination = .object(created.reference)
        for property in late {
            guard let value = try scope.evaluate(property) else { continue }
            try created.setValue(value, forKey: property.name)
        }
        try associate(source: source, destination: created, mapping: mapping)
    }

    /// Core Data's default relationship creation: sets each relationship mapping's value on
    /// `destination`, with `$source` the instance it came from.
    public func createDefaultRelationships(forDestination destination: MigrationObject, in mapping: EntityMapping) throws {
        let mappingIndex = try index(ofMapping: mapping.name)
        let source = try associations.sources(of: destination.reference, mapping: mappingIndex).first
        let scope = ExpressionScope(context: self, mapping: mapping, source: source.map(EvaluatedValue.object) ?? .null)
        scope.destination = .object(destination.reference)
        for property in mapping.relationshipMappings {
            guard let value = try scope.evaluate(property) else { continue }
            try destination.setValue(value, forKey: property.name)
            reports[mappingIndex].relationshipsSet += value.elements.count
        }
    }
}
