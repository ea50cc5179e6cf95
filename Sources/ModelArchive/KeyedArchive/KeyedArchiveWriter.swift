/// Encodes an ``ArchivedObject`` graph as NSKeyedArchiver does: `$archiver`, `$version` 100000,
/// `$top.root`, and `$objects` numbered in first-encounter order, each object followed by the
/// objects it refers to and then its class description.
///
/// It works in two passes. The first numbers the archive's objects, depth-first as
/// NSKeyedArchiver does, and records each object's field values with their references resolved.
/// The second writes those objects, in number order, straight into a
/// ``BinaryPropertyListWriter``: no property list tree is built in between.
public struct KeyedArchiveWriter {
    /// An object of `$objects`.
    private enum Entry {
        case string(String)
        /// A data or number object.
        case scalar(PropertyListValue)
        /// An object, where its field values start in `values`, and its class description.
        case object(ArchivedObject, firstValue: Int, classNumber: UInt32)
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

    private var entries: [Entry] = [.string("$null")]
    /// The field values of every object, each object's together, in the order of its fields.
    private var values: [FieldValue] = []
    /// The field values of the objects being numbered, innermost last: an object's values move
    /// to `values` once its fields are numbered, so no object needs an array of its own.
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

    private init() {}

    /// The archive of `root` as binary property list bytes.
    public static func archive(_ root: ArchivedObject) -> [UInt8] {
        var archive = KeyedArchiveWriter()
        let top = archive.number(for: root)
        var plist = BinaryPropertyListWriter()
        let topObject = archive.write(top: top, into: &plist)
        return plist.encoded(top: topObject)
    }

    // MARK: - Numbering

    /// The number of `object`, numbering it, then the objects its fields refer to, when new.
    private mutating func number(for object: ArchivedObject) -> UInt32 {
        let identity = ObjectIdentifier(object)
        if let known = objectNumbers[identity] { return known }
        let index = UInt32(entries.count)
        objectNumbers[identity] = index
        entries.append(.string(""))  // a placeholder until the fields are numbered
        let mark = pendingValues.count
        for field in object.fields {
            appendPending(field.value)
        }
        let firstValue = values.count
        values += pendingValues[mark...]
        pendingValues.removeSubrange(mark...)
        entries[Int(index)] = .object(object, firstValue: firstValue, classNumber: classNumber(object.classes))
        return index
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
        case .object(let object): resolved = .uid(number(for: object))
        case .references(let items):
            pendingValues.append(.array(count: items.count))
            for item in items { appendPending(item) }
            return
        }
        pendingValues.append(resolved)
    }

    /// The number of a string object; equal strings are one object.
    private mutating func number(for text: String) -> UInt32 {
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
        case .object(let object, let firstValue, let classNumber):
            let count = object.fields.count
            let dictionary = plist.addDictionary(count: count + 1)
            var keys = classKeys.removeValue(forKey: classNumber) ?? []
            var nextKey = 0
            for position in 0..<count {
                let key = object.fields[position].key
                // The key is usually the next known one, or a little further on when the object
                // lacks an optional key.
                if let known = keys[nextKey...].firstIndex(where: { $0.key == key }) {
                    plist.setMember(position, of: dictionary, to: keys[known].object)
                    nextKey = known + 1
                } else {
                    let keyObject = plist.add(string: key)
                    plist.setMember(position, of: dictionary, to: keyObject)
                    keys.insert((key, keyObject), at: nextKey)
                    nextKey += 1
                }
            }
            classKeys[classNumber] = keys
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
