import ModelSchema

/// Core Data's entity numbers (`Z_ENT`): root entities in case-insensitive name order
/// (`EntityNameOrder`), each followed depth-first by its subentities, also in that order,
/// counting from 1.
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

    private mutating func visit(_ root: String) {
        for name in preorder(from: root) where numbers[name] == nil {
            guard let entity = entities.entity(named: name) else { continue }
            ordered.append(entity)
            numbers[name] = ordered.count
        }
    }

    /// `root` followed depth-first by its subentities, with an explicit stack so that deep
    /// hierarchies cannot exhaust the call stack.
    private func preorder(from root: String) -> [String] {
        var result = [String]()
        var seen = Set<String>()
        var stack = [root]
        while let name = stack.popLast() {
            guard seen.insert(name).inserted else { continue }
            result.append(name)
            stack += (children[name] ?? []).reversed()
        }
        return result
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
        preorder(from: root.name).compactMap { entities.entity(named: $0) }
    }
}
