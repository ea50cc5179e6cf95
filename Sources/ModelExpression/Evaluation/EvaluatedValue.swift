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
