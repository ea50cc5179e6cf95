import ModelSchema

/// The entities whose lineage ``JoinTableBuilder`` has not met yet: meeting an entity takes it
/// and its ancestors not taken before, each found by a jump past the ones taken, with the jumps
/// shortened as they are followed, so that a chain costs about one step per entity in all.
struct UntriedAncestors {
    private let ordered: [Entity]
    private let positions: [String: Int]
    private var parents: [Int?]
    /// By position: where to look next for an entity not taken, once this one is taken.
    private var jumps: [Int?]
    private var taken: [Bool]

    init(_ numbering: EntityNumbering) {
        ordered = numbering.ordered
        var positions = [String: Int](minimumCapacity: ordered.count)
        for (position, entity) in ordered.enumerated() { positions[entity.name] = position }
        self.positions = positions
        parents = ordered.map { numbering.entities.parent(of: $0).flatMap { positions[$0.name] } }
        jumps = parents
        taken = Array(repeating: false, count: ordered.count)
    }

    /// The entity and those of its ancestors not taken yet, nearest first, now taken.
    mutating func take(from entity: Entity) -> [Entity] {
        var result = [Entity]()
        var next = nearestUntaken(from: positions[entity.name])
        while let position = next {
            result.append(ordered[position])
            taken[position] = true
            next = nearestUntaken(from: parents[position])
        }
        return result
    }

    /// The first entity not taken from `start` up, shortening the jumps on the way.
    private mutating func nearestUntaken(from start: Int?) -> Int? {
        var passed = [Int]()
        var position = start
        while let current = position, taken[current] {
            passed.append(current)
            position = jumps[current]
        }
        for current in passed { jumps[current] = position }
        return position
    }
}
