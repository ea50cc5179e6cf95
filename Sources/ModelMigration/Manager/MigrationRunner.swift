import Foundation
import GRDB
import ModelExpression
import ModelSchema
import ModelStore

/// What one entity mapping did, counted from the data.
public struct EntityMappingReport: Sendable, Hashable, Codable {
    public var name: String
    public var type: String
    public var sourceEntity: String?
    public var destinationEntity: String?
    public var instancesCreated = 0
    public var relationshipsSet = 0
    /// Non-empty source values of attributes no property mapping reads.
    public var valuesDropped = 0
    /// Destination values that fail validation (required, bounds).
    public var validationFailures = 0

    init(_ mapping: EntityMapping) {
        name = mapping.name
        type = mapping.type.name
        sourceEntity = mapping.sourceEntityName
        destinationEntity = mapping.destinationEntityName
    }
}

/// The three passes of Core Data's migration over a mapping model's entity mappings, in
/// mapping order: create destination instances from the source fetch (the source
/// entity's own instances, not its subentities', which have mappings of their own), create
/// relationships, validate; each source and destination walk in bounded batches.
struct MigrationRunner {
    static let batchSize = 500

    let context: MigrationContext
    let policies: [any EntityMigrationPolicy]
    /// Receives (entity mapping, done, total) as instances are processed.
    let progress: ((String, Int, Int) -> Void)?
    /// The SQL functions of the set-based path; nil runs every mapping row by row.
    let functions: SQLFunctions?

    /// Runs the passes; returns what each mapping did.
    func run(countingOnly: Bool) throws -> [EntityMappingReport] {
        let mappings = context.mappingModel.entityMappings
        var totals = [Int]()
        for mapping in mappings { totals.append(try sourceCount(mapping)) }
        for (index, mapping) in mappings.enumerated() where totals[index] > 0 { try requireDestinationTable(mapping) }
        let grandTotal = max(1, totals.reduce(0, +) * 2)
        var done = 0
        for (index, mapping) in mappings.enumerated() {
            context.currentEntityMapping = mapping
            try hook(mapping) { try policies[index].begin(mapping, manager: context) }
            if let fast = setBased(mapping, index) {
                context.reports[index].instancesCreated += try hook(mapping) { try fast.createInstances() }
                done += totals[index]
                progress?(mapping.name, totals[index], totals[index])
            } else {
                try createInstances(mapping, index: index, total: totals[index]) { done += 1; context.migrationProgress = Double(done) / Double(grandTotal) }
            }
            try hook(mapping) { try policies[index].endInstanceCreation(forEntityMapping: mapping, manager: context) }
        }
        for (index, mapping) in mappings.enumerated() {
            context.currentEntityMapping = mapping
            if let fast = setBased(mapping, index), let links = try fast.toOneLinks() {
                context.reports[index].relationshipsSet += try hook(mapping) { try fast.createRelationships(links) }
                try hook(mapping) { try policies[index].endRelationshipCreation(forEntityMapping: mapping, manager: context) }
                continue
            }
            var last: Int64 = 0
            while true {
                let batch = try context.associations.created(by: index, after: last, limit: Self.batchSize)
                guard let end = batch.last else { break }
                for (_, created) in batch {
                    let object = MigrationObject(created, context: context)
                    try hook(mapping) { try policies[index].createRelationships(forDestination: object, in: mapping, manager: context) }
                }
                last = end.0
                done += batch.count
                context.migrationProgress = Double(done) / Double(grandTotal)
            }
            try hook(mapping) { try policies[index].endRelationshipCreation(forEntityMapping: mapping, manager: context) }
        }
        let validation = MappingValidation(rows: context.destination)
        for (index, mapping) in mappings.enumerated() {
            context.currentEntityMapping = mapping
            try hook(mapping) { try policies[index].performCustomValidation(forEntityMapping: mapping, manager: context) }
            context.reports[index].valuesDropped = try MappingValidation.droppedValues(of: mapping, in: context.source)
            if let entity = mapping.destinationEntityName, !mappings[..<index].contains(where: { $0.destinationEntityName == entity }) {
                let failures = try validation.failures(of: entity)
                context.reports[index].validationFailures = failures.count
                if !countingOnly, let first = failures.first {
                    throw MigrationError(
                        .validationFailed, code: failures.code, path: context.path,
                        message: "entity mapping '\(mapping.name)': \(failures.count) migrated '\(entity)' values are not valid (\(first))")
                }
            }
            try hook(mapping) { try policies[index].end(mapping, manager: context) }
        }
        context.migrationProgress = 1
        return context.reports
    }

    /// The set-based path of a mapping that can take it.
    private func setBased(_ mapping: EntityMapping, _ index: Int) -> SetBasedMapping? {
        guard let functions, SetBasedMapping.canCreate(mapping, in: context) else { return nil }
        return SetBasedMapping(context: context, mapping: mapping, index: index, functions: functions)
    }

    /// How many source instances the mapping's fetch reads before its filter.
    private func sourceCount(_ mapping: EntityMapping) throws -> Int {
        guard runsOnSources(mapping), let entity = mapping.sourceExpression?.entityName ?? mapping.sourceEntityName else { return 0 }
        return try context.source.count(of: entity)
    }

    /// Whether the mapping creates instances from source instances (copy, transform, custom):
    /// not from an entity of the source version that the store does not hold (another
    /// configuration's), which Core Data's fetch from this store finds no instances of.
    private func runsOnSources(_ mapping: EntityMapping) -> Bool {
        guard mapping.type != .add, mapping.type != .remove, mapping.sourceEntityName != nil,
            let entity = mapping.sourceExpression?.entityName ?? mapping.sourceEntityName
        else { return false }
        return context.source.layout.entity(named: entity) != nil || context.source.entities.entity(named: entity) == nil
    }

    /// Refuses, before anything is created, a mapping whose source instances would become
    /// instances of an entity of the destination version that the new store does not hold (a
    /// store of one configuration lacks the others' entities): they would have no table to go to.
    private func requireDestinationTable(_ mapping: EntityMapping) throws {
        guard let entity = mapping.destinationEntityName, context.destination.layout.entity(named: entity) == nil,
            context.destination.entities.entity(named: entity) != nil
        else { return }
        throw MigrationError(
            .failed, path: context.path,
            message: "entity mapping '\(mapping.name)' would make instances of '\(entity)', which the store's configuration does not hold")
    }

    /// Pass 1 for one mapping: each source instance the fetch and filter select, in key order.
    private func createInstances(_ mapping: EntityMapping, index: Int, total: Int, step: () -> Void) throws {
        guard runsOnSources(mapping), let entity = mapping.sourceExpression?.entityName ?? mapping.sourceEntityName else { return }
        let filter = try mapping.sourceExpression.map { expression -> PredicateNode in
            do {
                return try expression.parsedPredicate()
            } catch {
                throw MigrationError(.policyFailed, path: context.path, message: "entity mapping '\(mapping.name)': cannot read its filter '\(expression.predicate)': \(error)")
            }
        } ?? .truePredicate
        let evaluator = ExpressionEvaluator(context: ExpressionScope(context: context, mapping: mapping))
        var last: Int64 = 0, done = 0
        while true {
            let keys = try context.source.primaryKeys(of: entity, after: last, limit: Self.batchSize)
            guard let end = keys.last else { break }
            for key in keys {
                let source = ObjectReference(side: .source, entity: entity, primaryKey: key)
                if filter != .truePredicate {
                    let selected = try hook(mapping) { try evaluator.evaluate(filter, on: .object(source)) }
                    if !selected { step(); continue }
                }
                let object = MigrationObject(source, context: context)
                try hook(mapping) { try policies[index].createDestinationInstances(forSource: object, in: mapping, manager: context) }
                step()
            }
            last = end
            done += keys.count
            progress?(mapping.name, done, total)
        }
    }

    /// Runs a hook; a failure that is not already a migration error becomes one naming the mapping.
    @discardableResult
    private func hook<T>(_ mapping: EntityMapping, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as MigrationError {
            throw error
        } catch let error as StoreError {
            throw context.storeFailure(error)
        } catch let error as DatabaseError {
            throw MigrationError(sqlite: error, path: context.path, step: nil)
        } catch {
            throw MigrationError(.policyFailed, path: context.path, message: "entity mapping '\(mapping.name)' failed: \(error)")
        }
    }
}
