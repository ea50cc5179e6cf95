/// The words behind ``AttributeValues``: a word for each slot, its value's bits or its place among
/// the values kept as themselves, and four bits naming each slot's kind, in one allocation that
/// holds nothing else. The slot count sits in the first word's low sixteen bits, the kinds follow
/// it a nibble each, then the slots' words: a row of ten integers takes 11 words and malloc's
/// 112-byte size, where an array of the same words, with its count and capacity, took the
/// 128-byte one, sixteen bytes of every fetched object. A count too large for sixteen bits (an
/// entity no table can hold, but a model may describe) is marked so there and kept whole in the
/// second word, the kinds starting after it. No slots take no allocation.
/// A value type: a change to words another value shares copies them first.
struct SlotWords {
    /// The storage: the slot count and kinds, then the slots' words; nil for no slots.
    private var storage: Storage?

    /// One allocation of words, sized exactly (a `ManagedBuffer` with no header of its own).
    private final class Storage: ManagedBuffer<Void, UInt64> {}

    /// The first word's sixteen bits of count when the count is kept in the second word.
    private static let largeCount: UInt64 = 0xFFFF

    /// `count` slots, all of kind 0 with zero bits.
    init(count: Int) {
        precondition(count >= 0, "\(count) attribute slots")
        guard count > 0 else { return }
        storage = Self.allocate(count)
        storage!.withUnsafeMutablePointerToElements { words in
            words.initialize(repeating: 0, count: Self.wordCount(forSlots: count))
            if UInt64(count) < Self.largeCount {
                words[0] = UInt64(count)
            } else {
                words[0] = Self.largeCount
                words[1] = UInt64(count)
            }
        }
    }

    /// The number of slots.
    var count: Int {
        guard let storage else { return 0 }
        return storage.withUnsafeMutablePointerToElements { Self.count(in: $0) }
    }

    private static func count(in words: UnsafeMutablePointer<UInt64>) -> Int {
        let count = words[0] & 0xFFFF
        return Int(truncatingIfNeeded: count == largeCount ? words[1] : count)
    }

    /// The nibble where the kinds start: after the count's four, or after the two words of a
    /// large count.
    private static func firstKindNibble(forSlots count: Int) -> Int { UInt64(count) < largeCount ? 4 : 32 }

    /// The words `count` slots take: the count's and kinds' words (sixteen nibbles to a word),
    /// then one a slot.
    private static func wordCount(forSlots count: Int) -> Int { valueWord(forSlots: count) &+ count }

    /// The word of slot 0's value, the first after the kinds.
    private static func valueWord(forSlots count: Int) -> Int { (count &+ firstKindNibble(forSlots: count) &+ 15) >> 4 }

    private static func allocate(_ count: Int) -> Storage {
        // `create` makes an instance of the class it is called on, so the cast always holds.
        unsafeDowncast(Storage.create(minimumCapacity: wordCount(forSlots: count)) { _ in }, to: Storage.self)
    }

    /// The kind of slot `slot`, four bits, and its word, read together: a read of a value needs
    /// both, and the count and the bounds are checked once for them.
    func contents(of slot: Int) -> (kind: UInt8, bits: UInt64) {
        withSlot(slot) { words, place in
            (UInt8(truncatingIfNeeded: words[place.kindWord] >> place.kindShift) & 0xF, words[place.valueWord])
        }
    }

    /// Sets slot `slot` to `kind` and `bits`.
    mutating func set(_ kind: UInt8, _ bits: UInt64, at slot: Int) {
        makeUnique()
        withSlot(slot) { words, place in
            words[place.kindWord] = words[place.kindWord] & ~(0xF << place.kindShift) | UInt64(kind & 0xF) << place.kindShift
            words[place.valueWord] = bits
        }
    }

    /// Sets the word of slot `slot` to `bits`, its kind left as it is.
    mutating func setBits(_ bits: UInt64, at slot: Int) {
        makeUnique()
        withSlot(slot) { words, place in words[place.valueWord] = bits }
    }

    /// Where a slot's kind and word are among the words.
    private struct Place {
        let kindWord: Int
        let kindShift: UInt64
        let valueWord: Int
    }

    /// Calls `body` with the words and the place of `slot`, once `slot` is known to be one of the
    /// slots: every word `body` reaches from them lies in the allocation.
    private func withSlot<Result>(_ slot: Int, _ body: (UnsafeMutablePointer<UInt64>, Place) -> Result) -> Result {
        guard let storage else { preconditionFailure("attribute slot \(slot) of 0") }
        return storage.withUnsafeMutablePointerToElements { words in
            let count = Self.count(in: words)
            precondition(UInt(bitPattern: slot) < UInt(count), "attribute slot \(slot) of \(count)")
            let nibble = Self.firstKindNibble(forSlots: count) &+ slot
            return body(words, Place(kindWord: nibble >> 4, kindShift: UInt64((nibble & 15) << 2), valueWord: Self.valueWord(forSlots: count) &+ slot))
        }
    }

    /// Copies the words when another value shares them.
    private mutating func makeUnique() {
        guard storage != nil, !isKnownUniquelyReferenced(&storage) else { return }
        let old = storage!
        let count = self.count
        let copy = Self.allocate(count)
        old.withUnsafeMutablePointerToElements { source in
            copy.withUnsafeMutablePointerToElements { $0.initialize(from: source, count: Self.wordCount(forSlots: count)) }
        }
        storage = copy
    }
}
