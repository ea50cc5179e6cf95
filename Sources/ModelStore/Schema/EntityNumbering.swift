import ModelSchema

/// Core Data's entity numbers (`Z_ENT`): root entities in name order, each followed depth-first
/// by its subentities, also in name order, counting from 1 (FORMATS §6.1).
struct EntityNumbering: Sendable {
    /// The version's entities with their inheritance.
    let entities: EntityHierarchy
    /// Entities in number order.
    private(set) var ordered: [Entity] = []
    private(set) var numbers: [String: Int] = [:]
    private(set) var children: [String: [String]] = [:]

    init(_ version: ModelVersion) {
        entities = EntityHierarchy(version)
        var roots = [String]()
        for entity in version.entities {
            if let parent = entities.parent(of: entity) {
                children[parent.name, default: []].append(entity.name)
            } else {
                roots.append(entity.name)
            }
        }
        for name in roots.sorted() { visit(name) }
    }

    private mutating func visit(_ name: String) {
        guard numbers[name] == nil, let entity = entities.entity(named: name) else { return }
        ordered.append(entity)
        numbers[name] = ordered.count
        for child in (children[name] ?? []).sorted() { visit(child) }
    }

    func hasSubentities(_ name: String) -> Bool {
        !(children[name] ?? []).isEmpty
    }

    /// The entity followed by all its descendants, in number order.
    func hierarchy(of root: Entity) -> [Entity] {
        var result = [root]
        for child in (children[root.name] ?? []).sorted() {
            if let entity = entities.entity(named: child) { result += hierarchy(of: entity) }
        }
        return result
    }
}
