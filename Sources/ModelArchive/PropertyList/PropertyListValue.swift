/// A property list value, including the `UID` type keyed archives use for object references.
///
/// Dictionaries keep their key order so that what modelc writes is deterministic.
public indirect enum PropertyListValue: Sendable, Hashable {
    case string(String)
    case integer(Int64)
    case real(Double)
    case bool(Bool)
    case date(Double)
    case data([UInt8])
    case uid(UInt32)
    case array([PropertyListValue])
    case set([PropertyListValue])
    case dictionary([(key: String, value: PropertyListValue)])

    public static func == (lhs: Self, rhs: Self) -> Bool {
        switch (lhs, rhs) {
        case (.string(let a), .string(let b)): a == b
        case (.integer(let a), .integer(let b)): a == b
        case (.real(let a), .real(let b)): a == b || (a.isNaN && b.isNaN)
        case (.bool(let a), .bool(let b)): a == b
        case (.date(let a), .date(let b)): a == b
        case (.data(let a), .data(let b)): a == b
        case (.uid(let a), .uid(let b)): a == b
        case (.array(let a), .array(let b)): a == b
        case (.set(let a), .set(let b)): a == b
        case (.dictionary(let a), .dictionary(let b)):
            a.count == b.count && zip(a, b).allSatisfy { $0.key == $1.key && $0.value == $1.value }
        default: false
        }
    }

    public func hash(into hasher: inout Hasher) {
        switch self {
        case .string(let s): hasher.combine(0); hasher.combine(s)
        case .integer(let i): hasher.combine(1); hasher.combine(i)
        case .real(let r): hasher.combine(2); hasher.combine(r)
        case .bool(let b): hasher.combine(3); hasher.combine(b)
        case .date(let d): hasher.combine(4); hasher.combine(d)
        case .data(let d): hasher.combine(5); hasher.combine(d)
        case .uid(let u): hasher.combine(6); hasher.combine(u)
        case .array(let a): hasher.combine(7); hasher.combine(a)
        case .set(let a): hasher.combine(8); hasher.combine(a)
        case .dictionary(let d):
            hasher.combine(9)
            for (key, value) in d {
                hasher.combine(key)
                hasher.combine(value)
            }
        }
    }

    /// The value for `key` when this is a dictionary.
    public subscript(key: String) -> PropertyListValue? {
        guard case .dictionary(let entries) = self else { return nil }
        return entries.first { $0.key == key }?.value
    }

    public var stringValue: String? {
        if case .string(let s) = self { return s }
        return nil
    }

    public var integerValue: Int64? {
        switch self {
        case .integer(let i): i
        case .bool(let b): b ? 1 : 0
        default: nil
        }
    }

    public var arrayValue: [PropertyListValue]? {
        switch self {
        case .array(let a), .set(let a): a
        default: nil
        }
    }
}
