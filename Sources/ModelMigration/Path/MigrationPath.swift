import ModelSchema
import ModelStore

/// The versions a migration goes through, as Core Data picks them: the store's version, then
/// the destination, in one direct step, whatever the versions' names or their order in the
/// bundle. Stages through other versions exist only when the caller names them (Apple's staged
/// migration, CoreStore's progressive migration).
struct MigrationPath {
    let bundle: ModelBundle
    /// The store's version, each named stage, and the destination.
    let versions: [ModelVersion]
    /// The entities the store holds, which every inferred mapping is limited to.
    let scope: MigrationScope
    private var knownHashes: [String: [String: VersionHash]]

    /// `destination` `nil` means the current version; a stage equal to its neighbour is skipped.
    init(
        bundle: ModelBundle, from source: ModelVersion, to destination: String?, through stages: [String], scope: MigrationScope,
        knownHashes: [String: [String: VersionHash]]
    ) throws {
        self.bundle = bundle
        self.scope = scope
        self.knownHashes = knownHashes
        guard let end = destination.map({ bundle.version(named: $0) }) ?? bundle.currentVersion else {
            throw MigrationError(.unknownVersion, path: bundle.path, message: "the model has no version '\(destination ?? "")'")
        }
        var versions = [source]
        for name in stages {
            guard let stage = bundle.version(named: name) else {
                throw MigrationError(.unknownVersion, path: bundle.path, message: "the model has no version '\(name)' (in --through)")
            }
            if stage.name != versions[versions.count - 1].name { versions.append(stage) }
        }
        if end.name != versions[versions.count - 1].name { versions.append(end) }
        self.versions = versions
    }

    /// The entity hashes of a version, computed once.
    func hashes(_ version: ModelVersion) -> [String: VersionHash] {
        knownHashes[version.name] ?? VersionHasher(version).entityHashes()
    }

    /// The inferred mapping of each step.
    mutating func mappings() -> [InferredMapping] {
        versions.indices.dropLast().map { mapping(versions[$0], versions[$0 + 1]) }
    }

    /// Stages through the bundle's versions, in bundle order, between the store's version and
    /// the destination, each step through one of `mappingModels` whose hashes match it, or
    /// inferred and possible: for a step from the store's version, as `storeRows` decides from
    /// the store's rows; for a later one, whatever the rows. The fewest found by taking, from
    /// each version, the furthest one it reaches. `nil` when there is none (or the store's
    /// version comes after the destination in the bundle).
    mutating func stagesThatWork(mappingModels: [MappingModel] = [], storeRows: (InferredMapping) -> Bool) -> [String]? {
        let all = bundle.versions
        guard let first = all.firstIndex(where: { $0.name == versions[0].name }),
            let last = all.firstIndex(where: { $0.name == versions[versions.count - 1].name }), first < last
        else { return nil }
        var stages = [String](), current = first
        while current < last {
            let works = { (next: Int) -> Bool in
                if self.hasMappingModel(mappingModels, all[current], all[next]) { return true }
                let inferred = self.mapping(all[current], all[next])
                return inferred.isPossible || (current == first && inferred.couldBePossible && storeRows(inferred))
            }
            guard let next = (current + 1...last).reversed().first(where: works) else { return nil }
            if next < last { stages.append(all[next].name) }
            current = next
        }
        return stages.isEmpty ? nil : stages
    }

    /// Whether one of `models` is made for the step from `source` to `destination`.
    private mutating func hasMappingModel(_ models: [MappingModel], _ source: ModelVersion, _ destination: ModelVersion) -> Bool {
        guard !models.isEmpty else { return false }
        let (from, to) = (cachedHashes(source), cachedHashes(destination))
        return models.contains { $0.matches(source: from, destination: to) }
    }

    /// The entity hashes of a version, computed once and kept.
    private mutating func cachedHashes(_ version: ModelVersion) -> [String: VersionHash] {
        if let known = knownHashes[version.name] { return known }
        let hashes = VersionHasher(version).entityHashes()
        knownHashes[version.name] = hashes
        return hashes
    }

    private mutating func mapping(_ source: ModelVersion, _ destination: ModelVersion) -> InferredMapping {
        MappingInference.infer(
            from: source, to: destination, sourceHashes: cachedHashes(source), destinationHashes: cachedHashes(destination),
            storedEntities: scope.storedEntities(source, destination))
    }
}
