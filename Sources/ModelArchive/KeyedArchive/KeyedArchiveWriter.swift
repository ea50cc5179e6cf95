/// Encodes an NSKeyedArchiver archive: `$archiver`, `$version` 100000, `$top.root`, and
/// `$objects` numbered in first-encounter order, each object followed by the objects it refers to
/// and then its class description.
///
/// It works in two passes. The first numbers the archive's objects, depth-first as
/// NSKeyedArchiver does, and records each object's keys and field values with their references
/// resolved. Objects come either from an ``ArchivedObject`` graph or straight from an encoder such
/// as ``ModelArchiver``, which calls ``beginObject()``, the `append` functions and
/// ``endObject(_:chain:)`` as it visits its model, so that no graph is built. The second pass
/// writes the objects, in number order, straight into a ``BinaryPropertyListWriter``: no property
/// list tree is built in between.
///
/// Keys are kept as numbers (an ``ArchiveKey``, or a number given to another key on first use)
/// and class chains as ``ArchiveClass`` cases where possible, so that the hot paths copy, compare
/// and look up small integers instead of strings.
public struct KeyedArchiveWriter: ~Copyable {
    /// An object of `$objects`.
    private enum Entry {
        case string(String)
        /// A data or number object.
        case scalar(PropertyListValue)
        /// An object: where its keys and field values start in `keys` and `values`, how many
        /// keys it has, and its class description.
        case object(firstKey: Int, keyCount: Int, firstValue: Int, classNumber: UInt32)
        case classDescription([String])
    }

    /// A field value with its references resolved; an array's members follow it.
    enum FieldValue {
        case uid(UInt32)
        /// Bytes in place: their index in ``inlineBytes``.
        case bytes(Int)
        case bool(Bool)
        case integer(Int64)
        case real(Double)
        case array(count: Int)
    }

    /// An object whose fields are being encoded: its number and where its keys and values start
    /// on the pending stacks.
    struct OpenObject {
        let number: UInt32
        fileprivate let keyMark: Int
        fileprivate let valueMark: Int
    }

    /// The number of the first key that is not an ``ArchiveKey``.
    private static let firstOtherKey = ArchiveKey.allCases.count

    private var entries: [Entry] = [.string("$null")]
    /// The key numbers of every object, each object's together, in the order of its fields.
    private var keys = GrowableBuffer<UInt16>(capacity: 1024)
    /// The field values of every object, each object's together, in the order of its fields.
    private var values = GrowableBuffer<FieldValue>(capacity: 1024)
    /// The keys and field values of the objects being numbered, innermost last: they move to
    /// `keys` and `values` once the object's fields are numbered, so no object needs arrays of
    /// its own.
    private var pendingKeys = GrowableBuffer<UInt16>(capacity: 256)
    private var pendingValues = GrowableBuffer<FieldValue>(capacity: 256)
    /// Keys of ``ArchivedObject`` fields that are not ``ArchiveKey`` cases, numbered from
    /// `firstOtherKey` on.
    private var otherKeys: [String] = []
    private var otherKeyNumbers: [String: UInt16] = [:]
    private var objectNumbers: [ObjectIdentifier: UInt32] = [:]
    private var stringNumbers: [String: UInt32] = [:]
    /// NSNumber objects by value, one table per type; reals by bit pattern, with -0.0 as 0.0
    /// (they are equal values). Other scalars (data, NaN) go in `scalarNumbers`.
    private var integerNumbers: [Int64: UInt32] = [:]
    private var realNumbers: [UInt64: UInt32] = [:]
    private var boolNumbers: [UInt32] = [0, 0]
    private var scalarNumbers: [PropertyListValue: UInt32] = [:]
    private var classNumbers: [[String]: UInt32] = [:]
    /// The bytes of the fields encoded in place, by ``FieldValue/bytes(_:)`` index.
    private var inlineBytes: [[UInt8]] = []
    /// The class description of each ``ArchiveClass``, by raw value, 0 until numbered.
    private var chainNumbers = [UInt32](repeating: 0, count: ArchiveClass.allCases.count)
    /// The last string numbered: a property's renaming identifier is usually its name, so this
    /// saves hashing it.
    private var lastString: (text: String, number: UInt32)?

    init() {}

    /// The archive of `root` as binary property list bytes.
    public static func archive(_ root: ArchivedObject) -> [UInt8] {
        var archive = KeyedArchiveWriter()
        let top = archive.number(for: root)
        return archive.encoded(top: top)
    }

    /// The archive as binary property list bytes, with the object numbered `top` as its root.
    func encoded(top: UInt32) -> [UInt8] {
        // At most: the top dictionary and its 10 members, each entry, a UID per entry, an
        // object per field value, each key and `$class`, and per class description its keys,
        // its array and its class names. About one field value in four is a new scalar.
        let classNames = classNumbers.keys.reduce(0) { $0 + $1.count }
        let maximumObjects = 11 + 2 * entries.count + values.count + Self.firstOtherKey + otherKeys.count + 1
            + 3 * classNumbers.count + classNames
        var plist = BinaryPropertyListWriter(
            maximumObjects: maximumObjects, objects: entries.count + values.count / 4,
            bytes: 4 * (2 * keys.count + values.count + entries.count) + 16 * entries.count)
        // The property list adds keys and class names to the archive's strings.
        plist.reserveCapacity(strings: stringNumbers.count + 128)
        let topObject = write(top: top, into: &plist)
        return plist.encoded(top: topObject)
    }

    // MARK: - Numbering

    /// Makes room for `fields` fields, so that a large model does not copy its fields as they
    /// grow.
    mutating func reserveCapacity(fields: Int) {
        keys.reserve(fields)
        values.reserve(fields)
    }

    /// Numbers a new object, whose fields the caller then appends before ``endObject(_:chain:)``.
    @inline(__always)
    mutating func beginObject() -> OpenObject {
        let number = UInt32(entries.count)
        entries.append(.string(""))  // a placeholder until the fields are numbered
        return OpenObject(number: number, keyMark: pendingKeys.count, valueMark: pendingValues.count)
    }

    /// Appends the field `key`, a reference to the object numbered `number`, to the innermost
    /// open object.
    @inline(__always)
    mutating func append(_ key: ArchiveKey, object number: UInt32) {
        pendingKeys.append(UInt16(key.rawValue))
        pendingValues.append(.uid(number))
    }

    /// Appends the field `key`, bytes in place (`encodeBytes:length:forKey:`), to the innermost
    /// open object.
    mutating func append(_ key: ArchiveKey, bytes: [UInt8]) {
        pendingKeys.append(UInt16(key.rawValue))
        pendingValues.append(.bytes(inlineBytes.count))
        inlineBytes.append(bytes)
    }

    /// Appends the field `key`, a nil object, to the innermost open object.
    @inline(__always)
    mutating func appendNull(_ key: ArchiveKey) {
        append(key, object: 0)
    }

    /// Appends the field `key`, a string object, to the innermost open object.
    mutating func append(_ key: ArchiveKey, string: String) {
        append(key, object: number(for: string))
    }

    /// Appends the field `key`, a string object or nil, to the innermost open object.
    mutating func append(_ key: ArchiveKey, string: String?) {
        append(key, object: string.map { number(for: $0) } ?? 0)
    }

    /// Appends the field `key`, a boolean encoded in place, to the innermost open object.
    @inline(__always)
    mutating func append(_ key: ArchiveKey, bool flag: Bool) {
        pendingKeys.append(UInt16(key.rawValue))
        pendingValues.append(.bool(flag))
    }

    /// Appends the field `key`, an integer encoded in place, to the innermost open object.
    @inline(__always)
    mutating func append(_ key: ArchiveKey, integer number: Int64) {
        pendingKeys.append(UInt16(key.rawValue))
        pendingValues.append(.integer(number))
    }

    /// Appends the field `key`, a real encoded in place, to the innermost open object.
    @inline(__always)
    mutating func append(_ key: ArchiveKey, real number: Double) {
        pendingKeys.append(UInt16(key.rawValue))
        pendingValues.append(.real(number))
    }

    /// Appends the field `key`, a list of `count` references that ``appendMember(object:)``
    /// then appends, to the innermost open object.
    @inline(__always)
    mutating func appendArray(_ key: ArchiveKey, count: Int) {
        pendingKeys.append(UInt16(key.rawValue))
        pendingValues.append(.array(count: count))
    }

    /// Appends the field `key` to the innermost open object, numbering the objects it refers to,
    /// which nothing appended later may refer to (see ``number(for:)``).
    mutating func append(_ key: ArchiveKey, _ value: ArchiveValue) {
        appendPending(value)
        pendingKeys.append(UInt16(key.rawValue))
        forgetObjects()
    }

    /// Appends a reference to the object numbered `number` to the list appended last.
    @inline(__always)
    mutating func appendMember(object number: UInt32) {
        pendingValues.append(.uid(number))
    }

    /// Closes `object` once its fields are appended, numbering its class description.
    mutating func endObject(_ object: OpenObject, chain: ArchiveClass) {
        close(object, classNumber: classNumber(chain))
    }

    /// Moves the fields of `object` from the pending stacks and records it.
    private mutating func close(_ object: OpenObject, classNumber: UInt32) {
        let firstKey = keys.count
        Self.move(from: &pendingKeys, at: object.keyMark, to: &keys)
        let firstValue = values.count
        Self.move(from: &pendingValues, at: object.valueMark, to: &values)
        entries[Int(object.number)] = .object(
            firstKey: firstKey, keyCount: keys.count - firstKey, firstValue: firstValue, classNumber: classNumber)
    }

    /// Moves the elements of `pending` from `mark` on to the end of `target`.
    private static func move<Element>(
        from pending: inout GrowableBuffer<Element>, at mark: Int, to target: inout GrowableBuffer<Element>
    ) {
        target.append(contentsOf: UnsafeBufferPointer(rebasing: pending.elements[mark...]))
        pending.removeLast(pending.count - mark)
    }

    /// Numbers `object`, then the objects its fields refer to, as one graph: nothing numbered
    /// later may refer to its objects, which the caller need not keep alive.
    mutating func number(for object: ArchivedObject) -> UInt32 {
        let number = numbered(object)
        forgetObjects()
        return number
    }

    /// The number of `object`, numbering it, then the objects its fields refer to, when new.
    ///
    /// Depth-first as NSKeyedArchiver, but with a work list instead of recursion, so that a graph
    /// as deep as a model's inheritance chain (a mapping model's snapshots) keeps the stack flat:
    /// an object whose field refers to a new object waits while that one is numbered.
    private mutating func numbered(_ object: ArchivedObject) -> UInt32 {
        if let known = objectNumbers[ObjectIdentifier(object)] { return known }
        var frames = [openFrame(object)]
        while let top = frames.indices.last {
            guard let item = frames[top].work.popLast() else {
                close(frames[top].open, classNumber: classNumber(frames[top].object.classes))
                frames.removeLast()
                continue
            }
            switch item {
            case .key(let key):
                pendingKeys.append(keyNumber(key))
            case .value(.object(let next)):
                if let known = objectNumbers[ObjectIdentifier(next)] {
                    pendingValues.append(.uid(known))
                } else {
                    frames[top].work.append(item)
                    frames.append(openFrame(next))
                }
            case .value(.references(let items)):
                pendingValues.append(.array(count: items.count))
                frames[top].work += items.reversed().map { .value($0) }
            case .value(let value):
                appendPending(value)
            }
        }
        return objectNumbers[ObjectIdentifier(object)]!
    }

    /// An ``ArchivedObject`` being numbered by ``numbered(_:)``: its field values and keys still
    /// to append, the next one last.
    private struct GraphFrame {
        enum Item {
            case value(ArchiveValue)
            case key(String)
        }

        let object: ArchivedObject
        let open: OpenObject
        var work: [Item]
    }

    /// Numbers `object`, which is new, and lists its fields as work.
    private mutating func openFrame(_ object: ArchivedObject) -> GraphFrame {
        let open = beginObject()
        objectNumbers[ObjectIdentifier(object)] = open.number
        return GraphFrame(object: object, open: open, work: object.fields.reversed().flatMap { [.key($0.key), .value($0.value)] })
    }

    /// The number of a key of an ``ArchivedObject`` field. Such keys get numbers of their own
    /// even when they spell an ``ArchiveKey``: the property list writer makes equal strings one
    /// object either way.
    private mutating func keyNumber(_ key: String) -> UInt16 {
        if let known = otherKeyNumbers[key] { return known }
        let number = UInt16(Self.firstOtherKey + otherKeys.count)
        otherKeys.append(key)
        otherKeyNumbers[key] = number
        return number
    }

    /// Forgets the identities of the graph numbered last: once its objects are freed, new
    /// objects may reuse their addresses.
    private mutating func forgetObjects() {
        if !objectNumbers.isEmpty { objectNumbers.removeAll(keepingCapacity: true) }
    }

    /// Appends `value` to `pendingValues`, numbering the objects it refers to.
    private mutating func appendPending(_ value: ArchiveValue) {
        let resolved: FieldValue
        switch value {
        case .null: resolved = .uid(0)
        case .bool(let flag): resolved = .bool(flag)
        case .integer(let number): resolved = .integer(number)
        case .real(let number): resolved = .real(number)
        case .string(let text): resolved = .uid(number(for: text))
        case .data(let bytes): resolved = .uid(number(for: .data(bytes)))
        case .bytes(let bytes):
            resolved = .bytes(inlineBytes.count)
            inlineBytes.append(bytes)
        case .number(let scalar): resolved = .uid(number(for: scalar))
        case .object(let object): resolved = .uid(numbered(object))
        case .references(let items):
            pendingValues.append(.array(count: items.count))
            for item in items { appendPending(item) }
            return
        }
        pendingValues.append(resolved)
    }

    /// The number of a string object; equal strings are one object.
    mutating func number(for text: String) -> UInt32 {
        if let last = lastString, last.text == text { return last.number }
        let next = UInt32(entries.count)
        let number = stringNumbers.findOrInsert(text, next)
        if number == next { entries.append(.string(text)) }
        lastString = (text, number)
        return number
    }

    /// The number of a data or number object; equal values are one object.
    mutating func number(for scalar: PropertyListValue) -> UInt32 {
        switch scalar {
        case .string(let text): return number(for: text)
        case .integer(let value): return number(integer: value)
        case .bool(let flag): return number(bool: flag)
        case .real(let value) where !value.isNaN: return number(real: value)
        default:
            if let known = scalarNumbers[scalar] { return known }
            let index = newScalar(scalar)
            scalarNumbers[scalar] = index
            return index
        }
    }

    /// The number of an NSNumber object holding `value`; the value is boxed as a
    /// ``PropertyListValue`` only when new.
    mutating func number(integer value: Int64) -> UInt32 {
        if let known = integerNumbers[value] { return known }
        let index = newScalar(.integer(value))
        integerNumbers[value] = index
        return index
    }

    /// The number of an NSNumber object holding `flag`.
    mutating func number(bool flag: Bool) -> UInt32 {
        let slot = flag ? 1 : 0
        if boolNumbers[slot] == 0 { boolNumbers[slot] = newScalar(.bool(flag)) }
        return boolNumbers[slot]
    }

    /// The number of an NSNumber object holding `value`, which is not NaN.
    mutating func number(real value: Double) -> UInt32 {
        let bits = value.isZero ? 0 : value.bitPattern
        if let known = realNumbers[bits] { return known }
        let index = newScalar(.real(value))
        realNumbers[bits] = index
        return index
    }

    /// Numbers a new data or number object.
    private mutating func newScalar(_ scalar: PropertyListValue) -> UInt32 {
        entries.append(.scalar(scalar))
        return UInt32(entries.count - 1)
    }

    /// The number of the class description of `chain`, written once per archive.
    private mutating func classNumber(_ chain: ArchiveClass) -> UInt32 {
        let known = chainNumbers[Int(chain.rawValue)]
        if known != 0 { return known }
        let number = classNumber(chain.names)
        chainNumbers[Int(chain.rawValue)] = number
        return number
    }

    /// The number of the class description of `classes`, written once per archive.
    private mutating func classNumber(_ classes: [String]) -> UInt32 {
        if let known = classNumbers[classes] { return known }
        let index = UInt32(entries.count)
        entries.append(.classDescription(classes))
        classNumbers[classes] = index
        return index
    }

    // MARK: - Writing

    /// Writes the archive's top dictionary, then `$objects` in number order; returns the top's
    /// object number.
    private func write(top: UInt32, into plist: inout BinaryPropertyListWriter) -> Int {
        let root = plist.addDictionary(count: 4)
        for (position, key) in ["$version", "$archiver", "$top", "$objects"].enumerated() {
            plist.setMember(position, of: root, to: plist.add(string: key))
        }
        plist.setMember(4, of: root, to: plist.add(integer: 100000))
        plist.setMember(5, of: root, to: plist.add(string: "NSKeyedArchiver"))
        let topDictionary = plist.addDictionary(count: 1)
        plist.setMember(6, of: root, to: topDictionary.object)
        plist.setMember(0, of: topDictionary, to: plist.add(string: "root"))
        plist.setMember(1, of: topDictionary, to: plist.add(uid: top))
        let objects = plist.addArray(count: entries.count)
        plist.setMember(7, of: root, to: objects.object)
        // The property list string of each key, by key number, once written (-1 before).
        var keyObjects = [Int](repeating: -1, count: Self.firstOtherKey + otherKeys.count)
        var classKey = -1
        let keys = keys.elements
        let values = values.elements
        for (position, entry) in entries.enumerated() {
            let object: Int
            switch entry {
            case .string(let text):
                object = plist.add(string: text)
            case .scalar(let value):
                object = plist.add(value)
            case .object(let firstKey, let count, let firstValue, let classNumber):
                let dictionary = plist.addDictionary(count: count + 1)
                for position in 0..<count {
                    let key = Int(keys[firstKey + position])
                    if keyObjects[key] < 0 { keyObjects[key] = plist.add(string: keyName(key)) }
                    plist.setMember(position, of: dictionary, to: keyObjects[key])
                }
                if classKey < 0 { classKey = plist.add(string: "$class") }
                plist.setMember(count, of: dictionary, to: classKey)
                var next = firstValue
                for position in 0..<count {
                    plist.setMember(count + 1 + position, of: dictionary, to: Self.write(values, at: &next, inlineBytes, into: &plist))
                }
                plist.setMember(2 * count + 1, of: dictionary, to: plist.add(uid: classNumber))
                object = dictionary.object
            case .classDescription(let classes):
                object = Self.writeClassDescription(classes, into: &plist)
            }
            plist.setMember(position, of: objects, to: object)
        }
        return root.object
    }

    /// The key numbered `number`.
    private func keyName(_ number: Int) -> String {
        number < Self.firstOtherKey ? ArchiveKey(rawValue: UInt8(number))!.name : otherKeys[number - Self.firstOtherKey]
    }

    /// Writes a class description; returns its property list object.
    private static func writeClassDescription(_ classes: [String], into plist: inout BinaryPropertyListWriter) -> Int {
        let dictionary = plist.addDictionary(count: 2)
        plist.setMember(0, of: dictionary, to: plist.add(string: "$classname"))
        plist.setMember(1, of: dictionary, to: plist.add(string: "$classes"))
        plist.setMember(2, of: dictionary, to: plist.add(string: classes.first ?? "NSObject"))
        let names = plist.addArray(count: classes.count)
        plist.setMember(3, of: dictionary, to: names.object)
        for (position, name) in classes.enumerated() {
            plist.setMember(position, of: names, to: plist.add(string: name))
        }
        return dictionary.object
    }

    /// Writes the field value at `next` (with its members, for an array) and moves past it;
    /// bytes in place are taken from `inlineBytes`.
    @inline(__always)
    private static func write(
        _ values: UnsafeBufferPointer<FieldValue>, at next: inout Int, _ inlineBytes: [[UInt8]],
        into plist: inout BinaryPropertyListWriter
    ) -> Int {
        let value = values[next]
        next += 1
        switch value {
        case .uid(let number): return plist.add(uid: number)
        case .bytes(let index): return plist.add(.data(inlineBytes[index]))
        case .bool(let flag): return plist.add(bool: flag)
        case .integer(let number): return plist.add(integer: number)
        case .real(let number): return plist.add(real: number)
        case .array(let count): return writeArray(count: count, values, at: &next, inlineBytes, into: &plist)
        }
    }

    /// Writes an array of the `count` field values from `next` on and moves past them.
    private static func writeArray(
        count: Int, _ values: UnsafeBufferPointer<FieldValue>, at next: inout Int, _ inlineBytes: [[UInt8]],
        into plist: inout BinaryPropertyListWriter
    ) -> Int {
        let array = plist.addArray(count: count)
        for position in 0..<count {
            plist.setMember(position, of: array, to: write(values, at: &next, inlineBytes, into: &plist))
        }
        return array.object
    }
}
