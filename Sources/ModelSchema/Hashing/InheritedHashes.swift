/// The hashes of one entity's own and inherited properties in name order (names as ranks in that
/// order), changed in place as a walk enters and leaves entities, so that each property is
/// placed once per hierarchy rather than once per descendant.
struct InheritedHashes {
    /// One change to the list, as it is undone.
    private enum Change {
        case remove(at: Int)
        case restore(at: Int, rank: Int32, hash: [UInt8], reinsert: Bool)
    }

    /// The ranks of the listed properties, ascending.
    private var ranks: [Int32] = []
    /// Each listed property's 32-byte hash, in the order of `ranks`.
    private(set) var bytes: [UInt8] = []
    private var changes: [Change] = []

    /// How many changes can be undone; what ``undo(to:)`` takes to go back to this point.
    var mark: Int { changes.count }

    /// Sets the property of rank `rank` to `hash`, or hides it when `hash` is nil (a transient
    /// property): a later property of a name wins over an earlier one, as a subentity's does.
    mutating func set(_ rank: Int32, to hash: VersionHash?) {
        let index = lowerBound(rank)
        let range = 32 * index..<32 * index + 32
        if index < ranks.count, ranks[index] == rank {
            changes.append(.restore(at: index, rank: rank, hash: Array(bytes[range]), reinsert: hash == nil))
            if let hash {
                bytes.replaceSubrange(range, with: hash.bytes)
            } else {
                ranks.remove(at: index)
                bytes.removeSubrange(range)
            }
        } else if let hash {
            ranks.insert(rank, at: index)
            bytes.insert(contentsOf: hash.bytes, at: 32 * index)
            changes.append(.remove(at: index))
        }
    }

    /// Undoes the changes made since `mark`, the latest first.
    mutating func undo(to mark: Int) {
        while changes.count > mark {
            switch changes.removeLast() {
            case .remove(let index):
                ranks.remove(at: index)
                bytes.removeSubrange(32 * index..<32 * index + 32)
            case .restore(let index, let rank, let hash, let reinsert):
                if reinsert {
                    ranks.insert(rank, at: index)
                    bytes.insert(contentsOf: hash, at: 32 * index)
                } else {
                    bytes.replaceSubrange(32 * index..<32 * index + 32, with: hash)
                }
            }
        }
    }

    /// The position of the first rank not below `rank`.
    private func lowerBound(_ rank: Int32) -> Int {
        var low = 0
        var high = ranks.count
        while low < high {
            let middle = (low + high) / 2
            if ranks[middle] < rank { low = middle + 1 } else { high = middle }
        }
        return low
    }
}
