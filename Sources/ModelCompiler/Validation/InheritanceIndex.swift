import ModelSchema

/// The inheritance forest of a model version, computed once in time linear in the model, so
/// that no rule walks an entity's ancestors: a chain of 20,000 entities each the parent of the
/// next would make every such walk, and every rule using one, quadratic.
///
/// Entities are numbered by their position in the version. A parent name resolves to the first
/// entity declared with it. An inheritance cycle (an error reported by ``EntityGraphRule``) is
/// cut at the entity whose name sorts first, which becomes a root, so that the rest of
/// validation still sees a forest.
struct InheritanceIndex: Sendable {
    /// Each entity's parent, or `nil` for a root.
    private(set) var parents: [Int?]
    /// The entities in depth-first order, every parent before its subentities.
    private(set) var preorder: [Int] = []
    /// Each inheritance cycle, from its member whose name sorts first round to the one whose
    /// parent that is; the first member is where the cycle was cut.
    private(set) var cycles: [[Int]] = []
    /// Depth-first entry and exit numbers: `a` is `b` or one of its ancestors exactly when
    /// `entry[a] <= entry[b] && exit[b] <= exit[a]`.
    private var entry: [Int]
    private var exit: [Int]

    init(_ entities: [Entity], positionsByName: [String: Int]) {
        parents = entities.map { entity in entity.parentEntityName.flatMap { positionsByName[$0] } }
        entry = Array(repeating: 0, count: entities.count)
        exit = Array(repeating: 0, count: entities.count)
        cutCycles(entities)
        number()
    }

    // MARK: - Queries

    /// Whether `ancestor` is `entity` or one of its ancestors.
    func isAncestorOrSelf(_ ancestor: Int, of entity: Int) -> Bool {
        entry[ancestor] <= entry[entity] && exit[entity] <= exit[ancestor]
    }

    /// Of `candidates` (sorted by ``preorder`` position), the nearest to `entity` among it and
    /// its ancestors, if any. Those all come before `entity` in preorder, nearest last, so the
    /// search starts at the last candidate not after it: on a chain, that one is the answer.
    func nearest(of candidates: [Int], toAncestorsOf entity: Int) -> Int? {
        var low = 0
        var high = candidates.count
        while low < high {
            let middle = (low + high) / 2
            if entry[candidates[middle]] <= entry[entity] { low = middle + 1 } else { high = middle }
        }
        for candidate in candidates[..<low].reversed() where isAncestorOrSelf(candidate, of: entity) {
            return candidate
        }
        return nil
    }

    // MARK: - Building

    /// Marks each parent chain once (white, on the current walk, done); a chain that comes back
    /// to an entity of its own walk is a cycle, cut above its first-sorting member.
    private mutating func cutCycles(_ entities: [Entity]) {
        var state = [UInt8](repeating: 0, count: parents.count)
        for start in parents.indices where state[start] == 0 {
            var walk = [Int]()
            var current: Int? = start
            while let node = current, state[node] == 0 {
                state[node] = 1
                walk.append(node)
                current = parents[node]
            }
            if let node = current, state[node] == 1, let from = walk.firstIndex(of: node) {
                let cycle = Array(walk[from...])
                let first = cycle.indices.min { entities[cycle[$0]].name < entities[cycle[$1]].name }!
                cycles.append(Array(cycle[first...] + cycle[..<first]))
                parents[cycle[first]] = nil
            }
            for node in walk { state[node] = 2 }
        }
    }

    /// Numbers the forest depth-first with an explicit stack, never recursion.
    private mutating func number() {
        var children = [[Int]](repeating: [], count: parents.count)
        for (child, parent) in parents.enumerated() { if let parent { children[parent].append(child) } }
        var clock = 0
        var stack = [(node: Int, next: Int)]()
        preorder.reserveCapacity(parents.count)
        for root in parents.indices where parents[root] == nil {
            stack.append((root, 0))
            entry[root] = clock
            clock += 1
            preorder.append(root)
            while let (node, next) = stack.last {
                if next < children[node].count {
                    stack[stack.count - 1].next += 1
                    let child = children[node][next]
                    entry[child] = clock
                    clock += 1
                    preorder.append(child)
                    stack.append((child, 0))
                } else {
                    exit[node] = clock
                    clock += 1
                    stack.removeLast()
                }
            }
        }
    }
}
