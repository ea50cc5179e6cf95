import ModelSchema

/// The layout of a store added for one configuration of a model: only the tables, indexes,
/// triggers and `Z_PRIMARYKEY` rows of the configuration's entities, as Core Data's SQL model
/// for a configuration holds only that configuration's entities (Documentation/Stores.md,
/// "Configurations and several stores"). Entity numbers stay the model's, so that an entity has
/// one number in every store of the model.
extension StoreLayout {
    /// Lays out the store of configuration `configuration` of `version`; the default
    /// configuration (nil) and a name the model lacks lay out every entity.
    public init(
        _ version: ModelVersion, framework: FrameworkVersion = .current, persistentHistory: Bool = false, configuration: String?
    ) {
        self.init(version, framework: framework, persistentHistory: persistentHistory)
        guard !ModelVersion.isDefaultConfiguration(configuration), let names = version.storedEntityNames(inConfiguration: configuration) else { return }
        restrict(to: names)
    }

    /// Keeps only what belongs to `names` (the members and their superentities, whose table a
    /// member's rows share): other tables, join tables with a side outside, their indexes and
    /// triggers, and other entities' `Z_PRIMARYKEY` rows are dropped.
    private mutating func restrict(to names: Set<String>) {
        let kept = entities.filter { names.contains($0.name) }
        let entityTables = Set(entities.map(\.table))
        let keptJoins = joinTables.filter { names.contains($0.entity) && names.contains($0.inverseEntity) }
        let droppedTables = entityTables.subtracting(kept.map(\.table)).union(joinTables.map(\.table.name)).subtracting(keptJoins.map(\.table.name))
        entities = kept
        joinTables = keptJoins
        hiddenInverses = hiddenInverses.filter { names.contains($0.entity) }
        schema = StoreSchema(
            tables: schema.tables.filter { !droppedTables.contains($0.name) },
            indexes: schema.indexes.filter { !droppedTables.contains($0.table) },
            entities: schema.entities.filter { $0.number >= PersistentHistoryLayout.firstEntityNumber || names.contains($0.name) },
            triggers: schema.triggers.filter { !droppedTables.contains($0.table) })
    }
}
