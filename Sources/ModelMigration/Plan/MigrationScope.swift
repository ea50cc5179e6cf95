import ModelSchema
import ModelStore

/// The entities a migration of one store considers: every entity of the model, or, for a store
/// added for a named configuration, that configuration's entities and their superentities, as
/// the store holds them (Documentation/Stores.md, "Configurations and several stores"). Layouts
/// and inferred mappings are the scope's; entity numbers and metadata hashes stay the whole
/// model's, as creation writes them.
struct MigrationScope {
    /// The configuration the store was added for; nil (or a name of the default one) for every entity.
    let configuration: String?

    /// Whether the scope is a named configuration's rather than every entity.
    var isConfiguration: Bool { !ModelVersion.isDefaultConfiguration(configuration) }

    /// Refuses `version` when it has no such configuration, with the class and code a load for
    /// an unknown configuration fails with (`incompatibleSchema`, 134020).
    func check(_ version: ModelVersion, path: String) throws {
        guard version.entityNames(inConfiguration: configuration) == nil else { return }
        let available = version.configurations.map { "'\($0.name)'" }.joined(separator: ", ")
        throw MigrationError(
            .store(.incompatibleSchema), path: path,
            message: "version '\(version.name)' of the model has no configuration named '\(configuration ?? "")'; it has " + (available.isEmpty ? "none" : available))
    }

    /// `version` laid out as the store holds it.
    func layout(_ version: ModelVersion, framework: FrameworkVersion) -> StoreLayout {
        StoreLayout(version, framework: framework, configuration: configuration)
    }

    /// The entities the store holds in `source` and in `destination`, for the inference; nil
    /// for every entity.
    func storedEntities(_ source: ModelVersion, _ destination: ModelVersion) -> (source: Set<String>, destination: Set<String>)? {
        guard isConfiguration, let from = source.storedEntityNames(inConfiguration: configuration),
            let to = destination.storedEntityNames(inConfiguration: configuration)
        else { return nil }
        return (from, to)
    }

    /// Whether a store of the configuration is already at `destination` although its metadata
    /// names another version, as `store check --configuration` finds it: each of the
    /// configuration's entities has its `destinationHashes` hash in the metadata, as
    /// `isConfiguration(withName:compatibleWithStoreMetadata:)` decides when Core Data loads it
    /// (so it does not migrate it), and the store's tables and `Z_PRIMARYKEY` rows are the
    /// configuration's at `destination` (a new entity elsewhere in the model can renumber its
    /// entities, which a migration puts right). Always false for every entity.
    func isCurrent(
        _ metadata: StoreMetadata, schema: @autoclosure () throws -> StoreSchema, destination: ModelVersion, destinationHashes: [String: VersionHash]
    ) rethrows -> Bool {
        guard isConfiguration, let names = destination.entityNames(inConfiguration: configuration),
            names.allSatisfy({ metadata.versionHashes[$0] == destinationHashes[$0] })
        else { return false }
        return layout(destination, framework: metadata.framework).schema.differences(from: try schema()).allSatisfy(\.isCompatible)
    }
}
