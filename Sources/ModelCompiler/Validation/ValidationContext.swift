import ModelSchema

/// A model version with the look-ups every rule needs: entities by name, inheritance and the
/// properties each entity sees (own and inherited), each in time independent of the depth of
/// inheritance on a chain.
struct ValidationContext: Sendable {
    let version: ModelVersion
    let options: ModelValidator.Options
    /// The position in `version.entities` of the first entity declared with each name; positions
    /// rather than entities, so that building it and looking names up copies no entity.
    private let positionsByName: [String: Int]

    /// The inheritance forest, for rules that need ancestors without walking them.
    let inheritance: InheritanceIndex
    /// For each property name, the entities with subentities that declare it, in preorder: where
    /// an inherited property is looked up.
    private let inheritedDeclarers: [String: [Int]]

    init(_ version: ModelVersion, options: ModelValidator.Options) {
        self.version = version
        self.options = options
        var positions = [String: Int](minimumCapacity: version.entities.count)
        for index in version.entities.indices {
            positions[version.entities[index].name] = positions[version.entities[index].name] ?? index
        }
        positionsByName = positions
        inheritance = InheritanceIndex(version.entities, positionsByName: positions)
        var hasSubentities = [Bool](repeating: false, count: version.entities.count)
        for parent in inheritance.parents { if let parent { hasSubentities[parent] = true } }
        var declarers = [String: [Int]]()
        for position in inheritance.preorder where hasSubentities[position] {
            for name in version.entities[position].ownPropertyNames where declarers[name]?.last != position {
                declarers[name, default: []].append(position)
            }
        }
        inheritedDeclarers = declarers
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

    /// The position of the entity declared first with the entity's name.
    func position(of entity: Entity) -> Int? {
        positionsByName[entity.name]
    }

    /// The nearest of the entity at `position` and its ancestors that declares a property `name`.
    func nearestDeclaring(_ name: String, from position: Int) -> Int? {
        inheritedDeclarers[name].flatMap { inheritance.nearest(of: $0, toAncestorsOf: position) }
    }

    /// Whether `name` is the entity itself or one of its ancestors or descendants.
    func isInHierarchyLine(_ name: String, of entity: Entity) -> Bool {
        if name == entity.name { return true }
        guard let other = positionsByName[name], let own = position(of: entity) else { return false }
        return inheritance.isAncestorOrSelf(other, of: own) || inheritance.isAncestorOrSelf(own, of: other)
    }

    /// The property named `name` that the entity sees; its own declaration wins.
    func visibleProperty(named name: String, of entity: Entity) -> Property? {
        if let property = Self.ownProperty(named: name, of: entity) { return property }
        guard let own = position(of: entity), let parent = inheritance.parents[own],
            let declaring = nearestDeclaring(name, from: parent)
        else { return nil }
        return Self.ownProperty(named: name, of: version.entities[declaring])
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
