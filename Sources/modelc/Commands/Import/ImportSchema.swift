import ModelObjects
import ModelSchema

/// The model as an import looks it up: per entity, its description and its properties by name,
/// built once (``EntityDescription``'s by-name tables are computed on each use), which
/// entities a relationship may link to, and which relationships a save checks for contents.
struct ImportSchema {
    struct Entity {
        let description: EntityDescription
        let attributes: [String: Attribute]
        let relationships: [String: Relationship]
    }

    private let entities: [String: Entity]

    init(_ model: ManagedObjectModel) {
        entities = model.entitiesByName.mapValues { description in
            Entity(description: description, attributes: description.attributesByName, relationships: description.relationshipsByName)
        }
    }

    subscript(name: String) -> Entity? { entities[name] }

    /// Whether an object of entity `name` may be a destination of `relationship`: its
    /// destination entity or one of that entity's subentities.
    func isKind(_ name: String, of relationship: Relationship) -> Bool {
        var current: String? = name
        // At most one step per entity, so a model with a cycle of superentities cannot loop.
        for _ in 0...entities.count {
            guard let entity = current else { return false }
            if entity == relationship.destinationEntityName { return true }
            current = entities[entity]?.description.superentityName
        }
        return false
    }

    /// Whether a save refuses an object for what `relationship` holds, as ``ObjectValidator``
    /// checks it: a required to-one (1570) or a to-many with a minimum count (1580). Such a
    /// relationship must be whole in the save that inserts its object.
    static func isConstrained(_ relationship: Relationship) -> Bool {
        relationship.isToMany ? (relationship.minCount ?? 0) > 0 : !relationship.isOptional
    }
}
