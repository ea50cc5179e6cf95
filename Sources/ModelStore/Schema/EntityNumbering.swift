import ModelSchema

/// Core Data's entity numbers (`Z_ENT`): root entities in name order, each followed depth-first
/// by its subentities, also in name order, counting from 1 (FORMATS §6.1).
struct EntityNumbering: Sendable {
    /// Entities in number order.
    private(set) var ordered: [Entity] = []
    private(set) var numbers: [String: Int] = [:]
    private(set) var children: [String: [String]] = [:]
    private var entitiesByName: [String: Entity] = [:]

    init(_ version: ModelVersion) {
        for entity in version.entities {
            entitiesByName[entity.name] = entity
        }
        var roots = [String]()
        for entity in version.entities {
            if let parent = entity.parentEntityName, entitiesByName[parent] != nil {
                children[parent, default: []].append(entity.name)
            } else {
                roots.append(entity.name)
            }
        }
        for name in roots.sorted() { visit(name) }
    }

    private mutating func visit(_ name: String) {
        guard numbers[name] == nil, let entity = entitiesByName[name] else { return }
        ordered.append(entity)
        numbers[name] = ordered.count
        for child in (children[name] ?? []).sorted() { visit(child) }
    }

    func entity(named name: String) -> Entity? { entitiesByName[name] }

    /// The entity's parent, when it has one in the model.
    func parent(of entity: Entity) -> Entity? {
        entity.parentEntityName.flatMap { entitiesByName[$0] }
    }

    /// The top-most ancestor, whose table holds the whole hierarchy.
    func root(of entity: Entity) -> Entity {
        var current = entity
        while let parent = parent(of: current) { current = parent }
        return current
    }

    func hasSubentities(_ name: String) -> Bool {
        !(children[name] ?? []).isEmpty
    }

    /// The entity followed by all its descendants, in number order.
    func hierarchy(of root: Entity) -> [Entity] {
        var result = [root]
        for child in (children[root.name] ?? []).sorted() {
            if let entity = entitiesByName[child] { result += hierarchy(of: entity) }
        }
        return result
    }
}

extension EntityNumbering {
    /// The relationship with this name on the entity or one of its ancestors.
    func relationship(named name: String, in entityName: String) -> Relationship? {
        declaringEntity(of: name, in: entityName)?.relationships.first { $0.name == name }
    }

    /// The entity, this one or an ancestor, that declares the relationship with this name.
    func declaringEntity(of relationshipName: String, in entityName: String) -> Entity? {
        var current = entity(named: entityName)
        while let entity = current {
            if entity.relationships.contains(where: { $0.name == relationshipName }) { return entity }
            current = parent(of: entity)
        }
        return nil
    }
}
