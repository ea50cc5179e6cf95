import ModelExpression
import ModelMigration
import ModelSchema

/// CoreDataPlus's `V2to3MakerPolicy`, ported: each car is migrated as Core Data's default
/// does, then its old `maker` string becomes a shared `Maker` instance (found by name among
/// those already migrated, inserted the first time) that the car's `createdBy` points to.
struct MakerPolicy: EntityMigrationPolicy {
    func createDestinationInstances(forSource source: MigrationObject, in mapping: EntityMapping, manager: MigrationContext) throws {
        try manager.createDefaultDestinationInstances(forSource: source, in: mapping)
        guard case .string(let name) = try source.value(forKey: "maker") else { return }
        guard let car = try manager.destinationInstances(forEntityMappingName: mapping.name, sourceInstances: [source]).first else {
            throw EvaluationError("entity mapping '\(mapping.name)' created no car")
        }
        let maker = try manager.destinationInstances(entity: "Maker", where: "name", equals: .string(name)).first
            ?? manager.insertDestinationInstance(entity: "Maker", values: ["name": .string(name)])
        try car.setObjects([maker], forKey: "createdBy")
    }
}
