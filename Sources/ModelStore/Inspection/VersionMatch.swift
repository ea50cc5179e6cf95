import ModelSchema

/// Which version of a model made a store, found by comparing the store's entity version hashes
/// with each version's; when none is equal, the nearest version and how it differs.
public struct VersionMatch: Sendable {
    /// The version whose hashes equal the store's, if any.
    public var matched: ModelVersion?
    /// The version with the most entity hashes in common with the store (the matched one when
    /// there is one); among ties, the one with fewest differing entities, then the later one.
    public var nearest: ModelVersion?
    /// How the store's entities differ from the nearest version's.
    public var differences: [EntityDifference]
    /// The entity hashes of every version of the bundle, by version name, as computed to match.
    public var versionHashes: [String: [String: VersionHash]] = [:]

    /// Matches a store's hashes against every version of `bundle`. When several versions have
    /// the same hashes (a version that changed nothing Core Data hashes), the one whose version
    /// identifier the store records wins, else the latest.
    public init(storeHashes: [String: VersionHash], identifiers: [String] = [], bundle: ModelBundle) {
        var best: (version: ModelVersion, common: Int, differences: [EntityDifference])?
        matched = nil
        for version in bundle.versions {
            let hashes = VersionHasher(version).entityHashes()
            versionHashes[version.name] = hashes
            let differences = Self.differences(store: storeHashes, model: hashes)
            if differences.isEmpty, matched.map({ !identifiers.contains($0.versionIdentifier) }) ?? true {
                matched = version
            }
            let common = storeHashes.filter { hashes[$0.key] == $0.value }.count
            if best == nil || (common, -differences.count) >= (best!.common, -best!.differences.count) {
                best = (version, common, differences)
            }
        }
        if let matched {
            nearest = matched
            differences = []
        } else {
            nearest = best?.version
            differences = best?.differences ?? []
        }
    }

    static func differences(store: [String: VersionHash], model: [String: VersionHash]) -> [EntityDifference] {
        var result = [EntityDifference]()
        for name in Set(store.keys).union(model.keys).sorted() {
            switch (store[name], model[name]) {
            case (nil, _): result.append(EntityDifference(entity: name, change: .onlyInModel))
            case (_, nil): result.append(EntityDifference(entity: name, change: .onlyInStore))
            case (let a?, let b?) where a != b: result.append(EntityDifference(entity: name, change: .hashDiffers))
            default: break
            }
        }
        return result
    }
}

/// An entity whose version hash is not the same in a store and a model version.
public struct EntityDifference: Sendable, Hashable, Codable {
    public enum Change: String, Sendable, Codable {
        /// The store has the entity; the model version does not.
        case onlyInStore
        /// The model version has the entity; the store does not.
        case onlyInModel
        /// Both have it with different hashes: attributes, relationships or settings changed.
        case hashDiffers
    }

    public var entity: String
    public var change: Change
}
