import ModelSchema

/// An attribute's default value as a store's column holds it, parsed from the
/// model text exactly as the compiled model's `NSDefaultValue` is (``AttributeValues``), so a
/// migration fills rows with the value Core Data itself would give new objects.
public enum StoredDefault: Sendable, Hashable {
    case integer(Int)
    case real(Double)
    case text(String)

    /// The default of `attribute` as stored; `nil` when it has none, or none a column holds as
    /// plain SQL (UUID, binary, transformable).
    public init?(of attribute: Attribute) {
        if attribute.type == .date {
            guard let seconds = AttributeValues.defaultDateSeconds(attribute) else { return nil }
            self = .real(seconds)
            return
        }
        guard let text = attribute.defaultValueString else { return nil }
        switch attribute.type {
        case .integer16, .integer32, .integer64: self = .integer(AttributeValues.integerValue(text))
        case .boolean: self = .integer(AttributeValues.boolValue(text) ? 1 : 0)
        case .double, .decimal: self = .real(Double(text) ?? 0)
        case .float: self = .real(Double(Float(text) ?? 0))
        case .string, .uri: self = .text(text)
        default: return nil
        }
    }

    /// The value as a SQL literal: integers and reals in full, text quoted.
    public var sql: String {
        switch self {
        case .integer(let value): String(value)
        case .real(let value): value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) + ".0" : String(value)
        case .text(let value): "'" + value.replacingOccurrences(of: "'", with: "''") + "'"
        }
    }
}
