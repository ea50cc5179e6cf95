import Foundation
import GRDB
import GRDBSQLite
import ModelSchema

/// A row of one object as read from its table: key, entity number, version (`Z_OPT`), attribute
/// values in the order of its shape's attribute slots, and after them, in the same values, the
/// to-ones' targets in the order of its to-one slots.
package struct StoredObject {
    package var key: Int64
    package var number: Int
    package var version: Int64
    /// The attribute values, and the to-ones' targets after them.
    package var attributes: AttributeValues

    /// The to-ones' targets, in the order of the shape's to-one slots.
    package var toOnes: [ObjectKey?] { attributes.toOnes }

    /// A row of `attributes`, which keep its to-ones' targets.
    package init(key: Int64, number: Int, version: Int64, attributes: AttributeValues) {
        self.key = key
        self.number = number
        self.version = version
        self.attributes = attributes
    }

    /// A row of `attributes` and the to-ones' targets `toOnes`, kept in the attributes' values.
    package init(key: Int64, number: Int, version: Int64, attributes: consuming AttributeValues, toOnes: [ObjectKey?]) {
        var values = attributes
        values.setToOnes(toOnes)
        self.init(key: key, number: number, version: version, attributes: values)
    }
}

/// An object's place in a store: its entity number and primary key.
package struct ObjectKey: Sendable, Hashable {
    package var number: Int
    package var key: Int64

    package init(number: Int, key: Int64) {
        self.number = number
        self.key = key
    }
}

/// Reads objects' rows and relationships' links for the object layer, inside one database access;
/// the keys it takes and gives are those of the store's key space.
package struct ObjectRowReader {
    package let db: Database
    package let rows: ObjectRowLayout
    package let keys: KeySpace

    package init(db: Database, rows: ObjectRowLayout, keys: KeySpace = .first) {
        self.db = db
        self.rows = rows
        self.keys = keys
    }

    /// The objects a statement selecting ``ObjectRowLayout/selectList(forTableOf:)`` returns, in its order.
    package func objects(_ statement: StoreStatement) throws -> [StoredObject] {
        var result = [StoredObject]()
        let prepared = try db.cachedStatement(sql: statement.sql)
        let cursor = try Row.fetchCursor(prepared, arguments: statement.arguments)
        while let row = try cursor.next() {
            if let object = try decode(row, prepared.sqliteStatement) { result.append(object) }
        }
        return result
    }

    /// The rows a statement selecting `t0.Z_PK, t0.Z_ENT, t0.Z_OPT` returns, with their versions
    /// (a batch request's rows, written at the version they are read at in its transaction).
    package func versionedKeys(_ statement: StoreStatement) throws -> [(key: ObjectKey, version: Int64)] {
        try Row.fetchAll(db.cachedStatement(sql: statement.sql), arguments: statement.arguments).map { row in
            let checked = CheckedRow(row, table: "the batch's table", in: db)
            return (
                ObjectKey(number: try checked.optional(1, "Z_ENT") ?? 0, key: keys.key(try checked.required(0, "Z_PK"))),
                try checked.optional(2, "Z_OPT") ?? 0
            )
        }
    }

    /// The keys a statement selecting `t0.Z_PK` returns, in its order.
    package func primaryKeys(_ statement: StoreStatement) throws -> PrimaryKeys {
        var keys = PrimaryKeys()
        let cursor = try Int64.fetchCursor(db.cachedStatement(sql: statement.sql), arguments: statement.arguments)
        while let key = try cursor.next() { keys.append(self.keys.key(key)) }
        return keys
    }

    /// The rows of `entity`'s table whose keys are `keys`, in no particular order (a batch of a
    /// batch-faulting fetch: `… WHERE t0.Z_PK IN (?, …)`, as Core Data reads one).
    package func objects(keys: [Int64], inTableOf entity: String) throws -> [StoredObject] {
        guard let table = rows.shape(named: entity)?.table, !keys.isEmpty else { return [] }
        let marks = Array(repeating: "?", count: keys.count).joined(separator: ", ")
        let select = rows.selectList(forTableOf: entity).joined(separator: ", ")
        return try objects(StoreStatement(sql: "SELECT \(select) FROM \(table) t0 WHERE t0.Z_PK IN (\(marks))", arguments: StatementArguments(keys.map(self.keys.primaryKey))))
    }

    /// The first column of the statement's first row as an integer (a count).
    package func integer(_ statement: StoreStatement) throws -> Int {
        try Int.fetchOne(db.cachedStatement(sql: statement.sql), arguments: statement.arguments) ?? 0
    }

    /// The row of one object, or nil when the store has none (deleted elsewhere).
    package func object(_ key: ObjectKey) throws -> StoredObject? {
        guard let shape = rows.shape(number: key.number) else { return nil }
        let select = rows.selectList(forTableOf: shape.name).joined(separator: ", ")
        // Through a cursor, whose row still has its text whole (a fetched row's copy cuts it).
        let prepared = try db.cachedStatement(sql: "SELECT \(select) FROM \(shape.table) t0 WHERE t0.Z_PK = ?")
        let rows = try WholeText.rows(prepared, [keys.primaryKey(key.key).databaseValue])
        return try rows.next().flatMap { try decode($0, prepared.sqliteStatement) }
    }

    /// The row of `shape`'s table whose attributes in `slots` hold `values`, the stored side of a
    /// uniqueness constraint's collision; nil when there is none (or a value is null, which a
    /// unique index lets repeat).
    package func object(in shape: EntityRowShape, attributes slots: [Int], equalTo values: [DatabaseValue]) throws -> StoredObject? {
        guard !slots.isEmpty, !values.contains(where: \.isNull) else { return nil }
        let select = rows.selectList(forTableOf: shape.name).joined(separator: ", ")
        let tests = slots.map { "t0.\(shape.attributes[$0].column) = ?" }.joined(separator: " AND ")
        let prepared = try db.cachedStatement(sql: "SELECT \(select) FROM \(shape.table) t0 WHERE \(tests) LIMIT 1")
        let rows = try WholeText.rows(prepared, values)
        return try rows.next().flatMap { try decode($0, prepared.sqliteStatement) }
    }

    /// One row, which a cursor stands on (`statement` is the statement it steps), as an object of
    /// the entity its `Z_ENT` names (text read whole); nil for a number the model lacks. Columns
    /// are read straight from the statement where their storage class is the one the attribute's
    /// type keeps (an integer in an integer attribute, a real in a date): every other value, and
    /// any key that is not an integer, goes through the checked conversions.
    /// - Throws: ``StoreError`` of class `corrupt` for a key, entity number, version or foreign
    ///   key that is not an integer (attribute values are read as their types allow).
    func decode(_ row: Row, _ statement: SQLiteStatement) throws -> StoredObject? {
        guard let number = try integer(row, statement, 1, "Z_ENT", table: "an entity table").map(Int.init), let shape = rows.shape(number: number)
        else { return nil }
        var attributes = AttributeValues(
            nils: shape.attributes.count, toOnes: shape.toOnes.count, strings: shape.stringAttributes,
            others: shape.otherAttributesKeptAsThemselves)
        // Where externally stored values are, found only for a row that has one (a fault's row
        // is read by a reader of its own).
        var external: ExternalBinaryData?
        // Each slot's fields read in place: a copy of the slot would retain and release its names.
        let slots = shape.attributes
        for index in slots.indices {
            let column = slots[index].index
            if slots[index].isExternal, case .blob(let data) = WholeColumn.value(row, column).storage {
                if external == nil { external = ExternalBinaryData(db) }
                attributes[index] = external?.value(data)
            } else {
                Self.read(statement, CInt(column), as: slots[index].type, into: &attributes, at: index)
            }
        }
        // Each slot's fields read in place, as above; a to-one without a target stays nil.
        let toOneSlots = shape.toOnes
        for index in toOneSlots.indices {
            guard let key = try integer(row, statement, toOneSlots[index].index, "the foreign key of \(toOneSlots[index].destination)", table: shape.table)
            else { continue }
            let stored = try toOneSlots[index].entityIndex.flatMap {
                try integer(row, statement, $0, "the entity number of \(toOneSlots[index].destination)", table: shape.table)
            }
            attributes.setToOne(ObjectKey(number: stored.map(Int.init) ?? toOneSlots[index].destinationNumber, key: keys.key(key)), at: index)
        }
        guard let key = try integer(row, statement, 0, "Z_PK", table: shape.table) else {
            throw CheckedRow(row, table: shape.table, in: db).corrupt("Z_PK", "is NULL")
        }
        return StoredObject(
            key: keys.key(key), number: number, version: try integer(row, statement, 2, "Z_OPT", table: shape.table) ?? 0, attributes: attributes)
    }

    /// The integer in column `index`, nil for NULL: read straight when SQLite holds an integer
    /// there, else converted and checked (``CheckedRow``), which throws for what is not one. The
    /// column's and table's names, for the error, are made only then: made for every row, they
    /// were a tenth of a row's decoding.
    private func integer(
        _ row: Row, _ statement: SQLiteStatement, _ index: Int, _ column: @autoclosure () -> String, table: @autoclosure () -> String
    ) throws -> Int64? {
        switch sqlite3_column_type(statement, CInt(index)) {
        case SQLITE_INTEGER: sqlite3_column_int64(statement, CInt(index))
        case SQLITE_NULL: nil
        default: try CheckedRow(row, table: table(), in: db).optional(index, column(), as: Int64.self)
        }
    }

    /// Sets `slot` of `values` to the value an object holds for column `index` of an attribute
    /// of `type`, as ``StoredValue/object(_:as:)`` gives it; the common pairs of storage class
    /// and type are read without making a `DatabaseValue` or an `Any`.
    private static func read(
        _ statement: SQLiteStatement, _ index: CInt, as type: AttributeType, into values: inout AttributeValues, at slot: Int
    ) {
        switch (sqlite3_column_type(statement, index), type) {
        case (SQLITE_NULL, _): break
        case (SQLITE_INTEGER, .integer64): values.set(sqlite3_column_int64(statement, index), at: slot)
        case (SQLITE_INTEGER, .integer32): values.set(Int32(truncatingIfNeeded: sqlite3_column_int64(statement, index)), at: slot)
        case (SQLITE_INTEGER, .integer16): values.set(Int16(truncatingIfNeeded: sqlite3_column_int64(statement, index)), at: slot)
        case (SQLITE_INTEGER, .boolean): values.set(sqlite3_column_int64(statement, index) != 0, at: slot)
        case (SQLITE_FLOAT, .double): values.set(sqlite3_column_double(statement, index), at: slot)
        case (SQLITE_FLOAT, .float): values.set(Float(sqlite3_column_double(statement, index)), at: slot)
        case (SQLITE_FLOAT, .date): values.set(Date(timeIntervalSinceReferenceDate: sqlite3_column_double(statement, index)), at: slot)
        // A whole number of seconds in a TIMESTAMP column, whose numeric affinity keeps it an integer.
        case (SQLITE_INTEGER, .date): values.set(Date(timeIntervalSinceReferenceDate: Double(sqlite3_column_int64(statement, index))), at: slot)
        case (SQLITE_TEXT, .string): values.set(WholeText.string(of: statement, at: index), at: slot)
        default: values[slot] = StoredValue.object(WholeText.value(of: statement, at: index), as: type)
        }
    }

    /// The objects `relationship` of the object `owner` links to, in the relationship's order
    /// (ordered relationships by their order column, others by primary key).
    package func related(_ relationship: Relationship, of owner: ObjectKey) throws -> [ObjectKey] {
        guard let shape = rows.shape(number: owner.number), case .foreignKey(let column, let entityColumn)? = rows.storage(of: relationship, in: shape.name)
        else { return try related(relationship, ofAll: [owner])[owner.key] ?? [] }
        let row = try Row.fetchOne(
            db.cachedStatement(sql: "SELECT \(column), \(entityColumn ?? "NULL") FROM \(shape.table) WHERE Z_PK = ?"), arguments: [keys.primaryKey(owner.key)])
        guard let row, let target = rows.shape(named: relationship.destinationEntityName) else { return [] }
        let checked = CheckedRow(row, table: shape.table, in: db)
        guard let key = try checked.optional(0, column, as: Int64.self) else { return [] }
        return [ObjectKey(number: try checked.optional(1, entityColumn ?? "Z_ENT") ?? target.number, key: keys.key(key))]
    }

    /// The objects a to-many links each of `owners` (objects of one entity) to, by owner key, in
    /// the relationship's order, read for many owners at once (`… IN (?, …)`, 500 keys a
    /// statement), as Core Data prefetches `relationshipKeyPathsForPrefetching`. Owners that
    /// link to nothing are absent; to-ones, read with their owner's row, give nothing.
    package func related(_ relationship: Relationship, ofAll owners: [ObjectKey]) throws -> [Int64: [ObjectKey]] {
        guard let first = owners.first, let shape = rows.shape(number: first.number),
            let storage = rows.storage(of: relationship, in: shape.name),
            let target = rows.shape(named: relationship.destinationEntityName)
        else { return [:] }
        let kinds = rows.layout.entities.filter { rows.entities.isKind($0.name, of: target.name) }.map { String($0.number) }
            .joined(separator: ", ")
        var result = [Int64: [ObjectKey]]()
        for start in stride(from: 0, to: owners.count, by: 500) {
            let primaryKeys = owners[start..<min(start + 500, owners.count)].map { keys.primaryKey($0.key) }
            let marks = Array(repeating: "?", count: primaryKeys.count).joined(separator: ", ")
            let sql: String
            switch storage {
            case .foreignKey:
                return [:]
            case .inverseForeignKey(let table, let column, _, let order):
                sql = "SELECT \(column), Z_PK, Z_ENT FROM \(table) WHERE \(column) IN (\(marks)) AND Z_ENT IN (\(kinds)) ORDER BY \(column), \(order.map { "\($0), " } ?? "")Z_PK"
            case .joinTable(let table, let own, let other):
                let order = rows.orderColumn(ofJoinTable: table, otherColumn: other).map { "j.\($0), " } ?? ""
                sql = "SELECT j.\(own), d.Z_PK, d.Z_ENT FROM \(table) j JOIN \(target.table) d ON d.Z_PK = j.\(other) WHERE j.\(own) IN (\(marks)) ORDER BY j.\(own), \(order)d.Z_PK"
            case .hiddenInverse(let table, let column):
                sql = "SELECT \(column), Z_PK, Z_ENT FROM \(table) WHERE \(column) IN (\(marks)) ORDER BY \(column), Z_PK"
            }
            for row in try Row.fetchAll(db.cachedStatement(sql: sql), arguments: StatementArguments(primaryKeys)) {
                let checked = CheckedRow(row, table: target.table, in: db)
                let owner = keys.key(try checked.required(0, "the owner's key", as: Int64.self))
                result[owner, default: []].append(ObjectKey(number: try checked.optional(2, "Z_ENT") ?? target.number, key: keys.key(try checked.required(1, "Z_PK"))))
            }
        }
        return result
    }
}
