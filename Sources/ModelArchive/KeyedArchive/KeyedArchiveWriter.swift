/// Encodes an NSKeyedArchiver archive: `$archiver`, `$version` 100000, `$top.root`, and
/// `$objects` numbered in first-encounter order, each object followed by the objects it refers to
/// and then its class description.
///
/// It works in two passes. The first numbers the archive's objects, depth-first as
/// NSKeyedArchiver does, and records each object's keys and field values with their references
/// resolved. Objects come either from an ``ArchivedObject`` graph or straight from an encoder such
/// as ``ModelArchiver``, which calls ``beginObject()``, the `append` functions and
/// ``endObject(_:classes:)`` as it visits its model, so that no graph is built. The second pass
/// writes the objects, in number order, straight into a ``BinaryPropertyListWriter``: no property
/// list tree is built in between.
public struct KeyedArchiveWriter {
    /// An object of `$objects`.
    private enum Entry {
        case string(String)
        /// A data or number object.
        case scalar(PropertyListValue)
        /// An object: where its keys start in `keys`, how many it has, where its field values
        /// start in `values`, and its class description.
        case object(firstKey: Int, keyCount: Int, firstValue: Int, classNumber: UInt32)
        case classDescription([String])
    }

    /// A field value with its references resolved; an array's members follow it.
    private enum FieldValue {
        case uid(UInt32)
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

    private var entries: [Entry] = [.string("$null")]
    /// The keys of every object, each object's together, in the order of its fields.
    private var keys: [String] = []
    /// The field values of every object, each object's together, in the order of its fields.
    private var values: [FieldValue] = []
    /// The keys and field values of the objects being numbered, innermost last: they move to
    /// `keys` and `values` once the object's fields are numbered, so no object needs arrays of
    /// its own.
    private var pendingKeys: [String] = []
    private var pendingValues: [FieldValue] = []
    private var objectNumbers: [ObjectIdentifier: UInt32] = [:]
    private var stringNumbers: [String: UInt32] = [:]
    private var scalarNumbers: [PropertyListValue: UInt32] = [:]
    private var classNumbers: [[String]: UInt32] = [:]
    /// The last class description and string numbered: consecutive objects often share a class,
    /// and a property's renaming identifier is usually its name, so these save hashing them.
    private var lastClass: (classes: [String], number: UInt32)?
    private var lastString: (text: String, number: UInt32)?
    /// The keys written so far for each class, with their property list objects, in the order
    /// objects of that class list them: objects of one class have mostly the same keys in the
    /// same order, so this saves hashing every key of every object.
    private var classKeys: [UInt32: [(key: String, object: Int)]] = [:]
    /// The property list object of the `$class` key, which every object has, once written.
    private var classKey: Int?

    init() {}

    /// The archive of `root` as binary property list bytes.
    public static func archive(_ root: ArchivedObject) -> [UInt8] {
        var archive = KeyedArchiveWriter()
        let top = archive.number(for: root)
        return archive.encoded(top: top)
    }

    /// The archive as binary property list bytes, with the object numbered `top` as its root.
    mutating func encoded(top: UInt32) -> [UInt8] {
        var plist = BinaryPropertyListWriter()
        let topObject = write(top: top, into: &plist)
        return plist.encoded(top: topObject)
    }

    // MARK: - Numbering

    /// Numbers a new object, whose fields the caller then appends before ``endObject(_:classes:)``.
    mutating func beginObject() -> OpenObject {
        let number = UInt32(entries.count)
        entries.append(.string(""))  // a placeholder until the fields are numbered
        return OpenObject(number: number, keyMark: pendingKeys.count, valueMark: pendingValues.count)
    }

    /// Appends the field `key`, a reference to the object numbered `number`, to the innermost
    /// open object.
    mutating func append(_ key: String, object number: UInt32) {
        pendingKeys.append(key)
        pendingValues.append(.uid(number))
    }

    /// Appends the field `key`, a list of `count` references that ``appendMember(object:)``
    /// then appends, to the innermost open object.
    mutating func appendArray(_ key: String, count: Int) {
        pendingKeys.append(key)
        pendingValues.append(.array(count: count))
    }

    /// Appends the field `key` to the innermost open object, numbering the objects it refers to,
    /// which nothing appended later may refer to (see ``number(for:)``).
    mutating func append(_ key: String, _ value: ArchiveValue) {
        appendPending(value)
        pendingKeys.append(key)
        forgetObjects()
    }

    /// Appends a reference to the object numbered `number` to the list appended last.
    mutating func appendMember(object number: UInt32) {
        pendingValues.append(.uid(number))
    }

    /// Closes `object` once its fields are appended, numbering its class description.
    mutating func endObject(_ object: OpenObject, classes: [String]) {
        let firstKey = keys.count
        keys += pendingKeys[object.keyMark...]
        pendingKeys.removeSubrange(object.keyMark...)
        let firstValue = values.count
        values += pendingValues[object.valueMark...]
        pendingValues.removeSubrange(object.valueMark...)
        entries[Int(object.number)] = .object(
            firstKey: firstKey, keyCount: keys.count - firstKey, firstValue: firstValue,
            classNumber: classNumber(classes))
    }

    /// Numbers `object`, then the objects its fields refer to, as one graph: nothing numbered
    /// later may refer to its objects, which the caller need not keep alive.
    mutating func number(for object: ArchivedObject) -> UInt32 {
        let number = numbered(object)
        forgetObjects()
        return number
    }

    /// The number of `object`, numbering it, then the objects its fields refer to, when new.
    private mutating func numbered(_ object: ArchivedObject) -> UInt32 {
        let identity = ObjectIdentifier(object)
        if let known = objectNumbers[identity] { return known }
        let open = beginObject()
        objectNumbers[identity] = open.number
        for field in object.fields {
            appendPending(field.value)
            pendingKeys.append(field.key)
        }
        endObject(open, classes: object.classes)
        return open.number
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
        let number = stringNumbers[text] ?? {
            let index = UInt32(entries.count)
            entries.append(.string(text))
            stringNumbers[text] = index
            return index
        }()
        lastString = (text, number)
        return number
    }

    /// The number of a data or number object; equal values are one object.
    private mutating func number(for scalar: PropertyListValue) -> UInt32 {
        if case .string(let text) = scalar { return number(for: text) }
        if let known = scalarNumbers[scalar] { return known }
        let index = UInt32(entries.count)
        entries.append(.scalar(scalar))
        scalarNumbers[scalar] = index
        return index
    }

    /// The number of the class description of `classes`, written once per archive.
    private mutating func classNumber(_ classes: [String]) -> UInt32 {
        if let last = lastClass, last.classes == classes { return last.number }
        let number = classNumbers[classes] ?? {
            let index = UInt32(entries.count)
            entries.append(.classDescription(classes))
            classNumbers[classes] = index
            return index
        }()
        lastClass = (classes, number)
        return number
    }

    // MARK: - Writing

    /// Writes the archive's top dictionary, then `$objects` in number order; returns the top's
    /// object number.
    private mutating func write(top: UInt32, into plist: inout BinaryPropertyListWriter) -> Int {
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
        for (position, entry) in entries.enumerated() {
            plist.setMember(position, of: objects, to: write(entry, into: &plist))
        }
        return root.object
    }

    /// Writes one object of `$objects`; returns its property list object.
    private mutating func write(_ entry: Entry, into plist: inout BinaryPropertyListWriter) -> Int {
        switch entry {
        case .string(let text):
            return plist.add(string: text)
        case .scalar(let value):
            return plist.add(value)
        case .object(let firstKey, let count, let firstValue, let classNumber):
            let dictionary = plist.addDictionary(count: count + 1)
            var seenKeys = classKeys.removeValue(forKey: classNumber) ?? []
            var nextKey = 0
            for position in 0..<count {
                let key = keys[firstKey + position]
                // The key is usually the next known one, or a little further on when the object
                // lacks an optional key.
                if let known = seenKeys[nextKey...].firstIndex(where: { $0.key == key }) {
                    plist.setMember(position, of: dictionary, to: seenKeys[known].object)
                    nextKey = known + 1
                } else {
                    let keyObject = plist.add(string: key)
                    plist.setMember(position, of: dictionary, to: keyObject)
                    seenKeys.insert((key, keyObject), at: nextKey)
                    nextKey += 1
                }
            }
            classKeys[classNumber] = seenKeys
            let classKey = self.classKey ?? plist.add(string: "$class")
            self.classKey = classKey
            plist.setMember(count, of: dictionary, to: classKey)
            var next = firstValue
            for position in 0..<count {
                plist.setMember(count + 1 + position, of: dictionary, to: write(values, at: &next, into: &plist))
            }
            plist.setMember(2 * count + 1, of: dictionary, to: plist.add(uid: classNumber))
            return dictionary.object
        case .classDescription(let classes):
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
    }

    /// Writes the field value at `next` (with its members, for an array) and moves past it.
    private func write(_ values: [FieldValue], at next: inout Int, into plist: inout BinaryPropertyListWriter) -> Int {
        let value = values[next]
        next += 1
        switch value {
        case .uid(let number): return plist.add(uid: number)
        case .bool(let flag): return plist.add(bool: flag)
        case .integer(let number): return plist.add(integer: number)
        case .real(let number): return plist.add(real: number)
        case .array(let count):
            let array = plist.addArray(count: count)
            for position in 0..<count {
                plist.setMember(position, of: array, to: write(values, at: &next, into: &plist))
            }
            return array.object
        }
    }
}
