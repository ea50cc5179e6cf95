/// Encodes an ``ArchivedObject`` graph as NSKeyedArchiver does: `$archiver`, `$version` 100000,
/// `$top.root`, and `$objects` numbered in first-encounter order, each object followed by the
/// objects it refers to and then its class description.
public struct KeyedArchiveWriter {
    private var objects: [PropertyListValue] = [.string("$null")]
    private var objectNumbers: [ObjectIdentifier: UInt32] = [:]
    private var valueNumbers: [PropertyListValue: UInt32] = [:]
    private var classNumbers: [[String]: UInt32] = [:]

    public init() {}

    /// The archive of `root` as binary property list bytes.
    public static func archive(_ root: ArchivedObject) -> [UInt8] {
        var writer = KeyedArchiveWriter()
        let top = writer.reference(.object(root))
        let archive = PropertyListValue.dictionary([
            ("$version", .integer(100000)),
            ("$archiver", .string("NSKeyedArchiver")),
            ("$top", .dictionary([("root", top)])),
            ("$objects", .array(writer.objects)),
        ])
        return BinaryPropertyListWriter.encode(archive)
    }

    private mutating func reference(_ value: ArchiveValue) -> PropertyListValue {
        switch value {
        case .null: return .uid(0)
        case .bool(let flag): return .bool(flag)
        case .integer(let number): return .integer(number)
        case .real(let number): return .real(number)
        case .string(let text): return .uid(number(for: .string(text)))
        case .data(let bytes): return .uid(number(for: .data(bytes)))
        case .number(let scalar): return .uid(number(for: scalar))
        case .references(let values): return .array(values.map { reference($0) })
        case .object(let object): return .uid(number(for: object))
        }
    }

    private mutating func number(for scalar: PropertyListValue) -> UInt32 {
        if let known = valueNumbers[scalar] { return known }
        let index = UInt32(objects.count)
        objects.append(scalar)
        valueNumbers[scalar] = index
        return index
    }

    private mutating func number(for object: ArchivedObject) -> UInt32 {
        let identity = ObjectIdentifier(object)
        if let known = objectNumbers[identity] { return known }
        let index = UInt32(objects.count)
        objectNumbers[identity] = index
        objects.append(.string(""))  // placeholder until the fields are encoded
        var entries = [(key: String, value: PropertyListValue)]()
        for (key, value) in object.fields {
            entries.append((key, reference(value)))
        }
        entries.append(("$class", .uid(classNumber(object.classes))))
        objects[Int(index)] = .dictionary(entries)
        return index
    }

    private mutating func classNumber(_ classes: [String]) -> UInt32 {
        if let known = classNumbers[classes] { return known }
        let index = UInt32(objects.count)
        objects.append(
            .dictionary([
                ("$classname", .string(classes.first ?? "NSObject")),
                ("$classes", .array(classes.map { .string($0) })),
            ]))
        classNumbers[classes] = index
        return index
    }
}
