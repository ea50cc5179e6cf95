/// A model version's entities by name with their inheritance: parents, lineages, roots, and the
/// stored properties each entity has, its own and inherited. The store layout and the migrator
/// both walk hierarchies through it.
public struct EntityHierarchy: Sendable {
    public let version: ModelVersion
    private var byName: [String: Entity] = [:]

    public init(_ version: ModelVersion) {
        self.version = version
        for entity in version.entities { byName[entity.name] = entity }
    }

    public func entity(named name: String) -> Entity? { byName[name] }

    /// The entity's parent, when the model has it.
    public func parent(of entity: Entity) -> Entity? {
        entity.parentEntityName.flatMap { byName[$0] }
    }

    /// The entity and its ancestors, nearest first; an inheritance cycle ends the walk.
    public func lineage(of entity: Entity) -> [Entity] {
        var result = [entity]
        var seen: Set<String> = [entity.name]
        while let parent = result.last.flatMap(parent(of:)), seen.insert(parent.name).inserted {
            result.append(parent)
        }
        return result
    }

    /// The nearest of the entity and its ancestors that passes `test`, walking up only as far
    /// as that one; an inheritance cycle ends the walk.
    private func nearest(from entity: Entity, where test: (Entity) -> Bool) -> Entity? {
        var current = entity
        var seen: Set<String> = [entity.name]
        while !test(current) {
            guard let parent = parent(of: current), seen.insert(parent.name).inserted else { return nil }
            current = parent
        }
        return current
    }

    /// Whether the entity `name` is `ancestor` or one of its subentities.
    public func isKind(_ name: String, of ancestor: String) -> Bool {
        byName[name].flatMap { nearest(from: $0) { $0.name == ancestor } } != nil
    }

    /// The top-most ancestor, whose table holds the whole hierarchy.
    public func root(of entity: Entity) -> Entity { lineage(of: entity).last ?? entity }

    /// Stored (non-transient) attributes, inherited ones first.
    public func attributes(of entity: Entity) -> [Attribute] {
        lineage(of: entity).reversed().flatMap { $0.attributes.filter { !$0.isTransient } }
    }

    /// Stored (non-transient) relationships, inherited ones first.
    public func relationships(of entity: Entity) -> [Relationship] {
        lineage(of: entity).reversed().flatMap { $0.relationships.filter { !$0.isTransient } }
    }

    /// The entity, `entityName` or one of its ancestors, that declares the relationship `name`.
    public func declaringEntity(ofRelationship name: String, from entityName: String) -> Entity? {
        byName[entityName].flatMap { nearest(from: $0) { $0.relationships.contains { $0.name == name } } }
    }

    /// The relationship `name` of `entityName` or of one of its ancestors.
    public func relationship(named name: String, in entityName: String) -> Relationship? {
        declaringEntity(ofRelationship: name, from: entityName)?.relationships.first { $0.name == name }
    }

    /// The inverse of a relationship, looked up on its destination and the destination's ancestors.
    public func inverse(of relationship: Relationship) -> Relationship? {
        guard let name = relationship.inverseName, let destination = byName[relationship.destinationEntityName] else { return nil }
        return relationships(of: destination).first { $0.name == name }
    }
}
