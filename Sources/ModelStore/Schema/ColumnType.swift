import ModelSchema

/// The declared SQL type of a column and its rank in Core Data's column order.
///
/// Core Data sorts a table's columns, after `Z_PK`, `Z_ENT` and `Z_OPT`, by rank with a stable
/// sort: integers (attributes and foreign keys) first, then reals and dates together, decimals,
/// strings, UUIDs and transformables, and binary data last. The ranks of UUID against
/// Transformable and of URI against String are not settled by any store in the corpus.
struct ColumnType: Sendable, Hashable {
    var declaredType: String
    var rank: Int

    static let integer = ColumnType(declaredType: "INTEGER", rank: 0)
    static let float = ColumnType(declaredType: "FLOAT", rank: 1)
    static let timestamp = ColumnType(declaredType: "TIMESTAMP", rank: 1)
    static let decimal = ColumnType(declaredType: "DECIMAL", rank: 2)
    static let varchar = ColumnType(declaredType: "VARCHAR", rank: 3)
    static let uuid = ColumnType(declaredType: "BLOB", rank: 4)
    static let transformable = ColumnType(declaredType: "BLOB", rank: 4)
    static let binary = ColumnType(declaredType: "BLOB", rank: 5)

    /// The column type of a stored attribute; `nil` for types with no column of their own
    /// (undefined, object ID, composite).
    init?(_ type: AttributeType) {
        switch type {
        case .integer16, .integer32, .integer64, .boolean: self = .integer
        case .double, .float: self = .float
        case .date: self = .timestamp
        case .decimal: self = .decimal
        case .string, .uri: self = .varchar
        case .uuid: self = .uuid
        case .transformable: self = .transformable
        case .binary: self = .binary
        case .undefined, .objectID, .composite: return nil
        }
    }

    private init(declaredType: String, rank: Int) {
        self.declaredType = declaredType
        self.rank = rank
    }
}
