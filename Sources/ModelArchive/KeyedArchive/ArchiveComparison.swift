/// Compares two archived object graphs as trees of classes, keys and values, and lists every
/// difference by key path (`root.NSEntities[Car].NSProperties[owner].NSDeleteRule`).
///
/// Dictionaries compare by key, sets without order, arrays in order. References must
/// correspond one to one: if an object of the left graph is met again, the right graph must
/// meet the object it was first matched with.
public struct ArchiveComparison {
    private var pairs: [ObjectIdentifier: ObjectIdentifier] = [:]
    public private(set) var differences: [String] = []

    /// The differences between `left` and `right`; empty when the graphs are equal.
    public static func differences(_ left: ArchivedObject, _ right: ArchivedObject) -> [String] {
        var comparison = ArchiveComparison()
        comparison.compare(.object(left), .object(right), path: "root")
        return comparison.differences
    }

    private mutating func compare(_ left: ArchiveValue, _ right: ArchiveValue, path: String) {
        switch (left, right) {
        case (.object(let a), .object(let b)):
            compareObjects(a, b, path: path)
        case (.references(let a), .references(let b)):
            guard a.count == b.count else {
                differences.append("\(path): \(a.count) references vs \(b.count)")
                return
            }
            for (index, pair) in zip(a, b).enumerated() { compare(pair.0, pair.1, path: "\(path)[\(index)]") }
        default:
            if Self.scalar(left) != Self.scalar(right) {
                differences.append("\(path): \(Self.describe(left)) vs \(Self.describe(right))")
            }
        }
    }

    private mutating func compareObjects(_ a: ArchivedObject, _ b: ArchivedObject, path: String) {
        if let matched = pairs[ObjectIdentifier(a)] {
            if matched != ObjectIdentifier(b) { differences.append("\(path): refers to a different object") }
            return
        }
        pairs[ObjectIdentifier(a)] = ObjectIdentifier(b)
        guard a.classes == b.classes else {
            differences.append("\(path): class \(a.classes) vs \(b.classes)")
            return
        }
        if let keysA = a["NS.keys"]?.references, let keysB = b["NS.keys"]?.references,
            let valuesA = a["NS.objects"]?.references, let valuesB = b["NS.objects"]?.references
        {
            compareDictionaries(Array(zip(keysA, valuesA)), Array(zip(keysB, valuesB)), path: path)
            return
        }
        if a.className.hasSuffix("Set"), let itemsA = a["NS.objects"]?.references, let itemsB = b["NS.objects"]?.references {
            let sortedA = itemsA.sorted { Self.label($0) < Self.label($1) }
            let sortedB = itemsB.sorted { Self.label($0) < Self.label($1) }
            compare(.references(sortedA), .references(sortedB), path: path)
            return
        }
        let keys = Set(a.fields.map(\.key)).union(b.fields.map(\.key)).sorted()
        for key in keys {
            switch (a[key], b[key]) {
            case (let x?, let y?): compare(x, y, path: "\(path).\(key)")
            case (nil, let y?): differences.append("\(path).\(key): missing vs \(Self.describe(y))")
            case (let x?, nil): differences.append("\(path).\(key): \(Self.describe(x)) vs missing")
            case (nil, nil): break
            }
        }
    }

    private mutating func compareDictionaries(
        _ a: [(ArchiveValue, ArchiveValue)], _ b: [(ArchiveValue, ArchiveValue)], path: String
    ) {
        let mapA = Dictionary(a.map { (Self.label($0.0), $0.1) }, uniquingKeysWith: { first, _ in first })
        let mapB = Dictionary(b.map { (Self.label($0.0), $0.1) }, uniquingKeysWith: { first, _ in first })
        for key in Set(mapA.keys).union(mapB.keys).sorted() {
            switch (mapA[key], mapB[key]) {
            case (let x?, let y?): compare(x, y, path: "\(path)[\(key)]")
            case (nil, _): differences.append("\(path)[\(key)]: missing vs present")
            case (_, nil): differences.append("\(path)[\(key)]: present vs missing")
            }
        }
    }

    /// A short, stable name for a value: the string itself, or an object's class and name.
    static func label(_ value: ArchiveValue) -> String {
        switch value {
        case .object(let object):
            let name = ["NSEntityName", "NSPropertyName", "NSIndexName", "NSMappingName"]
                .lazy.compactMap { object[$0]?.string }.first ?? ""
            return "\(object.className):\(name)"
        case .string(let text):
            return text
        default:
            return describe(value)
        }
    }

    static func scalar(_ value: ArchiveValue) -> PropertyListValue? {
        switch value {
        case .null: nil
        case .bool(let flag): .bool(flag)
        case .integer(let number): .integer(number)
        case .real(let number): .real(number)
        case .string(let text): .string(text)
        case .data(let bytes): .data(bytes)
        // In place and as an object are different encodings of the same bytes.
        case .bytes(let bytes): .array([.data(bytes)])
        case .number(let number): .array([number])
        case .object, .references: .string("<container>")
        }
    }

    static func describe(_ value: ArchiveValue) -> String {
        switch value {
        case .null: "nil"
        case .bool(let flag): "\(flag)"
        case .integer(let number): "\(number)"
        case .real(let number): "\(number)"
        case .string(let text): "'\(text)'"
        case .data(let bytes): "<\(bytes.count) bytes>"
        case .bytes(let bytes): "<\(bytes.count) bytes in place>"
        case .number(let number): "NSNumber(\(number))"
        case .object(let object): object.className
        case .references(let values): "[\(values.count) references]"
        }
    }
}
