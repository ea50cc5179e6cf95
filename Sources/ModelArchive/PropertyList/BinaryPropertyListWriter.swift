/// Writes `bplist00` binary property lists, the format of `.mom`, `.cdm`, `VersionInfo.plist`
/// and Core Data's store metadata. Foundation on Linux cannot write the `UID` type keyed
/// archives need, so this encoder is modelc's own.
///
/// Objects are numbered in the order they are added; a container takes its number before its
/// members, as CoreFoundation numbers them. Equal scalars are written once, as CoreFoundation
/// does: each scalar type has its own table, so no scalar is hashed twice. A scalar's bytes are
/// encoded when it is added; a container's are written at the end, when the size of an object
/// reference (which depends on the number of objects) is known.
///
/// ```swift
/// var writer = BinaryPropertyListWriter()
/// let root = writer.addArray(count: 1)
/// writer.setMember(0, of: root, to: writer.add(string: "hello"))
/// let bytes = writer.encoded(top: root.object)
/// ```
public struct BinaryPropertyListWriter {
    /// A container whose members are set with ``setMember(_:of:to:)``: `slot` is the first of
    /// its member slots (for a dictionary, its keys, then its values).
    public struct Container {
        public let object: Int
        let slot: Int
    }

    /// An object of the table: a scalar's encoded bytes, or a container's marker and members.
    private struct Entry {
        /// The first byte in `scalarBytes`, or the first slot in `members`.
        var start: Int
        /// The number of bytes, or of members (pairs, for a dictionary).
        var count: Int
        /// 0 for a scalar, else the marker type: 0xA array, 0xC set, 0xD dictionary.
        var containerType: UInt8
    }

    private var entries: [Entry] = []
    private var scalarBytes: [UInt8] = []
    private var members: [Int] = []
    private var strings: [String: Int] = [:]
    private var integers: [Int64: Int] = [:]
    /// The object of each UID, by UID (which counts up from 0 in a keyed archive), or -1.
    private var uids: [Int] = []
    /// Reals and dates by bit pattern, with -0.0 as 0.0 (they are equal values).
    private var reals: [UInt64: Int] = [:]
    private var dates: [UInt64: Int] = [:]
    private var datas: [[UInt8]: Int] = [:]
    private var bools: [Int?] = [nil, nil]

    public init() {}

    /// The binary property list of `root`, a tree of values.
    public static func encode(_ root: PropertyListValue) -> [UInt8] {
        var writer = BinaryPropertyListWriter()
        let top = writer.add(root)
        return writer.encoded(top: top)
    }

    // MARK: - Adding objects

    /// Adds `value` and, for a container, its members depth-first; returns its object number.
    public mutating func add(_ value: PropertyListValue) -> Int {
        switch value {
        case .string(let text): return add(string: text)
        case .integer(let number): return add(integer: number)
        case .real(let number): return add(real: number)
        case .bool(let flag): return add(bool: flag)
        case .uid(let number): return add(uid: number)
        case .date(let seconds):
            return unique(\.dates, key: seconds.isZero ? 0 : seconds.bitPattern) { writer in
                writer.scalarBytes.append(0x33)
                writer.appendBigEndian(seconds.bitPattern, size: 8)
            }
        case .data(let bytes):
            return unique(\.datas, key: bytes) { writer in
                writer.appendMarker(0x4, count: bytes.count)
                writer.scalarBytes += bytes
            }
        case .array(let items), .set(let items):
            let container = value.isSet ? addSet(count: items.count) : addArray(count: items.count)
            for (position, item) in items.enumerated() { setMember(position, of: container, to: add(item)) }
            return container.object
        case .dictionary(let pairs):
            let container = addDictionary(count: pairs.count)
            for (position, pair) in pairs.enumerated() { setMember(position, of: container, to: add(string: pair.key)) }
            for (position, pair) in pairs.enumerated() {
                setMember(pairs.count + position, of: container, to: add(pair.value))
            }
            return container.object
        }
    }

    /// Adds a string: ASCII as 8-bit characters, anything else as UTF-16.
    public mutating func add(string text: String) -> Int {
        if let known = strings[text] { return known }
        let index = beginScalar()
        if text.utf8.allSatisfy({ $0 < 0x80 }) {
            appendMarker(0x5, count: text.utf8.count)
            scalarBytes += text.utf8
        } else {
            let units = Array(text.utf16)
            appendMarker(0x6, count: units.count)
            for unit in units { appendBigEndian(UInt64(unit), size: 2) }
        }
        endScalar(index)
        strings[text] = index
        return index
    }

    public mutating func add(integer number: Int64) -> Int {
        unique(\.integers, key: number) { writer in writer.appendInteger(number) }
    }

    public mutating func add(real number: Double) -> Int {
        unique(\.reals, key: number.isZero ? 0 : number.bitPattern) { writer in
            writer.scalarBytes.append(0x23)
            writer.appendBigEndian(number.bitPattern, size: 8)
        }
    }

    public mutating func add(bool flag: Bool) -> Int {
        if let known = bools[flag ? 1 : 0] { return known }
        let index = beginScalar()
        scalarBytes.append(flag ? 0x09 : 0x08)
        endScalar(index)
        bools[flag ? 1 : 0] = index
        return index
    }

    /// Adds a keyed archive's object reference.
    public mutating func add(uid number: UInt32) -> Int {
        let slot = Int(number)
        if slot < uids.count, uids[slot] >= 0 { return uids[slot] }
        let index = beginScalar()
        let size = Self.byteCount(for: UInt64(number))
        scalarBytes.append(0x80 | UInt8(size - 1))
        appendBigEndian(UInt64(number), size: size)
        endScalar(index)
        if slot >= uids.count { uids += repeatElement(-1, count: max(slot + 1 - uids.count, uids.count)) }
        uids[slot] = index
        return index
    }

    public mutating func addArray(count: Int) -> Container { addContainer(0xA, count: count, slots: count) }

    public mutating func addSet(count: Int) -> Container { addContainer(0xC, count: count, slots: count) }

    /// Adds a dictionary of `count` pairs: members `0..<count` are its keys, then its values.
    public mutating func addDictionary(count: Int) -> Container { addContainer(0xD, count: count, slots: 2 * count) }

    /// Makes member `position` of `container` refer to object `object`.
    public mutating func setMember(_ position: Int, of container: Container, to object: Int) {
        members[container.slot + position] = object
    }

    private mutating func addContainer(_ type: UInt8, count: Int, slots: Int) -> Container {
        let container = Container(object: entries.count, slot: members.count)
        entries.append(Entry(start: members.count, count: count, containerType: type))
        for _ in 0..<slots { members.append(0) }
        return container
    }

    /// The number of the scalar `key` names, encoding it with `write` when it is new.
    private mutating func unique<Key: Hashable>(
        _ table: WritableKeyPath<Self, [Key: Int]>, key: Key, write: (inout Self) -> Void
    ) -> Int {
        if let known = self[keyPath: table][key] { return known }
        let index = beginScalar()
        write(&self)
        endScalar(index)
        self[keyPath: table][key] = index
        return index
    }

    private mutating func beginScalar() -> Int {
        entries.append(Entry(start: scalarBytes.count, count: 0, containerType: 0))
        return entries.count - 1
    }

    private mutating func endScalar(_ index: Int) {
        entries[index].count = scalarBytes.count - entries[index].start
    }

    // MARK: - Encoding

    /// The file: header, objects in number order, offset table and trailer naming `top`.
    public func encoded(top: Int) -> [UInt8] {
        let referenceSize = Self.byteCount(for: UInt64(entries.count))
        var output: [UInt8] = Array("bplist00".utf8)
        output.reserveCapacity(8 + scalarBytes.count + members.count * referenceSize + entries.count * 8 + 32)
        var offsets = [Int]()
        offsets.reserveCapacity(entries.count)
        for entry in entries {
            offsets.append(output.count)
            if entry.containerType == 0 {
                output.append(contentsOf: scalarBytes[entry.start..<entry.start + entry.count])
            } else {
                Self.appendMarker(entry.containerType, count: entry.count, to: &output)
                let slots = entry.containerType == 0xD ? 2 * entry.count : entry.count
                for member in members[entry.start..<entry.start + slots] {
                    Self.appendBigEndian(UInt64(member), size: referenceSize, to: &output)
                }
            }
        }
        let tableOffset = output.count
        let offsetSize = Self.byteCount(for: UInt64(tableOffset))
        for offset in offsets {
            Self.appendBigEndian(UInt64(offset), size: offsetSize, to: &output)
        }
        output += [0, 0, 0, 0, 0, 0]
        output.append(UInt8(offsetSize))
        output.append(UInt8(referenceSize))
        Self.appendBigEndian(UInt64(entries.count), size: 8, to: &output)
        Self.appendBigEndian(UInt64(top), size: 8, to: &output)
        Self.appendBigEndian(UInt64(tableOffset), size: 8, to: &output)
        return output
    }

    private mutating func appendInteger(_ number: Int64) {
        Self.appendInteger(number, to: &scalarBytes)
    }

    private mutating func appendMarker(_ type: UInt8, count: Int) {
        Self.appendMarker(type, count: count, to: &scalarBytes)
    }

    private mutating func appendBigEndian(_ value: UInt64, size: Int) {
        Self.appendBigEndian(value, size: size, to: &scalarBytes)
    }

    /// An integer in the fewest of 1, 2, 4 or 8 bytes; negative ones always take 8.
    private static func appendInteger(_ number: Int64, to output: inout [UInt8]) {
        if number < 0 {
            output.append(0x13)
            appendBigEndian(UInt64(bitPattern: number), size: 8, to: &output)
            return
        }
        let size = byteCount(for: UInt64(number))
        let exponent: UInt8 = size == 1 ? 0 : size == 2 ? 1 : size <= 4 ? 2 : 3
        output.append(0x10 | exponent)
        appendBigEndian(UInt64(number), size: 1 << Int(exponent), to: &output)
    }

    /// A type marker with its count in the low nibble, or followed by an integer from 15 on.
    private static func appendMarker(_ type: UInt8, count: Int, to output: inout [UInt8]) {
        if count < 15 {
            output.append(type << 4 | UInt8(count))
        } else {
            output.append(type << 4 | 0x0F)
            appendInteger(Int64(count), to: &output)
        }
    }

    static func byteCount(for value: UInt64) -> Int {
        if value <= 0xFF { return 1 }
        if value <= 0xFFFF { return 2 }
        if value <= 0xFFFF_FFFF { return 4 }
        return 8
    }

    private static func appendBigEndian(_ value: UInt64, size: Int, to output: inout [UInt8]) {
        switch size {
        case 1:
            output.append(UInt8(truncatingIfNeeded: value))
        case 2:
            output.append(UInt8(truncatingIfNeeded: value >> 8))
            output.append(UInt8(truncatingIfNeeded: value))
        default:
            for index in stride(from: size - 1, through: 0, by: -1) {
                output.append(UInt8(truncatingIfNeeded: value >> (UInt64(index) * 8)))
            }
        }
    }
}

extension PropertyListValue {
    fileprivate var isSet: Bool {
        if case .set = self { return true }
        return false
    }
}
