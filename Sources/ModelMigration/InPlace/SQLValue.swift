import GRDB
import ModelArchive

/// The value of a destination column, computed from one row of the source table, kept typed
/// until it is rendered to SQL once: the planner decides from the kind (a kept column, a
/// literal, a default for empty values, an expression) what it can change in place and which
/// source columns a rewrite reads, instead of parsing SQL text back.
indirect enum SQLValue: Hashable {
    /// No value.
    case null
    /// A column of the source row, as is.
    case column(String)
    /// A constant, such as an attribute's default.
    case literal(StoredDefault)
    /// A column of the source row, or `fallback` where it is empty.
    case coalesce(String, StoredDefault)
    /// An entity-number column, each source number replaced by its destination number.
    case entityNumber(String, [Int: Int])
    /// `number` where `key` has a value (an entity-number column for a to-one that had none).
    case numberWhereSet(SQLValue, Int)
    /// One linked row of a source join table: the least `other` among the rows whose `own` is
    /// this row's key (a to-many that becomes a to-one).
    case firstLink(table: String, own: String, other: String)
    /// The least key of the rows of `table` whose `column` is this row's key (the to-one on the
    /// other side of a to-many that becomes a to-one).
    case firstOwner(table: String, column: String)
    /// A different value per source entity number (`CASE Z_ENT WHEN …`).
    case perEntity([EntityValue])

    /// The value for the rows of one source entity number.
    struct EntityValue: Hashable {
        var number: Int
        var value: SQLValue
    }

    /// `entityNumber`, or the plain column when no number changes.
    static func entityNumber(_ column: String, mappedBy numbers: [Int: Int]) -> SQLValue {
        numbers.allSatisfy { $0.key == $0.value } ? .column(column) : .entityNumber(column, numbers)
    }

    /// The SQL text, over the source row aliased `s`; `table` renders a source table's name as
    /// it is when the statement runs (it may have been set aside).
    func sql(table: (String) -> String) -> String {
        switch self {
        case .null: "NULL"
        case .column(let name): name
        case .literal(let value): value.sql
        case .coalesce(let name, let fallback): "COALESCE(\(name), \(fallback.sql))"
        case .entityNumber(let name, let numbers):
            "CASE \(name) " + numbers.sorted { $0.key < $1.key }.map { "WHEN \($0.key) THEN \($0.value)" }.joined(separator: " ") + " END"
        case .numberWhereSet(let key, let number): "CASE WHEN \(key.sql(table: table)) IS NOT NULL THEN \(number) END"
        case .firstLink(let name, let own, let other):
            "(SELECT MIN(j.\(other)) FROM \(table(name)) j WHERE j.\(own) = s.Z_PK)"
        case .firstOwner(let name, let column):
            "(SELECT MIN(o.Z_PK) FROM \(table(name)) o WHERE o.\(column) = s.Z_PK)"
        case .perEntity(let cases):
            "CASE Z_ENT " + cases.map { "WHEN \($0.number) THEN \($0.value.sql(table: table))" }.joined(separator: " ") + " END"
        }
    }

    /// The join tables whose links the value carries over.
    var linkTables: [String] {
        switch self {
        case .firstLink(let table, _, _): [table]
        case .numberWhereSet(let key, _): key.linkTables
        case .perEntity(let cases): cases.flatMap(\.value.linkTables)
        default: []
        }
    }

    /// The columns of the source row the value carries over (what a rewrite does not drop).
    var readColumns: [String] {
        switch self {
        case .null, .literal, .firstLink, .firstOwner: []
        case .column(let name), .coalesce(let name, _), .entityNumber(let name, _): [name]
        case .numberWhereSet(let key, _): key.readColumns
        case .perEntity(let cases): cases.flatMap(\.value.readColumns)
        }
    }
}
