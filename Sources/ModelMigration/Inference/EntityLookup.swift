import ModelSchema

/// A model version's entities by name, with their inherited properties and roots: what the
/// inference needs to compare two versions.
struct EntityLookup {
    let version: ModelVersion
    private var byName: [String: Entity] = [:]

    init(_ version: ModelVersion) {
        self.version = version
        for entity in version.entities { byName[entity.name] = entity }
    }

    func entity(_ name: String) -> Entity? { byName[name] }

    /// The entity and its ancestors, nearest first.
    func lineage(of entity: Entity) -> [Entity] {
        var result = [entity]
        var seen: Set<String> = [entity.name]
        while let parentName = result.last?.parentEntityName, let parent = byName[parentName], seen.insert(parentName).inserted {
            result.append(parent)
        }
        return result
    }

    func root(of entity: Entity) -> Entity { lineage(of: entity).last ?? entity }

    /// Stored attributes, own and inherited.
    func attributes(of entity: Entity) -> [Attribute] {
        lineage(of: entity).reversed().flatMap { $0.attributes.filter { !$0.isTransient } }
    }

    /// Stored relationships, own and inherited.
    func relationships(of entity: Entity) -> [Relationship] {
        lineage(of: entity).reversed().flatMap { $0.relationships.filter { !$0.isTransient } }
    }

    /// The inverse of a relationship, looked up on its destination and the destination's ancestors.
    func inverse(of relationship: Relationship) -> Relationship? {
        guard let name = relationship.inverseName, let destination = byName[relationship.destinationEntityName] else { return nil }
        return relationships(of: destination).first { $0.name == name }
    }
}
