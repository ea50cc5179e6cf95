/// Writes `bplist00` binary property lists, the format of `.mom`, `.cdm`, `VersionInfo.plist`
/// and Core Data's store metadata. Foundation on Linux cannot write the `UID` type keyed
/// archives need, so this encoder is modelc's own.
///
/// Objects are numbered in the order they are added; a container takes its number before its
/// members, as CoreFoundation numbers them. Equal scalars are written once, as CoreFoundation
/// does: each scalar type has its own table, so no scalar is hashed twice. Each object is
/// stored as it is added, in one buffer: its leading bytes (a scalar's encoding, or a
/// container's marker), then its member references. The size of a reference depends on the
/// number of objects, known only at the end, so references are written at the size of the
/// most objects the caller expects; when the file needs narrower ones, ``encoded(top:)``
/// narrows them as it copies.
///
/// ```swift
/// var writer = BinaryPropertyListWriter()
/// let root = writer.addArray(count: 1)
/// writer.setMember(0, of: root, to: writer.add(string: "hello"))
/// let bytes = writer.encoded(top: root.object)
/// ```
public struct BinaryPropertyListWriter: ~Copyable {
    /// A container whose members are set with ``setMember(_:of:to:)``: `slot` is where its
    /// member references start in `bytes` (for a dictionary, its keys, then its values).
    struct Container {
        let object: Int
        let slot: Int
    }

    /// Where an object starts in `bytes`, and how many references the objects before it hold.
    struct ObjectStart {
        var byte: Int
        var referencesBefore: Int
    }

    private var starts: GrowableBuffer<ObjectStart>
    private var bytes: GrowableBuffer<UInt8>
    /// The size references are written at in `bytes`: enough for the most objects expected.
    private let referenceSize: Int
    /// The references written so far.
    private var referenceCount = 0
    private var strings: [String: Int] = [:]
    private var integers: [Int64: Int] = [:]
    /// The object of each integer below `smallIntegers.count`, or -1: archives repeat small
    /// integers (flag words, types, counts), so these skip hashing.
    private var smallIntegers = [Int](repeating: -1, count: 4096)
    /// The object of each UID, by UID (which counts up from 0 in a keyed archive), or -1.
    private var uids: [Int] = []
    /// Reals and dates by marker and bit pattern, with -0.0 as 0.0 (they are equal values).
    private var eightByteFloats: [EightByteFloat: Int] = [:]
    private var datas: [[UInt8]: Int] = [:]
    private var bools: [Int?] = [nil, nil]

    /// A writer for a property list of at most `maximumObjects` objects, with room for
    /// `objects` objects and `bytes` bytes, so that a large archive does not copy its buffers
    /// as they grow.
    init(maximumObjects: Int = Int(UInt32.max), objects: Int = 64, bytes: Int = 1024) {
        referenceSize = Self.byteCount(for: UInt64(maximumObjects))
        starts = GrowableBuffer(capacity: objects)
        self.bytes = GrowableBuffer(capacity: bytes)
    }

    /// The binary property list of `root`, a tree of values.
    public static func encode(_ root: PropertyListValue) -> [UInt8] {
        var writer = BinaryPropertyListWriter()
        let top = writer.add(root)
        return writer.encoded(top: top)
    }

    /// Makes room for `strings` distinct strings, so that a large archive does not rehash its
    /// table as it grows.
    mutating func reserveCapacity(strings: Int) {
        self.strings.reserveCapacity(strings)
    }

    // MARK: - Adding objects

    /// Adds `value` and, for a container, its members depth-first; returns its object number.
    mutating func add(_ value: PropertyListValue) -> Int {
        switch value {
        case .string(let text): return add(string: text)
        case .integer(let number): return add(integer: number)
        case .real(let number): return add(real: number)
        case .bool(let flag): return add(bool: flag)
        case .uid(let number): return add(uid: number)
        case .date(let seconds):
            return addEightByteFloat(seconds, marker: 0x33)
        case .data(let data):
            if let known = datas[data] { return known }
            let index = beginScalar()
            appendMarker(0x4, count: data.count)
            data.withUnsafeBufferPointer { bytes.append(contentsOf: $0) }
            datas[data] = index
            return index
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
    mutating func add(string text: String) -> Int {
        let index = strings.findOrInsert(text, starts.count)
        if index < starts.count { return index }
        _ = beginScalar()
        var contiguous = text
        contiguous.makeContiguousUTF8()
        // ASCII is copied from the string's own UTF-8 storage rather than byte by byte.
        let isASCII = contiguous.utf8.withContiguousStorageIfAvailable { utf8 in
            guard utf8.allSatisfy({ $0 < 0x80 }) else { return false }
            appendMarker(0x5, count: utf8.count)
            bytes.append(contentsOf: utf8)
            return true
        }
        if isASCII == nil, text.utf8.allSatisfy({ $0 < 0x80 }) {
            appendMarker(0x5, count: text.utf8.count)
            for byte in text.utf8 { bytes.append(byte) }
        } else if isASCII != true {
            let units = Array(text.utf16)
            appendMarker(0x6, count: units.count)
            for unit in units { appendBigEndian(UInt64(unit), size: 2) }
        }
        return index
    }

    /// Adds an integer, in the fewest bytes that hold it.
    mutating func add(integer number: Int64) -> Int {
        guard number >= 0, number < smallIntegers.count else {
            if let known = integers[number] { return known }
            let index = beginScalar()
            appendInteger(number)
            integers[number] = index
            return index
        }
        let known = smallIntegers[Int(number)]
        if known >= 0 { return known }
        let index = beginScalar()
        appendInteger(number)
        smallIntegers[Int(number)] = index
        return index
    }

    /// Adds a real, as 8 bytes.
    mutating func add(real number: Double) -> Int {
        addEightByteFloat(number, marker: 0x23)
    }

    /// Adds a real (`0x23`) or date (`0x33`) once per value, keyed by bit pattern with -0.0
    /// as 0.0.
    private mutating func addEightByteFloat(_ number: Double, marker: UInt8) -> Int {
        let key = EightByteFloat(marker: marker, bits: number.isZero ? 0 : number.bitPattern)
        if let known = eightByteFloats[key] { return known }
        let index = beginScalar()
        bytes.append(marker)
        appendBigEndian(number.bitPattern, size: 8)
        eightByteFloats[key] = index
        return index
    }

    /// What makes a real or date the same object: its marker and its value's bits.
    private struct EightByteFloat: Hashable {
        var marker: UInt8
        var bits: UInt64
    }

    /// Adds a boolean.
    mutating func add(bool flag: Bool) -> Int {
        if let known = bools[flag ? 1 : 0] { return known }
        let index = beginScalar()
        bytes.append(flag ? 0x09 : 0x08)
        bools[flag ? 1 : 0] = index
        return index
    }

    /// Adds a keyed archive's object reference.
    @inline(__always)
    mutating func add(uid number: UInt32) -> Int {
        let slot = Int(number)
        if slot < uids.count, uids[slot] >= 0 { return uids[slot] }
        return addNew(uid: number)
    }

    /// Adds a keyed archive's object reference not added before.
    private mutating func addNew(uid number: UInt32) -> Int {
        let slot = Int(number)
        let index = beginScalar()
        let size = Self.byteCount(for: UInt64(number))
        bytes.append(0x80 | UInt8(size - 1))
        appendBigEndian(UInt64(number), size: size)
        if slot >= uids.count { uids += repeatElement(-1, count: max(slot + 1 - uids.count, uids.count)) }
        uids[slot] = index
        return index
    }

    /// Adds an array of `count` members.
    mutating func addArray(count: Int) -> Container { addContainer(0xA, count: count, slots: count) }

    /// Adds a set of `count` members.
    mutating func addSet(count: Int) -> Container { addContainer(0xC, count: count, slots: count) }

    /// Adds a dictionary of `count` pairs: members `0..<count` are its keys, then its values.
    mutating func addDictionary(count: Int) -> Container { addContainer(0xD, count: count, slots: 2 * count) }

    /// Makes member `position` of `container` refer to object `object`.
    @inline(__always)
    mutating func setMember(_ position: Int, of container: Container, to object: Int) {
        GrowableBuffer.store(
            UInt64(object), size: referenceSize, at: bytes.base + container.slot + position * referenceSize)
    }

    /// Starts a container: its marker and room for its `slots` member references.
    private mutating func addContainer(_ type: UInt8, count: Int, slots: Int) -> Container {
        let object = beginScalar()
        appendMarker(type, count: count)
        let slot = bytes.appendUninitialized(slots * referenceSize)
        referenceCount += slots
        return Container(object: object, slot: slot)
    }

    /// Starts an object with no members, whose bytes the caller appends next.
    @inline(__always)
    private mutating func beginScalar() -> Int {
        starts.append(ObjectStart(byte: bytes.count, referencesBefore: referenceCount))
        return starts.count - 1
    }

    // MARK: - Encoding

    /// The file: header, objects in number order, offset table and trailer naming `top`.
    ///
    /// Every size is known before writing (an object's offset is the bytes and references
    /// before it), so the file is written into one buffer of the right size.
    func encoded(top: Int) -> [UInt8] {
        let count = starts.count
        let fileReferenceSize = Self.byteCount(for: UInt64(count))
        precondition(fileReferenceSize <= referenceSize, "more property list objects than expected")
        let narrowing = referenceSize - fileReferenceSize
        let tableOffset = 8 + bytes.count - referenceCount * narrowing
        let offsetSize = Self.byteCount(for: UInt64(tableOffset))
        let size = tableOffset + count * offsetSize + 32
        return [UInt8](unsafeUninitializedCapacity: size) { buffer, initialized in
            var output = OutputBuffer(buffer.baseAddress!)
            output.append(contentsOf: Array("bplist00".utf8))
            if narrowing == 0 {
                output.append(contentsOf: bytes.elements)
            } else {
                writeNarrowed(to: &output, referenceSize: fileReferenceSize)
            }
            for index in 0..<count {
                let start = starts[index]
                output.appendBigEndian(UInt64(8 + start.byte - start.referencesBefore * narrowing), size: offsetSize)
            }
            output.append(contentsOf: [0, 0, 0, 0, 0, 0, UInt8(offsetSize), UInt8(fileReferenceSize)])
            output.appendBigEndian(UInt64(count), size: 8)
            output.appendBigEndian(UInt64(top), size: 8)
            output.appendBigEndian(UInt64(tableOffset), size: 8)
            precondition(output.count == size, "binary property list size mismatch")
            initialized = size
        }
    }

    /// Writes the objects with their references narrowed to `size` bytes.
    private func writeNarrowed(to output: inout OutputBuffer, referenceSize size: Int) {
        let all = bytes.elements
        for index in 0..<starts.count {
            let start = starts[index]
            let next = index + 1 < starts.count
                ? starts[index + 1] : ObjectStart(byte: bytes.count, referencesBefore: referenceCount)
            let references = next.referencesBefore - start.referencesBefore
            let firstReference = next.byte - references * referenceSize
            output.append(contentsOf: UnsafeBufferPointer(rebasing: all[start.byte..<firstReference]))
            for position in 0..<references {
                output.appendBigEndian(loadReference(at: firstReference + position * referenceSize), size: size)
            }
        }
    }

    /// The reference written at `offset` in `bytes`.
    private func loadReference(at offset: Int) -> UInt64 {
        let raw = UnsafeRawPointer(bytes.base + offset)
        switch referenceSize {
        case 1: return UInt64(raw.load(as: UInt8.self))
        case 2: return UInt64(UInt16(bigEndian: raw.loadUnaligned(as: UInt16.self)))
        case 4: return UInt64(UInt32(bigEndian: raw.loadUnaligned(as: UInt32.self)))
        default: return UInt64(bigEndian: raw.loadUnaligned(as: UInt64.self))
        }
    }

    /// An integer in the fewest of 1, 2, 4 or 8 bytes; negative ones always take 8.
    private mutating func appendInteger(_ number: Int64) {
        if number < 0 {
            bytes.append(0x13)
            bytes.appendBigEndian(UInt64(bitPattern: number), size: 8)
            return
        }
        let size = Self.byteCount(for: UInt64(number))
        let exponent: UInt8 = size == 1 ? 0 : size == 2 ? 1 : size <= 4 ? 2 : 3
        bytes.append(0x10 | exponent)
        bytes.appendBigEndian(UInt64(number), size: 1 << Int(exponent))
    }

    /// A type marker with its count in the low nibble, or followed by an integer from 15 on.
    private mutating func appendMarker(_ type: UInt8, count: Int) {
        if count < 15 {
            bytes.append(type << 4 | UInt8(count))
        } else {
            bytes.append(type << 4 | 0x0F)
            appendInteger(Int64(count))
        }
    }

    private mutating func appendBigEndian(_ value: UInt64, size: Int) {
        bytes.appendBigEndian(value, size: size)
    }

    static func byteCount(for value: UInt64) -> Int {
        if value <= 0xFF { return 1 }
        if value <= 0xFFFF { return 2 }
        if value <= 0xFFFF_FFFF { return 4 }
        return 8
    }
}

extension PropertyListValue {
    fileprivate var isSet: Bool {
        if case .set = self { return true }
        return false
    }
}
