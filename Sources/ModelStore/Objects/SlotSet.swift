/// A set of row slots: a word of bits for the first 64, more words only for entities that wide.
/// An object's changed slots, and the columns an update statement writes.
package struct SlotSet: Hashable {
    private var first: UInt64 = 0
    private var rest: [UInt64] = []

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

    package var isEmpty: Bool { first == 0 && rest.allSatisfy { $0 == 0 } }

    /// Calls `body` with each slot in the set, in order, skipping empty words a bit at a time.
    package func forEach(_ body: (Int) throws -> Void) rethrows {
        try Self.forEachBit(of: first, from: 0, body)
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
        let word = slot / 64 - 1
        return word < rest.count && rest[word] & (1 << UInt64(slot % 64)) != 0
    }

    package mutating func remove(_ slot: Int) {
        if slot < 64 {
            first &= ~(1 << UInt64(slot))
        } else if slot / 64 - 1 < rest.count {
            rest[slot / 64 - 1] &= ~(1 << UInt64(slot % 64))
        }
    }

    package mutating func insert(_ slot: Int) {
        if slot < 64 {
            first |= 1 << UInt64(slot)
            return
        }
        let word = slot / 64 - 1
        if word >= rest.count { rest += Array(repeating: 0, count: word - rest.count + 1) }
        rest[word] |= 1 << UInt64(slot % 64)
    }
}
