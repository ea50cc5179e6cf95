import ModelSchema

/// Core Data's entity numbers (`Z_ENT`): root entities in case-insensitive name order
/// (`EntityNameOrder`), each followed depth-first by its subentities, also in that order,
/// counting from 1 (FORMATS §6.1).
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
        children = children.mapValues(EntityNameOrder.sorted)
        for name in EntityNameOrder.sorted(roots) { visit(name) }
    }

    private mutating func visit(_ name: String) {
        guard numbers[name] == nil, let entity = entities.entity(named: name) else { return }
        ordered.append(entity)
        numbers[name] = ordered.count
        for child in children[name] ?? [] { visit(child) }
    }

    /// Every entity in case-insensitive name order, subentities among the others: the order in
    /// which Core Data walks entities to lay out join tables.
    var nameOrdered: [Entity] {
        EntityNameOrder.sorted(ordered.map(\.name)).compactMap { entities.entity(named: $0) }
    }

    func hasSubentities(_ name: String) -> Bool {
        !(children[name] ?? []).isEmpty
    }

    /// The entity followed by all its descendants, in number order.
    func hierarchy(of root: Entity) -> [Entity] {
        var result = [root]
        for child in children[root.name] ?? [] {
            if let entity = entities.entity(named: child) { result += hierarchy(of: entity) }
        }
        return result
    }
}
