import ModelExpression
import ModelSchema

/// `NSEntityMigrationPolicy` in Swift: the hooks the migration manager calls for each entity
/// mapping, in Core Data's order. Every hook has a default doing Core Data's
/// default work; an override that wants the default first calls the manager's
/// `createDefault…` method (Core Data's `super`), then adjusts.
///
/// Any hook that throws stops the migration; the store is left as it was.
public protocol EntityMigrationPolicy {
    /// Before the mapping's first instance is created.
    func begin(_ mapping: EntityMapping, manager: MigrationContext) throws
    /// Creates the destination instances of one source instance and associates them with it.
    func createDestinationInstances(forSource source: MigrationObject, in mapping: EntityMapping, manager: MigrationContext) throws
    /// After the mapping's last source instance.
    func endInstanceCreation(forEntityMapping mapping: EntityMapping, manager: MigrationContext) throws
    /// Sets the relationships of one destination instance the mapping created.
    func createRelationships(forDestination destination: MigrationObject, in mapping: EntityMapping, manager: MigrationContext) throws
    /// After the relationships of the mapping's last instance.
    func endRelationshipCreation(forEntityMapping mapping: EntityMapping, manager: MigrationContext) throws
    /// Checks of the policy's own, before the destination is validated and saved.
    func performCustomValidation(forEntityMapping mapping: EntityMapping, manager: MigrationContext) throws
    /// After everything of the mapping is done.
    func end(_ mapping: EntityMapping, manager: MigrationContext) throws
}

extension EntityMigrationPolicy {
    public func begin(_ mapping: EntityMapping, manager: MigrationContext) throws {}

    /// Core Data's default: one destination instance with the attribute mappings' values.
    public func createDestinationInstances(forSource source: MigrationObject, in mapping: EntityMapping, manager: MigrationContext) throws {
        try manager.createDefaultDestinationInstances(forSource: source, in: mapping)
    }

    public func endInstanceCreation(forEntityMapping mapping: EntityMapping, manager: MigrationContext) throws {}

    /// Core Data's default: the relationship mappings' values.
    public func createRelationships(forDestination destination: MigrationObject, in mapping: EntityMapping, manager: MigrationContext) throws {
        try manager.createDefaultRelationships(forDestination: destination, in: mapping)
    }

    public func endRelationshipCreation(forEntityMapping mapping: EntityMapping, manager: MigrationContext) throws {}
    public func performCustomValidation(forEntityMapping mapping: EntityMapping, manager: MigrationContext) throws {}
    public func end(_ mapping: EntityMapping, manager: MigrationContext) throws {}
}

/// The policy of a mapping that names none: Core Data's defaults only.
struct DefaultMigrationPolicy: EntityMigrationPolicy {}

/// A Swift function standing for a policy's Objective-C method, called by a value expression
/// `FUNCTION($entityPolicy, "selector:", arguments…)`.
public typealias PolicyFunction = (_ arguments: [EvaluatedValue], _ manager: MigrationContext) throws -> EvaluatedValue
