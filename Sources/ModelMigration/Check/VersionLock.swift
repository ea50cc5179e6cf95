import ModelSchema

/// The hashes of the model versions that have shipped, kept in a lock file beside the model, so
/// that a later check notices a shipped version edited in place: the mistake that makes every
/// store it wrote unopenable, since Core Data finds a store's version by these hashes.
public struct VersionLock: Sendable, Codable, Equatable {
    /// One shipped version: each entity's hash and each of its stored properties' hashes (hex).
    public struct Version: Sendable, Codable, Equatable {
        public var name: String
        public var entities: [String: Entity]
    }

    public struct Entity: Sendable, Codable, Equatable {
        public var hash: String
        public var properties: [String: String]
    }

    public var model: String
    public var versions: [Version]

    /// Records every version of `bundle`.
    public init(bundle: ModelBundle) {
        model = bundle.name
        versions = bundle.versions.map(Self.record)
    }

    /// The hashes of one version, as recorded.
    static func record(_ version: ModelVersion) -> Version {
        let hasher = VersionHasher(version)
        let hierarchy = EntityHierarchy(version)
        var entities = [String: Entity]()
        for (name, hash) in hasher.entityHashes() {
            guard let entity = hierarchy.entity(named: name) else { continue }
            var properties = [String: String]()
            for attribute in hierarchy.attributes(of: entity) where !attribute.isTransient {
                properties[attribute.name] = hasher.attributeHash(attribute).hex
            }
            for relationship in hierarchy.relationships(of: entity) where !relationship.isTransient {
                properties[relationship.name] = hasher.relationshipHash(relationship, in: entity).hex
            }
            entities[name] = Entity(hash: hash.hex, properties: properties)
        }
        return Version(name: version.name, entities: entities)
    }

    /// One error (`M221`, `M222`) per shipped version that `bundle` no longer has as shipped:
    /// removed, or edited in place, saying which entity and property changed.
    public func editedVersions(in bundle: ModelBundle) -> [Diagnostic] {
        var diagnostics = [Diagnostic]()
        for shipped in versions {
            guard let version = bundle.version(named: shipped.name) else {
                diagnostics.append(
                    MigrationDiagnostics.shippedVersionRemoved(shipped.name).inFile(bundle.path))
                continue
            }
            let now = Self.record(version)
            guard now != shipped else { continue }
            let hierarchy = EntityHierarchy(version)
            for name in Set(shipped.entities.keys).union(now.entities.keys).sorted() {
                let before = shipped.entities[name], after = now.entities[name]
                guard before?.hash != after?.hash else { continue }
                let entity = hierarchy.entity(named: name)
                let change: String
                var location = entity?.location ?? .unknown
                if before == nil {
                    change = "entity '\(name)' was added"
                } else if after == nil {
                    change = "entity '\(name)' was removed"
                } else {
                    let changed = Set(before!.properties.keys).union(after!.properties.keys).sorted().filter { before!.properties[$0] != after!.properties[$0] }
                    if let first = changed.first, let entity {
                        location = (hierarchy.attributes(of: entity).first { $0.name == first }?.location)
                            ?? (hierarchy.relationships(of: entity).first { $0.name == first }?.location) ?? location
                    }
                    change = changed.isEmpty
                        ? "entity '\(name)' changed (its parent, abstractness, constraints or hash modifier)"
                        : "entity '\(name)' changed in " + changed.map { property in
                            before!.properties[property] == nil ? "'\(property)' (added)" : after!.properties[property] == nil ? "'\(property)' (removed)" : "'\(property)'"
                        }.joined(separator: ", ")
                }
                diagnostics.append(MigrationDiagnostics.shippedVersionEdited(shipped.name, change, at: location).inFile(version.path))
            }
        }
        return diagnostics
    }
}
