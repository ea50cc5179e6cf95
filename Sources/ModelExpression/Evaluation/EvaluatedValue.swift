import Foundation

/// A value a mapping model's expression evaluates to: an attribute's typed value, an object of the
/// source or destination store, a collection, or a receiver only the evaluation context understands.
public enum EvaluatedValue: Sendable, Hashable {
    case null
    case bool(Bool)
    case integer(Int64)
    case double(Double)
    case decimal(Decimal)
    case string(String)
    case date(Date)
    case data(Data)
    case uuid(UUID)
    case uri(URL)
    /// One instance of the source or the destination store.
    case object(ObjectReference)
    /// A to-many relationship's objects, an aggregate (`{a, b}`) or a fetch result, in order.
    case collection([EvaluatedValue])
    /// Something only the context can answer for: `$manager`, `$entityPolicy`, `$manager.sourceContext`,
    /// a fetch request built by `$manager`.
    case receiver(String)

    /// Whether the value is `nil`/`NSNull`, which key paths pass through.
    public var isNull: Bool { self == .null }

    /// The value as a number when it is one (booleans count as 0 and 1, as NSNumber does).
    public var number: Double? {
        switch self {
        case .bool(let value): value ? 1 : 0
        case .integer(let value): Double(value)
        case .double(let value): value
        case .decimal(let value): NSDecimalNumber(decimal: value).doubleValue
        default: nil
        }
    }

    /// The elements of a collection, or the value alone.
    public var elements: [EvaluatedValue] {
        if case .collection(let elements) = self { return elements }
        return isNull ? [] : [self]
    }
}

/// One instance in a store, named the way the migration manager finds its row: by store side,
/// entity name and primary key (`Z_PK`).
public struct ObjectReference: Sendable, Hashable, CustomStringConvertible {
    /// Which of the two stores of a migration the instance lives in.
    public enum Side: String, Sendable, Hashable {
        case source
        case destination
    }

    public var side: Side
    /// The instance's own entity (a sub-entity's name for a row of a hierarchy's table).
    public var entity: String
    public var primaryKey: Int64

    public init(side: Side, entity: String, primaryKey: Int64) {
        self.side = side
        self.entity = entity
        self.primaryKey = primaryKey
    }

    public var description: String { "\(side) \(entity) \(primaryKey)" }
}

// MARK: - Describing values in errors

extension EvaluatedValue: CustomStringConvertible {
    /// The kind of value with an article, as errors name it ("a string", "an integer").
    public var kind: String {
        switch self {
        case .null: "nil"
        case .bool: "a boolean"
        case .integer: "an integer"
        case .double: "a double"
        case .decimal: "a decimal"
        case .string: "a string"
        case .date: "a date"
        case .data: "binary data"
        case .uuid: "a UUID"
        case .uri: "a URI"
        case .object(let object): "a \(object.entity) instance"
        case .collection: "a collection"
        case .receiver(let name): "$\(name)"
        }
    }

    /// The value as errors show it: its kind and, for short values, the value itself.
    public var description: String {
        switch self {
        case .null, .receiver: kind
        case .bool(let value): "\(kind) \(value ? "YES" : "NO")"
        case .integer(let value): "\(kind) \(value)"
        case .double(let value): "\(kind) \(value)"
        case .decimal(let value): "\(kind) \(value)"
        case .string(let value): "\(kind) \"\(value.count > 40 ? value.prefix(40) + "…" : value)\""
        case .date(let value): "\(kind) \(value.timeIntervalSinceReferenceDate)s after 2001"
        case .data(let value): "\(kind) of \(value.count) bytes"
        case .uuid(let value): "\(kind) \(value.uuidString)"
        case .uri(let value): "\(kind) \(value.absoluteString)"
        case .object(let object): "\(object.side) \(object.entity) \(object.primaryKey)"
        case .collection(let values): "\(kind) of \(values.count)"
        }
    }
}

// MARK: - Entities

extension EvaluatedValue {
    /// An entity description as a predicate's value (`entity == %@`): a receiver named for it.
    public static func entity(_ name: String) -> EvaluatedValue { .receiver("entity:" + name) }

    /// The entity's name when the value is an entity description.
    public var entityName: String? {
        guard case .receiver(let name) = self, name.hasPrefix("entity:") else { return nil }
        return String(name.dropFirst("entity:".count))
    }
}
