import ModelSchema

/// A model version with the look-ups every rule needs: entities by name, ancestors and the
/// properties each entity sees (own and inherited).
struct ValidationContext: Sendable {
    let version: ModelVersion
    /// The position in `version.entities` of the first entity declared with each name; positions
    /// rather than entities, so that building it and looking names up copies no entity.
    private let positionsByName: [String: Int]

    init(_ version: ModelVersion) {
        self.version = version
        var positions = [String: Int](minimumCapacity: version.entities.count)
        for index in version.entities.indices {
            positions[version.entities[index].name] = positions[version.entities[index].name] ?? index
        }
        positionsByName = positions
    }

    var entities: [Entity] { version.entities }

    /// Whether the model declares an entity with this name.
    func hasEntity(named name: String) -> Bool {
        positionsByName[name] != nil
    }

    /// The first entity declared with this name.
    func entity(named name: String) -> Entity? {
        positionsByName[name].map { version.entities[$0] }
    }

    /// The entity's superentities, nearest first, stopping before any cycle or unknown name.
    func ancestors(of entity: Entity) -> [Entity] {
        guard entity.parentEntityName != nil else { return [] }
        var result = [Entity]()
        var seen: Set<String> = [entity.name]
        var current = entity
        while let parentName = current.parentEntityName, let parent = self.entity(named: parentName),
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
        guard let other = self.entity(named: name) else { return false }
        return ancestors(of: other).contains { $0.name == entity.name }
    }

    /// The property named `name` that the entity sees; its own declaration wins.
    func visibleProperty(named name: String, of entity: Entity) -> Property? {
        if let property = Self.ownProperty(named: name, of: entity) { return property }
        for ancestor in ancestors(of: entity) {
            if let property = Self.ownProperty(named: name, of: ancestor) { return property }
        }
        return nil
    }

    /// The entity's own property named `name`, found as `Entity.property(named:)` finds it, but
    /// comparing names in place instead of copying every property on the way.
    static func ownProperty(named name: String, of entity: Entity) -> Property? {
        if let index = entity.attributes.indices.first(where: { entity.attributes[$0].name == name }) {
            return .attribute(entity.attributes[index])
        }
        if let index = entity.relationships.indices.first(where: { entity.relationships[$0].name == name }) {
            return .relationship(entity.relationships[index])
        }
        if let index = entity.fetchedProperties.indices.first(where: { entity.fetchedProperties[$0].name == name }) {
            return .fetched(entity.fetchedProperties[index])
        }
        return nil
    }

    static func ownProperties(_ entity: Entity) -> [Property] {
        entity.attributes.map(Property.attribute) + entity.relationships.map(Property.relationship)
            + entity.fetchedProperties.map(Property.fetched)
    }
}
