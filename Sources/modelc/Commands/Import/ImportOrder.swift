import Foundation
import ModelSchema

/// The batches in which an import inserts a checked file's objects, and the links each object
/// must have when it is inserted.
///
/// A save validates what it inserts, so an object with a constrained relationship (a required
/// to-one, a to-many with a minimum count, ``ImportSchema/isConstrained(_:)``) is inserted with
/// that relationship whole, and its targets are saved in an earlier batch or inserted in the same
/// one. So the objects go in a topological order of "needs" edges (object → each target of its
/// constrained links); objects that need each other in a cycle (a strongly connected component,
/// found with Tarjan's algorithm, which also gives the order) share a batch. Components are
/// packed in that order into batches of about `size` objects; a component larger than `size`
/// makes one larger batch. Every other link is set in a second pass, after every object exists.
///
/// A file may give a link on one side only, `fetch --json` prints both: when an object lists a
/// target through a relationship whose inverse is constrained and the target does not give that
/// inverse, the target gets the link as one of its own constrained links, as the inverse's
/// update would have given it in a single save.
struct ImportOrder {
    /// The objects of each batch of the first pass, by position in the file.
    private(set) var batches: [[Int]] = []
    /// The constrained links set when objects are inserted, by object (`owner`), and where
    /// each object's start: flat arrays, a few bytes a link, rather than a table per object.
    private var links: [(owner: Int, key: String, target: Int)] = []
    private var starts: [Int] = []

    /// `targets(i, value)` gives the positions of the ids in a relationship value (checked already).
    init(_ file: ImportFile, schema: ImportSchema, size: Int, targets: (Any) -> [Int]) throws {
        for position in file.indices {
            let object = try file.object(position)
            guard let entity = schema[object.entity] else { continue }
            for (key, value) in object.relationships {
                guard let relationship = entity.relationships[key] else { continue }
                let linked = targets(value)
                if ImportSchema.isConstrained(relationship) {
                    links += linked.map { (position, key, $0) }
                    continue
                }
                guard let inverseName = relationship.inverseName else { continue }
                for target in linked {
                    let other = try file.object(target)
                    guard let inverse = schema[other.entity]?.relationships[inverseName], ImportSchema.isConstrained(inverse),
                        other.relationships[inverseName] == nil || other.relationships[inverseName] is NSNull
                    else { continue }
                    links.append((target, inverseName, position))
                }
            }
        }
        // Stable, so that each relationship's targets keep the file's order.
        links = links.enumerated().sorted { ($0.element.owner, $0.offset) < ($1.element.owner, $1.offset) }.map(\.element)
        starts = [Int](repeating: links.count, count: file.count + 1)
        for (index, link) in links.enumerated().reversed() { starts[link.owner] = index }
        for position in stride(from: file.count - 1, through: 0, by: -1) { starts[position] = min(starts[position], starts[position + 1]) }
        batches = Self.pack(components(count: file.count), size: size)
    }

    /// The constrained links of the object at `position`: relationship name → targets.
    func constrainedLinks(of position: Int) -> [String: [Int]] {
        var result = [String: [Int]]()
        for link in links[starts[position]..<starts[position + 1]] { result[link.key, default: []].append(link.target) }
        return result
    }

    /// The strongly connected components of the "needs" graph, each after every component it
    /// needs (Tarjan's algorithm, iterative so that a long chain cannot overflow the stack).
    private func components(count: Int) -> [[Int]] {
        var index = [Int](repeating: -1, count: count)
        var low = [Int](repeating: 0, count: count)
        var onStack = [Bool](repeating: false, count: count)
        var stack = [Int]()
        var result = [[Int]]()
        var next = 0
        for root in 0..<count where index[root] < 0 {
            // Each frame: a node and how many of its edges were followed.
            var frames = [(node: root, edge: 0)]
            index[root] = next
            low[root] = next
            next += 1
            stack.append(root)
            onStack[root] = true
            while let frame = frames.last {
                let out = starts[frame.node]..<starts[frame.node + 1]
                if frame.edge < out.count {
                    frames[frames.count - 1].edge += 1
                    let target = links[out.lowerBound + frame.edge].target
                    if index[target] < 0 {
                        index[target] = next
                        low[target] = next
                        next += 1
                        stack.append(target)
                        onStack[target] = true
                        frames.append((target, 0))
                    } else if onStack[target] {
                        low[frame.node] = min(low[frame.node], index[target])
                    }
                    continue
                }
                frames.removeLast()
                if let parent = frames.last { low[parent.node] = min(low[parent.node], low[frame.node]) }
                guard low[frame.node] == index[frame.node] else { continue }
                var component = [Int]()
                while let member = stack.popLast() {
                    onStack[member] = false
                    component.append(member)
                    if member == frame.node { break }
                }
                result.append(component.sorted())
            }
        }
        return result
    }

    /// Components in order, packed into batches of at least `size` objects (the last may be smaller).
    private static func pack(_ components: [[Int]], size: Int) -> [[Int]] {
        var batches = [[Int]]()
        var current = [Int]()
        for component in components {
            current.append(contentsOf: component)
            if current.count >= size {
                batches.append(current)
                current = []
            }
        }
        if !current.isEmpty { batches.append(current) }
        return batches
    }
}
