/// A set of row slots: a word of bits for the first 64, more words only for entities that wide.
/// An object's changed slots, and the columns an update statement writes. The further words are
/// nil rather than an empty array until a slot past 64 is added, so that copying a set of a
/// narrower entity (an update's signature, an object's unsaved values) retains and releases nothing.
package struct SlotSet: Hashable {
    private var first: UInt64 = 0
    private var rest: [UInt64]?

    package init() {}

    /// Slots 0 to `count - 1`.
    package init(all count: Int) {
        first = count >= 64 ? .max : (UInt64(1) << UInt64(count)) &- 1
        if count > 64 {
            rest = (0..<((count - 1) / 64)).map { word in
                let left = count - 64 * (word + 1)
                return left >= 64 ? .max : (UInt64(1) << UInt64(left)) &- 1
            }
        }
    }

    package var isEmpty: Bool { first == 0 && (rest?.allSatisfy { $0 == 0 } ?? true) }

    /// Calls `body` with each slot in the set, in order, skipping empty words a bit at a time.
    package func forEach(_ body: (Int) throws -> Void) rethrows {
        try Self.forEachBit(of: first, from: 0, body)
        guard let rest else { return }
        for (index, word) in rest.enumerated() { try Self.forEachBit(of: word, from: 64 * (index + 1), body) }
    }

    private static func forEachBit(of word: UInt64, from base: Int, _ body: (Int) throws -> Void) rethrows {
        var bits = word
        while bits != 0 {
            try body(base + bits.trailingZeroBitCount)
            bits &= bits &- 1
        }
    }

    package func contains(_ slot: Int) -> Bool {
        if slot < 64 { return first & (1 << UInt64(slot)) != 0 }
        guard let rest else { return false }
        let word = slot / 64 - 1
        return word < rest.count && rest[word] & (1 << UInt64(slot % 64)) != 0
    }

    package mutating func remove(_ slot: Int) {
        if slot < 64 {
            first &= ~(1 << UInt64(slot))
        } else if let count = rest?.count, slot / 64 - 1 < count {
            rest?[slot / 64 - 1] &= ~(1 << UInt64(slot % 64))
        }
    }

    package mutating func insert(_ slot: Int) {
        if slot < 64 {
            first |= 1 << UInt64(slot)
            return
        }
        let word = slot / 64 - 1
        var words = rest ?? []
        rest = nil
        if word >= words.count { words += Array(repeating: 0, count: word - words.count + 1) }
        words[word] |= 1 << UInt64(slot % 64)
        rest = words
    }

    /// Equal when they hold the same slots, however many further words each has.
    package static func == (lhs: SlotSet, rhs: SlotSet) -> Bool {
        guard lhs.first == rhs.first else { return false }
        if lhs.rest == nil && rhs.rest == nil { return true }
        let (left, right) = (lhs.rest ?? [], rhs.rest ?? [])
        return (0..<max(left.count, right.count)).allSatisfy { index in
            (index < left.count ? left[index] : 0) == (index < right.count ? right[index] : 0)
        }
    }

    /// Hashes the slots, not the words' count: further words left empty add nothing.
    package func hash(into hasher: inout Hasher) {
        hasher.combine(first)
        guard let rest, let last = rest.lastIndex(where: { $0 != 0 }) else { return }
        for word in rest[...last] { hasher.combine(word) }
    }
}

