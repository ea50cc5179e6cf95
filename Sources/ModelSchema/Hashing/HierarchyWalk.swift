/// The walk ``VersionHasher/entityHashes()`` makes down each entity hierarchy, with an explicit
/// stack: parents and subentities by position, property names by rank in name order, and the
/// entity hashes computed so far.
struct HierarchyWalk {
    /// A step of the walk: hash an entity and queue its subentities, or undo what entering one
    /// added once its subentities are done.
    private enum Step {
        case enter(Int)
        case leave(mark: Int, relationshipNames: [Int32])
    }

    private let entities: UnsafeBufferPointer<Entity>
    /// The position of the first entity of each name: the entities hashed.
    let nodes: [Int]
    /// By position: the parent's position, when the model has it.
    private(set) var parents: [Int?]
    private var children: [[Int]]
    /// Every property name's rank in name order; canonically equivalent names share one.
    private var ranks: [String: Int32] = [:]
    /// By position: the entity's hash, once computed.
    private(set) var hashes: [VersionHash?]
    private var inherited = InheritedHashes()
    /// Whether each relationship name on the current path is reflexive where first declared.
    private var reflexive: [Int32: Bool] = [:]
    private var attributeMemo = AttributeMemo()

    init(entities: UnsafeBufferPointer<Entity>, positions: [String: Int]) {
        self.entities = entities
        nodes = entities.indices.filter { positions[entities[$0].name] == $0 }
        parents = Array(repeating: nil, count: entities.count)
        children = Array(repeating: [], count: entities.count)
        hashes = Array(repeating: nil, count: entities.count)
        var names = [String]()
        for node in nodes {
            if let parent = entities[node].parentEntityName.flatMap({ positions[$0] }) {
                parents[node] = parent
                if parent != node { children[parent].append(node) }
            }
            for name in entities[node].attributes.map(\.name) + entities[node].relationships.map(\.name)
            where ranks.updateValue(0, forKey: name) == nil {
                names.append(name)
            }
        }
        for (rank, position) in NameOrder.sortedPositions(of: names).enumerated() {
            ranks[names[position]] = Int32(rank)
        }
    }

    /// An entity of the inheritance cycle above the unhashed entity at `node`: where the walk
    /// starts for the entities no root leads to.
    func cycleEntry(above node: Int) -> Int {
        var top = node
        var seen: Set<Int> = [node]
        while let parent = parents[top], seen.insert(parent).inserted {
            top = parent
        }
        return top
    }

    /// Hashes the entity at `root`, as if it had no parent, and every subentity below it not
    /// hashed yet.
    mutating func descend(from root: Int, hasher: VersionHasher) {
        var steps: [Step] = [.enter(root)]
        while let step = steps.popLast() {
            switch step {
            case .enter(let node):
                guard hashes[node] == nil else { continue }
                let mark = inherited.mark
                let added = addOwnProperties(of: node, hasher: hasher)
                let parentHash = node == root ? nil : parents[node].flatMap { hashes[$0] }
                hashes[node] = hasher.entityHash(entities.baseAddress! + node, parentHash: parentHash, properties: inherited.bytes)
                steps.append(.leave(mark: mark, relationshipNames: added))
                steps += children[node].reversed().map { .enter($0) }
            case .leave(let mark, let names):
                inherited.undo(to: mark)
                for name in names { reflexive[name] = nil }
            }
        }
    }

    /// Sets the entity's own attributes and then relationships in ``InheritedHashes``, in
    /// declaration order so that of equal names the last counts; returns the relationship names
    /// it was the first on the path to declare.
    private mutating func addOwnProperties(of node: Int, hasher: VersionHasher) -> [Int32] {
        let entity = entities.baseAddress! + node
        entity.pointee.attributes.withUnsafeBufferPointer { attributes in
            for index in attributes.indices {
                let hash = attributes[index].isTransient ? nil : hasher.attributeHash(at: index, of: attributes, memo: &attributeMemo)
                inherited.set(ranks[attributes[index].name]!, to: hash)
            }
        }
        var added = [Int32]()
        entity.pointee.relationships.withUnsafeBufferPointer { relationships in
            for index in relationships.indices {
                let relationship = relationships[index]
                let rank = ranks[relationship.name]!
                let isReflexive = reflexive[rank] ?? {
                    let value = relationship.inverseName == relationship.name
                        && relationship.destinationEntityName == entity.pointee.name
                    reflexive[rank] = value
                    added.append(rank)
                    return value
                }()
                let hash = relationship.isTransient ? nil : hasher.relationshipHash(relationship, isReflexive: isReflexive)
                inherited.set(rank, to: hash)
            }
        }
        return added
    }
}
