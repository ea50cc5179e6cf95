import Foundation
import ModelSchema

/// An object's attribute values in the order of its row's attribute slots, kept compactly: an
/// integer, a boolean, a floating-point number or a date as its eight bytes beside four bits naming
/// its type, any other value (a string, data, a decimal, a UUID…) as itself. A row of ten integers
/// takes one allocation of 11 words, where `[Any?]` takes ten 40-byte existentials, so a context
/// holding many objects touches a third of the memory, and reading a value back makes its `Any`
/// from the bits, without copying an existential through its value witnesses. Strings are kept
/// apart from the other values, as `String`s, so that a typed read gives one without a dynamic
/// cast from `Any`. A value keeps its exact Swift type: only an `Int64` is kept as one, an
/// `NSNumber` or an `Int` is kept as itself, an `NSString` among the other values.
package struct AttributeValues {
    /// The type of the value in a slot, four bits each (``SlotWords``): a row of up to twelve
    /// values keeps its kinds and its count in one word.
    private enum Kind: UInt8 {
        case null = 0, int64, int32, int16, bool, double, float, date, other, string
    }

    /// The number of attribute slots.
    package var count: Int { words.counts.head }
    /// The number of saved to-ones whose targets' keys the values keep after the attributes (two
    /// slots each, the row key and the entity number, both nil for no target): a fetched row's
    /// to-ones cost no allocation of their own.
    package var toOneCount: Int { words.counts.tail >> 1 }
    /// Whether there are no slots: asked of the values themselves, since Collection's own
    /// `isEmpty`, called from another module, reached the indices through the protocol's witnesses.
    package var isEmpty: Bool { count == 0 }
    /// A word for each slot, its value's bits or, for a string or a value of another type, its
    /// place among the kept strings or the other values, and each slot's kind.
    private var words: SlotWords
    /// The strings and the values of other types, each in the order they were set.
    private var kept = Kept.strings([])

    /// The values kept as themselves, behind one reference: the strings alone while there is
    /// no value of another type, as most rows have (a row of numbers and strings then makes no
    /// more allocations than its strings' array), and both in a box once there is one. An object
    /// keeping its values in a stored property is then a word smaller than with two arrays.
    private enum Kept {
        case strings(ContiguousArray<String>)
        case both(Both)
    }

    /// The strings and the values of other types of a row that has both kinds.
    private final class Both {
        var strings: ContiguousArray<String>
        var others: ContiguousArray<Any>

        init(strings: ContiguousArray<String>, others: ContiguousArray<Any>) {
            self.strings = strings
            self.others = others
        }
    }

    /// `count` slots and `toOnes` to-ones, all nil, with room for `strings` strings and `others`
    /// values of other types, so that a row's values are not stored by growing arrays one value
    /// at a time.
    package init(nils count: Int, toOnes: Int = 0, strings: Int = 0, others: Int = 0) {
        words = SlotWords(count: count + 2 * toOnes, tail: 2 * toOnes)
        var reservedStrings = ContiguousArray<String>()
        if strings > 0 { reservedStrings.reserveCapacity(strings) }
        if others > 0 {
            var reservedOthers = ContiguousArray<Any>()
            reservedOthers.reserveCapacity(others)
            kept = .both(Both(strings: reservedStrings, others: reservedOthers))
        } else if strings > 0 {
            kept = .strings(reservedStrings)
        }
    }

    /// The kept string at `index`.
    private func string(kept index: Int) -> String {
        switch kept {
        case .strings(let strings): strings[index]
        case .both(let both): both.strings[index]
        }
    }

    /// The kept value of another type at `index`.
    private func other(kept index: Int) -> Any {
        switch kept {
        case .strings: preconditionFailure("a slot names a value of another type where none is kept")
        case .both(let both): both.others[index]
        }
    }

    /// The kept values, taken out of `kept` (left holding no strings) so that changing them in
    /// place copies nothing and retains nothing.
    private mutating func takeKept() -> Kept {
        var taken = Kept.strings([])
        swap(&kept, &taken)
        return taken
    }

    /// `both`, this value's alone: copied when a copy of the values shares it.
    private static func owned(_ both: consuming Both) -> Both {
        var both = both
        if !isKnownUniquelyReferenced(&both) { both = Both(strings: both.strings, others: both.others) }
        return both
    }

    /// Sets slot `slot` to `value`, kept among the strings.
    private mutating func keepString(_ value: String, at slot: Int) {
        switch takeKept() {
        case .strings(var strings):
            Self.keep(value, in: &strings, as: .string, at: slot, words: &words)
            kept = .strings(strings)
        case .both(let both):
            let both = Self.owned(both)
            Self.keep(value, in: &both.strings, as: .string, at: slot, words: &words)
            kept = .both(both)
        }
    }

    /// Sets slot `slot` to `value`, kept among the values of other types; the strings move into
    /// a box beside them when there were strings alone.
    private mutating func keepOther(_ value: Any, at slot: Int) {
        let both = switch takeKept() {
        case .strings(let strings): Both(strings: strings, others: [])
        case .both(let both): Self.owned(both)
        }
        Self.keep(value, in: &both.others, as: .other, at: slot, words: &words)
        kept = .both(both)
    }

    /// The key of saved to-one `index`'s target; nil for none, or for an index past the values'
    /// to-ones (a row read before the entity had them).
    package func toOne(at index: Int) -> ObjectKey? {
        let (head, tail) = words.counts
        guard index >= 0, index < tail >> 1 else { return nil }
        let slot = head + 2 * index
        let (kind, key) = contents(of: slot)
        guard kind == .int64 else { return nil }
        return ObjectKey(number: Int(truncatingIfNeeded: Int64(bitPattern: contents(of: slot + 1).bits)), key: Int64(bitPattern: key))
    }

    /// ``toOne(at:)`` for values kept in a class's stored property, lent in place as
    /// ``scalarInPlace(at:)`` lends them.
    package mutating func toOneInPlace(at index: Int) -> ObjectKey? {
        toOne(at: index)
    }

    /// The keys of the saved to-ones' targets, in the order of the entity's to-one slots.
    package var toOnes: [ObjectKey?] {
        (0..<toOneCount).map { toOne(at: $0) }
    }

    /// Sets the key of saved to-one `index`'s target, nil for none.
    package mutating func setToOne(_ target: ObjectKey?, at index: Int) {
        let (head, tail) = words.counts
        precondition(index >= 0 && index < tail >> 1, "to-one \(index) of \(tail >> 1)")
        let slot = head + 2 * index
        if let target {
            set(.int64, UInt64(bitPattern: target.key), at: slot)
            set(.int64, UInt64(bitPattern: Int64(target.number)), at: slot + 1)
        } else {
            set(.null, 0, at: slot)
            set(.null, 0, at: slot + 1)
        }
    }

    /// Sets the saved to-ones to `toOnes`, the values made to keep as many first if they keep
    /// another number (their attribute slots moved as they are).
    package mutating func setToOnes(_ toOnes: [ObjectKey?]) {
        if toOneCount != toOnes.count { words = words.withTail(2 * toOnes.count) }
        for index in toOnes.indices { setToOne(toOnes[index], at: index) }
    }

    /// Whether values of an attribute of `type` are kept as their bits: those of every type but
    /// strings, data, decimals, UUIDs, URIs, transformables and object IDs.
    package static func keepsBits(of type: AttributeType) -> Bool {
        switch type {
        case .integer16, .integer32, .integer64, .boolean, .double, .float, .date: true
        default: false
        }
    }

    /// The values of `values`, each of its own type.
    package init(_ values: [Any?]) {
        self.init(nils: values.count)
        for slot in values.indices where values[slot] != nil { self[slot] = values[slot] }
    }

    /// A value kept as its bits, as its type.
    package enum Scalar {
        case int64(Int64), int32(Int32), int16(Int16), bool(Bool), double(Double), float(Float), date(Date)

        /// The value, of its own type.
        package var value: Any {
            switch self {
            case .int64(let value): value
            case .int32(let value): value
            case .int16(let value): value
            case .bool(let value): value
            case .double(let value): value
            case .float(let value): value
            case .date(let value): value
            }
        }
    }

    /// The value in slot `slot` when it is kept as its bits, without making an `Any` of it; nil
    /// for nil or a value kept as itself.
    package func scalar(at slot: Int) -> Scalar? {
        let (kind, bits) = contents(of: slot)
        switch kind {
        case .null, .other, .string: return nil
        case .int64: return .int64(Int64(bitPattern: bits))
        case .int32: return .int32(Int32(truncatingIfNeeded: Int64(bitPattern: bits)))
        case .int16: return .int16(Int16(truncatingIfNeeded: Int64(bitPattern: bits)))
        case .bool: return .bool(bits != 0)
        case .double: return .double(Double(bitPattern: bits))
        case .float: return .float(Float(bitPattern: UInt32(truncatingIfNeeded: bits)))
        case .date: return .date(Date(timeIntervalSinceReferenceDate: Double(bitPattern: bits)))
        }
    }

    /// ``scalar(at:)`` for values kept in a class's stored property, as an object keeps its own:
    /// `mutating`, though it changes nothing, so that the caller lends the values in place. Lent
    /// for a call into this module as a constant, they are copied, their storage retained and
    /// released, on every read.
    package mutating func scalarInPlace(at slot: Int) -> Scalar? {
        scalar(at: slot)
    }

    /// The string in slot `slot`, nil for nil or a value of another type.
    package func string(at slot: Int) -> String? {
        let (kind, bits) = contents(of: slot)
        return kind == .string ? string(kept: Int(bits)) : nil
    }

    /// ``string(at:)`` for values kept in a class's stored property, lent in place as
    /// ``scalarInPlace(at:)`` lends them.
    package mutating func stringInPlace(at slot: Int) -> String? {
        string(at: slot)
    }

    /// The value in slot `slot` as an `Any`, made in one pass over its kind (not a scalar first,
    /// then a string): a save's validation makes one of every attribute of every saved object.
    private func value(at slot: Int) -> Any? {
        let (kind, bits) = contents(of: slot)
        switch kind {
        case .null: return nil
        case .int64: return Int64(bitPattern: bits)
        case .int32: return Int32(truncatingIfNeeded: Int64(bitPattern: bits))
        case .int16: return Int16(truncatingIfNeeded: Int64(bitPattern: bits))
        case .bool: return bits != 0
        case .double: return Double(bitPattern: bits)
        case .float: return Float(bitPattern: UInt32(truncatingIfNeeded: bits))
        case .date: return Date(timeIntervalSinceReferenceDate: Double(bitPattern: bits))
        case .string: return string(kept: Int(bits))
        case .other: return other(kept: Int(bits))
        }
    }

    /// The subscript's value for values kept in a class's stored property, lent in place as
    /// ``scalarInPlace(at:)`` lends them.
    package mutating func valueInPlace(at slot: Int) -> Any? {
        value(at: slot)
    }

    private func contents(of slot: Int) -> (kind: Kind, bits: UInt64) { Self.contents(of: slot, in: words) }

    private mutating func set(_ kind: Kind, _ bits: UInt64, at slot: Int) { words.set(kind.rawValue, bits, at: slot) }

    private static func contents(of slot: Int, in words: SlotWords) -> (kind: Kind, bits: UInt64) {
        let (kind, bits) = words.contents(of: slot)
        return (Kind(rawValue: kind) ?? .null, bits)
    }

    /// Sets slot `slot` to `value`, an `Int64`.
    package mutating func set(_ value: Int64, at slot: Int) { set(.int64, UInt64(bitPattern: value), at: slot) }
    /// Sets slot `slot` to `value`, an `Int32`.
    package mutating func set(_ value: Int32, at slot: Int) { set(.int32, UInt64(bitPattern: Int64(value)), at: slot) }
    /// Sets slot `slot` to `value`, an `Int16`.
    package mutating func set(_ value: Int16, at slot: Int) { set(.int16, UInt64(bitPattern: Int64(value)), at: slot) }
    /// Sets slot `slot` to `value`, a `Bool`.
    package mutating func set(_ value: Bool, at slot: Int) { set(.bool, value ? 1 : 0, at: slot) }
    /// Sets slot `slot` to `value`, a `Double`.
    package mutating func set(_ value: Double, at slot: Int) { set(.double, value.bitPattern, at: slot) }
    /// Sets slot `slot` to `value`, a `Float`.
    package mutating func set(_ value: Float, at slot: Int) { set(.float, UInt64(value.bitPattern), at: slot) }
    /// Sets slot `slot` to `value`, a `Date`.
    package mutating func set(_ value: Date, at slot: Int) { set(.date, value.timeIntervalSinceReferenceDate.bitPattern, at: slot) }

    /// Sets slot `slot` to `value`, a `String`, without asking its type as ``subscript(_:)`` must.
    package mutating func set(_ value: String, at slot: Int) { keepString(value, at: slot) }

    /// Sets slot `slot` to `value`, kept as its bits.
    package mutating func set(_ value: Scalar, at slot: Int) {
        switch value {
        case .int64(let value): set(value, at: slot)
        case .int32(let value): set(value, at: slot)
        case .int16(let value): set(value, at: slot)
        case .bool(let value): set(value, at: slot)
        case .double(let value): set(value, at: slot)
        case .float(let value): set(value, at: slot)
        case .date(let value): set(value, at: slot)
        }
    }

    /// Sets slot `slot` to the value `other` holds in its slot `slot`, as `other` keeps it: a
    /// number's bits with their kind, a string or another value as itself, without the `Any`
    /// and the type tests of ``subscript(_:)`` (a save folds each object's changes in so).
    package mutating func copySlot(_ slot: Int, from other: AttributeValues) {
        let (kind, bits) = other.contents(of: slot)
        switch kind {
        case .string: keepString(other.string(kept: Int(bits)), at: slot)
        case .other: keepOther(other.other(kept: Int(bits)), at: slot)
        default: set(kind, bits, at: slot)
        }
    }

    /// Sets slot `slot` of `words` to `value`, a string or a value of another type, kept in
    /// `kept` (the strings or the other values) as a slot of `kind`: in the place of the slot's earlier
    /// value of that kind, if it had one. Values left behind by slots set since to another kind
    /// are dropped once they outnumber the slots, so that setting one slot again and again (an
    /// unsaved change) cannot grow the values without bound. Static, taking both arrays in place:
    /// the same step through a key path to either was a tenth slower on a fetch of strings.
    private static func keep<Value>(
        _ value: Value, in kept: inout ContiguousArray<Value>, as kind: Kind, at slot: Int, words: inout SlotWords
    ) {
        let current = Self.contents(of: slot, in: words)
        if current.kind == kind {
            kept[Int(current.bits)] = value
            return
        }
        if kept.count >= words.counts.head { kept = dropUnused(kept, of: kind, words: &words) }
        kept.append(value)
        words.set(kind.rawValue, UInt64(kept.count - 1), at: slot)
    }

    /// How many strings and values of other types are kept, counting those a slot no longer
    /// holds: never more than twice ``count``, however often slots are set.
    package var keptValueCount: Int {
        switch kept {
        case .strings(let strings): strings.count
        case .both(let both): both.strings.count + both.others.count
        }
    }

    /// The values of `kept` (the strings or the other values) that a slot of `kind` still
    /// holds, those slots of `words` renumbered to their places in it: attribute slots alone, as
    /// the to-ones' slots after them hold keys.
    private static func dropUnused<Value>(
        _ kept: ContiguousArray<Value>, of kind: Kind, words: inout SlotWords
    ) -> ContiguousArray<Value> {
        let count = words.counts.head
        var still = ContiguousArray<Value>()
        still.reserveCapacity(count)
        for slot in 0..<count {
            let current = Self.contents(of: slot, in: words)
            guard current.kind == kind else { continue }
            still.append(kept[Int(current.bits)])
            words.setBits(UInt64(still.count - 1), at: slot)
        }
        return still
    }
}

extension AttributeValues: RandomAccessCollection, MutableCollection {
    package var startIndex: Int { 0 }
    package var endIndex: Int { count }

    /// The value in slot `slot`, of the type it was set with; nil for a slot never set.
    package subscript(slot: Int) -> Any? {
        get { value(at: slot) }
        set {
            guard let value = newValue else { return set(.null, 0, at: slot) }
            if let string = Self.exactly(value, String.self) {
                set(string, at: slot)
            } else if let number = Self.exactly(value, Int64.self) {
                set(number, at: slot)
            } else if let number = Self.exactly(value, Int32.self) {
                set(number, at: slot)
            } else if let number = Self.exactly(value, Int16.self) {
                set(number, at: slot)
            } else if let flag = Self.exactly(value, Bool.self) {
                set(flag, at: slot)
            } else if let number = Self.exactly(value, Double.self) {
                set(number, at: slot)
            } else if let number = Self.exactly(value, Float.self) {
                set(number, at: slot)
            } else if let date = Self.exactly(value, Date.self) {
                set(date, at: slot)
            } else {
                keepOther(value, at: slot)
            }
        }
    }

    /// `value` as `T` when its type is exactly `T`, else nil: a bridged cast (`as? Int64` of an
    /// `NSNumber`) would change the value's type.
    private static func exactly<T>(_ value: Any, _ type: T.Type) -> T? {
        ObjectIdentifier(Swift.type(of: value)) == ObjectIdentifier(type) ? value as? T : nil
    }
}

extension AttributeValues: ExpressibleByArrayLiteral {
    /// The values listed, each of its own type.
    package init(arrayLiteral values: Any?...) {
        self.init(values)
    }
}
