/// An object of an NSKeyedArchiver archive: its class chain and its keyed fields.
///
/// Objects have identity, as in the archive: two fields that refer to the same entity refer to
/// the same `ArchivedObject`, and cycles (entity ↔ model, relationship ↔ inverse) are kept.
public final class ArchivedObject {
    /// The class and its superclasses, as `$classes` lists them (`NSEntityDescription`, `NSObject`).
    public var classes: [String]
    public var fields: [(key: String, value: ArchiveValue)]

    public init(_ classes: [String], fields: [(key: String, value: ArchiveValue)] = []) {
        self.classes = classes
        self.fields = fields
    }

    public var className: String { classes.first ?? "" }

    /// Empties this object and every object it reaches, so that the graph's cycles no longer
    /// keep it alive. A decoded archive holds such cycles; call this once done with it.
    public func releaseGraph() {
        var pending = [self]
        var seen: Set<ObjectIdentifier> = [ObjectIdentifier(self)]
        while let object = pending.popLast() {
            var values = object.fields.map(\.value)
            object.fields = []
            while let value = values.popLast() {
                switch value {
                case .object(let next) where seen.insert(ObjectIdentifier(next)).inserted: pending.append(next)
                case .references(let items): values.append(contentsOf: items)
                default: break
                }
            }
        }
    }

    public subscript(key: String) -> ArchiveValue? {
        get { fields.first { $0.key == key }?.value }
        set {
            if let index = fields.firstIndex(where: { $0.key == key }) {
                if let newValue { fields[index].value = newValue } else { fields.remove(at: index) }
            } else if let newValue {
                fields.append((key, newValue))
            }
        }
    }
}

/// A field value of an archived object.
public enum ArchiveValue {
    /// A reference to `$null` (a nil object).
    case null
    /// Primitives encoded in place (`encodeBool:`, `encodeInt:`, `encodeDouble:`).
    case bool(Bool)
    case integer(Int64)
    case real(Double)
    /// Objects stored as plain property list values in `$objects`.
    case string(String)
    case data([UInt8])
    /// Bytes encoded in place (`encodeBytes:length:forKey:`), as NSDecimalNumber's mantissa.
    case bytes([UInt8])
    /// An NSNumber object: a boolean, integer or real stored in `$objects`.
    case number(PropertyListValue)
    case object(ArchivedObject)
    /// A list of references, as in `NS.keys` and `NS.objects`.
    case references([ArchiveValue])

    public var object: ArchivedObject? {
        if case .object(let object) = self { return object }
        return nil
    }

    public var string: String? {
        if case .string(let string) = self { return string }
        return nil
    }

    public var integer: Int64? {
        switch self {
        case .integer(let value): value
        case .bool(let value): value ? 1 : 0
        case .number(let value): value.integerValue
        default: nil
        }
    }

    public var bool: Bool? {
        switch self {
        case .bool(let value): value
        case .integer(let value): value != 0
        case .number(.bool(let value)): value
        case .number(.integer(let value)): value != 0
        default: nil
        }
    }

    public var references: [ArchiveValue]? {
        if case .references(let values) = self { return values }
        return nil
    }
}
