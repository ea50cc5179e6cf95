import ModelSchema

/// A model version with the look-ups every rule needs: entities by name, ancestors and the
/// properties each entity sees (own and inherited).
struct ValidationContext: Sendable {
    let version: ModelVersion
    /// The first entity declared with each name.
    let entitiesByName: [String: Entity]

    init(_ version: ModelVersion) {
        self.version = version
        var byName = [String: Entity]()
        for entity in version.entities where byName[entity.name] == nil {
            byName[entity.name] = entity
        }
        entitiesByName = byName
    }

    var entities: [Entity] { version.entities }

    /// The entity's superentities, nearest first, stopping before any cycle or unknown name.
    func ancestors(of entity: Entity) -> [Entity] {
        var result = [Entity]()
        var seen: Set<String> = [entity.name]
        var current = entity
        while let parentName = current.parentEntityName, let parent = entitiesByName[parentName],
            seen.insert(parent.name).inserted
        {
            result.append(parent)
            current = parent
        }
        return result
    }

    /// Whether `name` is the entity itself or one of its ancestors or descendants.
    func isInHierarchyLine(_ name: String, of entity: Entity) -> Bool {
        if name == entity.name || ancestors(of: entity).contains(where: { $0.name == name }) { return true }
        guard let other = entitiesByName[name] else { return false }
        return ancestors(of: other).contains { $0.name == entity.name }
    }

    /// The property named `name` that the entity sees; its own declaration wins.
    func visibleProperty(named name: String, of entity: Entity) -> Property? {
        for candidate in [entity] + ancestors(of: entity) {
            if let property = candidate.property(named: name) { return property }
        }
        return nil
    }

    static func ownProperties(_ entity: Entity) -> [Property] {
        entity.attributes.map(Property.attribute) + entity.relationships.map(Property.relationship)
            + entity.fetchedProperties.map(Property.fetched)
    }
}
