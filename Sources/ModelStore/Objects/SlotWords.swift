/// The words behind ``AttributeValues``: a word for each slot, its value's bits or its place among
/// the values kept as themselves, and four bits naming each slot's kind, in one allocation that
/// holds nothing else. The slot count sits in the first word's low sixteen bits, the kinds follow
/// it a nibble each, then the slots' words: a row of ten integers takes 11 words and malloc's
/// 112-byte size, where an array of the same words, with its count and capacity, took the
/// 128-byte one, sixteen bytes of every fetched object.
///
/// The last slots may be set apart as a tail (a row's to-one keys, after its attributes): the
/// count's top bit then says so, and the next eight bits hold the tail's length, the kinds
/// starting two nibbles later. A count or tail too large for those bits (an entity no table can
/// hold, but a model may describe) is marked by sixteen set bits and kept whole in the second and
/// third words, the kinds starting after them. No slots take no allocation.
/// A value type: a change to words another value shares copies them first.
struct SlotWords {
    /// The storage: the slot count and kinds, then the slots' words; nil for no slots.
    private var storage: Storage?

    /// One allocation of words, sized exactly (a `ManagedBuffer` with no header of its own).
    private final class Storage: ManagedBuffer<Void, UInt64> {}

    /// The first word's sixteen bits when the count and the tail are kept in the second and third words.
    private static let large: UInt64 = 0xFFFF
    /// The count's bit saying that a tail's length follows it.
    private static let tailed: UInt64 = 0x8000

    /// How the slots' count and tail are kept: in the first word's bits, beside the kinds, or
    /// whole in the words after it.
    private struct Header {
        /// The number of slots, the tail's among them.
        let count: Int
        /// The number of last slots set apart.
        let tail: Int
        /// The nibble where the kinds start: after the count's four, the tail's two more, or the
        /// three words of a large count and tail.
        let firstKindNibble: Int

        /// The word of slot 0's value, the first after the kinds.
        @inline(__always) var valueWord: Int { (count &+ firstKindNibble &+ 15) >> 4 }

        /// The words the slots take: the header's and kinds' words (sixteen nibbles to a word),
        /// then one a slot.
        var wordCount: Int { valueWord &+ count }

        /// The header of `count` slots, `tail` of them set apart: kept in as few bits as they fit.
        init(count: Int, tail: Int) {
            self.count = count
            self.tail = tail
            // The tailed form's count stays below the large form's sixteen set bits.
            firstKindNibble =
                if tail == 0 && UInt64(count) < SlotWords.tailed { 4 }
                else if tail < 0x100 && UInt64(count) < SlotWords.tailed - 1 { 6 }
                else { 48 }
        }

        /// The header the words begin with: read on every access to a slot, so made in place.
        @inline(__always)
        init(in words: UnsafeMutablePointer<UInt64>) {
            let first = words[0] & 0xFFFF
            if first < SlotWords.tailed {
                (count, tail, firstKindNibble) = (Int(first), 0, 4)
            } else if first != SlotWords.large {
                (count, tail, firstKindNibble) = (Int(first & ~SlotWords.tailed), Int(words[0] >> 16 & 0xFF), 6)
            } else {
                (count, tail, firstKindNibble) = (Int(truncatingIfNeeded: words[1]), Int(truncatingIfNeeded: words[2]), 48)
            }
        }

        /// Writes the header into zeroed words.
        func write(into words: UnsafeMutablePointer<UInt64>) {
            switch firstKindNibble {
            case 4: words[0] = UInt64(count)
            case 6: words[0] = UInt64(count) | SlotWords.tailed | UInt64(tail) << 16
            default:
                words[0] = SlotWords.large
                words[1] = UInt64(count)
                words[2] = UInt64(tail)
            }
        }
    }

    /// `count` slots, all of kind 0 with zero bits, the last `tail` of them set apart.
    init(count: Int, tail: Int = 0) {
        precondition(count >= 0 && tail >= 0 && tail <= count, "\(count) slots, \(tail) in the tail")
        guard count > 0 else { return }
        let header = Header(count: count, tail: tail)
        storage = Self.allocate(header)
        storage!.withUnsafeMutablePointerToElements { words in
            words.initialize(repeating: 0, count: header.wordCount)
            header.write(into: words)
        }
    }

    /// The number of slots before the tail, and in it, read together.
    var counts: (head: Int, tail: Int) {
        guard let storage else { return (0, 0) }
        return storage.withUnsafeMutablePointerToElements { words in
            let header = Header(in: words)
            return (header.count &- header.tail, header.tail)
        }
    }

    /// The same slots before the tail, each with its kind and bits, and `tail` new slots after
    /// them, all of kind 0 with zero bits.
    func withTail(_ tail: Int) -> SlotWords {
        let head = counts.head
        var resized = SlotWords(count: head &+ tail, tail: tail)
        for slot in 0..<head {
            let (kind, bits) = contents(of: slot)
            resized.set(kind, bits, at: slot)
        }
        return resized
    }

    private static func allocate(_ header: Header) -> Storage {
        // `create` makes an instance of the class it is called on, so the cast always holds.
        unsafeDowncast(Storage.create(minimumCapacity: header.wordCount) { _ in }, to: Storage.self)
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
            let header = Header(in: words)
            precondition(UInt(bitPattern: slot) < UInt(header.count), "attribute slot \(slot) of \(header.count)")
            let nibble = header.firstKindNibble &+ slot
            return body(words, Place(kindWord: nibble >> 4, kindShift: UInt64((nibble & 15) << 2), valueWord: header.valueWord &+ slot))
        }
    }

    /// Copies the words when another value shares them: the test made in place on every change,
    /// the copy, rare, called.
    @inline(__always)
    private mutating func makeUnique() {
        guard storage != nil, !isKnownUniquelyReferenced(&storage) else { return }
        copyStorage()
    }

    @inline(never)
    private mutating func copyStorage() {
        let old = storage!
        let header = old.withUnsafeMutablePointerToElements { Header(in: $0) }
        let copy = Self.allocate(header)
        old.withUnsafeMutablePointerToElements { source in
            copy.withUnsafeMutablePointerToElements { $0.initialize(from: source, count: header.wordCount) }
        }
        storage = copy
    }
}
