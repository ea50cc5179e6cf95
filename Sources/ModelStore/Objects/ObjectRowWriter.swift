import Foundation
import GRDB
import GRDBSQLite
import ModelSchema

/// Writes objects' rows and links as Core Data saves them: keys handed out
/// from `Z_PRIMARYKEY.Z_MAX` of the hierarchy's root, `Z_OPT` 1 on insert and one more on each
/// update or delete, which match the version read (optimistic locking), to-ones with their
/// entity and order columns, many-to-many links in join tables, inverse-less to-manys in their
/// hidden column, large values of attributes that allow external storage in files of their own.
/// Use it inside one write transaction: files it writes are removed if the transaction rolls back
/// (those of an update that matched no row at once), files of values it replaces or deletes once
/// it commits, when the update or delete matched their row. The keys it takes and gives are those
/// of the store's key space. A class, so that the closures its writes run in (around external
/// files) capture one reference, not a copy of its six, for every row.
package final class ObjectRowWriter {
    package let db: Database
    package let rows: ObjectRowLayout
    package let keys: KeySpace
    private let files: ExternalFileChanges
    /// The writer's statements: an entity's inserts, updates of one set of columns (a save writes
    /// many rows of few entities and shapes).
    private let inserts = PreparedStatements<Int>()
    private let updates = PreparedStatements<UpdateSignature<UInt64>>()
    private let wideUpdates = PreparedStatements<UpdateSignature<SlotSet>>()
    /// The array the last row's values were gathered in, emptied and filled again for the next
    /// row (taken out while in use), so that a save of many rows does not allocate one per row.
    private var spareValues: [DatabaseValue] = []
    /// The same for the changed attributes a caller gathers for ``update(_:key:version:attributes:toOnes:)``.
    private var spareAttributes: [(slot: Int, value: DatabaseValue)] = []

    package init(db: Database, rows: ObjectRowLayout, keys: KeySpace = .first) {
        self.db = db
        self.rows = rows
        self.keys = keys
        files = ExternalFileChanges(ExternalBinaryData(db))
    }

    /// Reserves `count` keys of the hierarchy whose root is `rootNumber` and returns the first.
    package func reserveKeys(rootNumber: Int, count: Int) throws -> Int64 {
        keys.key(try Self.reserveKeys(rootNumber: rootNumber, count: count, in: db))
    }

    /// Reserves `count` keys of `rootNumber` in `db`'s `Z_PRIMARYKEY` (Core Data's own history
    /// entities are numbered there too) and returns the first.
    /// - Throws: ``StoreError`` of class `corrupt` when `Z_MAX` is no integer or leaves no room
    ///   for `count` more keys, where a text would have been read as 0 and handed out taken keys.
    static func reserveKeys(rootNumber: Int, count: Int, in db: Database) throws -> Int64 {
        guard let row = try Row.fetchOne(db.cachedStatement(sql: "SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT = ?"), arguments: [rootNumber]) else {
            return 1
        }
        let checked = CheckedRow(row, table: "Z_PRIMARYKEY", in: db)
        let recorded = try checked.optional(0, "Z_MAX", as: Int64.self) ?? 0
        let (last, overflow) = recorded.addingReportingOverflow(Int64(count))
        guard !overflow, recorded < .max else { throw checked.corrupt("Z_MAX", "is \(recorded), which leaves no room for \(count) more keys") }
        try db.cachedStatement(sql: "UPDATE Z_PRIMARYKEY SET Z_MAX = ? WHERE Z_ENT = ?").execute(arguments: [last, rootNumber])
        return recorded + 1
    }

    /// Inserts the row of a new object with `Z_OPT` 1, the value of the attribute in each slot
    /// asked of `attribute` (derived attributes are skipped: the store's triggers set them) and
    /// `toOnes` following the shape's slots: the row's values are gathered in one array, made
    /// once, not in an array of attributes first.
    package func insert(
        _ shape: EntityRowShape, key: Int64, attribute: (Int) throws -> DatabaseValue, toOnes: [ObjectKey?], orders: [Int64?]
    ) throws {
        // The column list only for the entity's first row: the statement is prepared once.
        let prepared = inserts.statement(shape.number)
        var columns: [String]? = prepared != nil ? nil : ["Z_PK", "Z_ENT", "Z_OPT"]
        var values = takeSpareValues(capacity: 3 + shape.attributes.count + shape.toOnes.count * 3)
        values.append(keys.primaryKey(key).databaseValue)
        values.append(shape.number.databaseValue)
        values.append(1.databaseValue)
        for (index, slot) in shape.attributes.enumerated() {
            // Asked of every slot, a derived one's too, so that a value no column could hold fails alike.
            let value = try attribute(index)
            guard !slot.isDerived else { continue }
            columns?.append(slot.column)
            values.append(slot.isExternal ? try files.column(for: value, db) : value)
        }
        for (index, slot) in shape.toOnes.enumerated() {
            append(slot, toOnes[index], orders[index], &columns, &values)
        }
        try inserts.run(shape.number, prepared: prepared, values, in: db) {
            let names = columns ?? []
            let marks = Array(repeating: "?", count: names.count).joined(separator: ", ")
            return "INSERT INTO \(shape.table)(\(names.joined(separator: ", "))) VALUES(\(marks))"
        }
        keepSpareValues(&values)
    }

    /// Updates the changed attributes and to-ones of an object whose row is at `version`, and sets
    /// `Z_OPT` to `version + 1`, wrapping past the largest; false when the row is gone or at another
    /// version (a conflict).
    package func update(
        _ shape: EntityRowShape, key: Int64, version: Int64, attributes: [(slot: Int, value: DatabaseValue)],
        toOnes: [(slot: Int, target: ObjectKey?, order: Int64?)]
    ) throws -> Bool {
        // One statement per entity, set of columns and kind of version test; its column list is
        // built only for the first row that needs it. The columns go in slot order, so that one
        // set of columns, in whatever order it was given, always makes the same statement.
        // Lists in order, the usual case, are used as they are, not copied.
        guard zip(attributes, attributes.dropFirst()).allSatisfy({ $0.slot < $1.slot }), zip(toOnes, toOnes.dropFirst()).allSatisfy({ $0.slot < $1.slot }) else {
            return try update(
                shape, key: key, version: version, attributes: attributes.sorted { $0.slot < $1.slot }, toOnes: toOnes.sorted { $0.slot < $1.slot })
        }
        let key = keys.primaryKey(key)
        // Called straight when no column is stored outside: a closure would capture, so retain and
        // release, every argument of every row.
        guard shape.hasExternalAttributes else { return try writeUpdate(shape, key: key, version: version, attributes: attributes, toOnes: toOnes) }
        let external = attributes.filter { shape.attributes[$0.slot].isExternal }.map { shape.attributes[$0.slot].column }
        return try files.replacing(external, in: shape.table, key: key, db) {
            try writeUpdate(shape, key: key, version: version, attributes: attributes, toOnes: toOnes)
        }
    }

    /// Writes an update through the statement of its set of columns: found by a signature of
    /// one word while every slot is below 64, by a wider one beyond.
    private func writeUpdate(
        _ shape: EntityRowShape, key: Int64, version: Int64, attributes: [(slot: Int, value: DatabaseValue)],
        toOnes: [(slot: Int, target: ObjectKey?, order: Int64?)]
    ) throws -> Bool {
        if attributes.allSatisfy({ $0.slot < 64 }) && toOnes.allSatisfy({ $0.slot < 64 }) {
            let signature = UpdateSignature<UInt64>(number: shape.number, versionless: version == 0, attributes: attributes, toOnes: toOnes)
            return try writeUpdate(updates, signature, shape, key: key, version: version, attributes: attributes, toOnes: toOnes)
        }
        let signature = UpdateSignature<SlotSet>(number: shape.number, versionless: version == 0, attributes: attributes, toOnes: toOnes)
        return try writeUpdate(wideUpdates, signature, shape, key: key, version: version, attributes: attributes, toOnes: toOnes)
    }

    /// Writes an update through the statement `statements` keeps for `signature` (the columns it
    /// sets), and tells whether it changed the row.
    private func writeUpdate<Signature: Hashable>(
        _ statements: PreparedStatements<Signature>, _ signature: Signature, _ shape: EntityRowShape, key: Int64,
        version: Int64, attributes: [(slot: Int, value: DatabaseValue)], toOnes: [(slot: Int, target: ObjectKey?, order: Int64?)]
    ) throws -> Bool {
        let prepared = statements.statement(signature)
        var columns: [String]? = prepared != nil ? nil : []
        var values = takeSpareValues(capacity: attributes.count + toOnes.count * 3 + 3)
        for (slot, value) in attributes where !shape.attributes[slot].isDerived {
            columns?.append(shape.attributes[slot].column)
            values.append(shape.attributes[slot].isExternal ? try files.column(for: value, db) : value)
        }
        for change in toOnes {
            append(shape.toOnes[change.slot], change.target, change.order, &columns, &values)
        }
        values.append((version &+ 1).databaseValue)
        values.append(key.databaseValue)
        values.append(version.databaseValue)
        try statements.run(signature, prepared: prepared, values, in: db) {
            let sets = ((columns ?? []) + ["Z_OPT"]).map { "\($0) = ?" }.joined(separator: ", ")
            let versionTest = version == 0 ? "(Z_OPT = ? OR Z_OPT IS NULL)" : "Z_OPT = ?"
            return "UPDATE \(shape.table) SET \(sets) WHERE Z_PK = ? AND \(versionTest)"
        }
        keepSpareValues(&values)
        return changedOneRow
    }

    /// Deletes an object's row at `version`; false when it is gone or at another version.
    package func delete(_ shape: EntityRowShape, key: Int64, version: Int64) throws -> Bool {
        let key = keys.primaryKey(key)
        return try files.replacing(shape.attributes.filter(\.isExternal).map(\.column), in: shape.table, key: key, db) {
            let versionTest = version == 0 ? "(Z_OPT = ? OR Z_OPT IS NULL)" : "Z_OPT = ?"
            try db.cachedStatement(sql: "DELETE FROM \(shape.table) WHERE Z_PK = ? AND \(versionTest)").execute(arguments: [key, version])
            return changedOneRow
        }
    }

    /// Adds or removes the link between `owner` and `member` of a to-many stored in a join table
    /// or a hidden column (the other kinds are the member's to-one, written with its row).
    package func setLinked(_ linked: Bool, _ relationship: Relationship, owner: ObjectKey, member: ObjectKey) throws {
        guard let shape = rows.shape(number: owner.number), let storage = rows.storage(of: relationship, in: shape.name) else { return }
        switch storage {
        case .joinTable(let table, let own, let other):
            let sql = linked
                ? "INSERT OR IGNORE INTO \(table)(\(own), \(other)) VALUES(?, ?)" : "DELETE FROM \(table) WHERE \(own) = ? AND \(other) = ?"
            try db.cachedStatement(sql: sql).execute(arguments: [keys.primaryKey(owner.key), keys.primaryKey(member.key)])
        case .hiddenInverse(let table, let column):
            let sql = linked ? "UPDATE \(table) SET \(column) = ? WHERE Z_PK = ?" : "UPDATE \(table) SET \(column) = NULL WHERE \(column) = ? AND Z_PK = ?"
            try db.cachedStatement(sql: sql).execute(arguments: [keys.primaryKey(owner.key), keys.primaryKey(member.key)])
        case .foreignKey, .inverseForeignKey:
            return
        }
    }

    /// Numbers the members of an ordered many-to-many of `owner` in the join table's order
    /// column as Core Data numbers a list it writes: 2048, 3072, … (wire's stores).
    package func setOrder(_ relationship: Relationship, owner: ObjectKey, members: [ObjectKey]) throws {
        guard let shape = rows.shape(number: owner.number), case .joinTable(let table, let own, let other)? = rows.storage(of: relationship, in: shape.name),
            let order = rows.orderColumn(ofJoinTable: table, otherColumn: other)
        else { return }
        let statement = try db.cachedStatement(sql: "UPDATE \(table) SET \(order) = ? WHERE \(own) = ? AND \(other) = ?")
        for (index, member) in members.enumerated() {
            try statement.execute(arguments: [Int64(index + 2) * 1024, keys.primaryKey(owner.key), keys.primaryKey(member.key)])
        }
    }

    /// Removes every join-table row that names `object` in a many-to-many of its entity, as a
    /// delete leaves none behind.
    package func unlinkAll(_ object: ObjectKey) throws {
        guard let shape = rows.shape(number: object.number), let model = rows.entities.entity(named: shape.name) else { return }
        for relationship in rows.entities.relationships(of: model) where relationship.isToMany {
            guard case .joinTable(let table, let own, _) = rows.storage(of: relationship, in: shape.name) else { continue }
            try db.cachedStatement(sql: "DELETE FROM \(table) WHERE \(own) = ?").execute(arguments: [keys.primaryKey(object.key)])
        }
    }

    /// Whether the last statement changed exactly one row (a version-checked write matched its
    /// row). Asked of SQLite directly: GRDB's `changesCount` checks its queue first
    /// (`DispatchQueue.getSpecific`), an eighth of the time of an update's step for each row.
    private var changedOneRow: Bool { sqlite3_changes(db.sqliteConnection) == 1 }

    /// An empty list for an update's changed attributes, the last row's storage reused (the
    /// writer's own let go meanwhile, so that the caller's grows in place): give it back with
    /// ``keepSpareAttributes(_:)`` once the update is written.
    package func takeSpareAttributes() -> [(slot: Int, value: DatabaseValue)] {
        Self.take(&spareAttributes)
    }

    /// Keeps `attributes`, emptied, as the next row's list.
    package func keepSpareAttributes(_ attributes: inout [(slot: Int, value: DatabaseValue)]) {
        Self.keep(&attributes, as: &spareAttributes)
    }

    /// The spare array of values (``spareValues``), empty, with room for `capacity`; the writer's
    /// own is let go meanwhile, so that the caller's is the only reference and grows in place.
    private func takeSpareValues(capacity: Int) -> [DatabaseValue] {
        var values = Self.take(&spareValues)
        values.reserveCapacity(capacity)
        return values
    }

    /// Keeps `values`, emptied (a large value is not held on to), as the next row's array.
    private func keepSpareValues(_ values: inout [DatabaseValue]) {
        Self.keep(&values, as: &spareValues)
    }

    /// The spare array `spare`, let go by the writer so that the caller's is its only reference.
    private static func take<Element>(_ spare: inout [Element]) -> [Element] {
        let taken = spare
        spare = []
        return taken
    }

    /// Keeps `array`, emptied (a large value is not held on to), as `spare` for the next row.
    private static func keep<Element>(_ array: inout [Element], as spare: inout [Element]) {
        array.removeAll(keepingCapacity: true)
        spare = array
    }

    private func append(_ slot: EntityRowShape.ToOneSlot, _ target: ObjectKey?, _ order: Int64?, _ columns: inout [String]?, _ values: inout [DatabaseValue]) {
        columns?.append(slot.column)
        values.append(target.map { keys.primaryKey($0.key).databaseValue } ?? .null)
        if let entityColumn = slot.entityColumn {
            columns?.append(entityColumn)
            values.append(target?.number.databaseValue ?? .null)
        }
        if let orderColumn = slot.orderColumn {
            columns?.append(orderColumn)
            values.append(target == nil ? .null : (order ?? 0).databaseValue)
        }
    }
}

/// The external-data files one transaction writes and replaces: a file is removed as soon as the
/// write it was made for matched no row (a version conflict), the rest if the transaction rolls
/// back; a replaced file only once the transaction commits, and only when the write that replaced
/// it matched its row. So a row never names a missing file, even after a crash mid-save (which
/// can only leave files no row names), and a conflict leaves no orphan.
private final class ExternalFileChanges: @unchecked Sendable {
    let external: ExternalBinaryData
    private var written: [URL] = []
    private var replaced: [URL] = []
    private var observing = false

    init(_ external: ExternalBinaryData) { self.external = external }

    /// The column form of a value of an attribute that allows external storage.
    func column(for value: DatabaseValue, _ db: Database) throws -> DatabaseValue {
        guard case .blob(let data) = value.storage else { return value }
        observe(db)
        return try external.column(for: data, written: &written).databaseValue
    }

    /// Runs `write`, a version-checked update or delete of the row `key` of `table` that
    /// overwrites or deletes its `columns`, and returns whether it matched the row. The files
    /// those columns named before are removed at commit when it did; the files it wrote are
    /// removed at once when it did not (or threw), as no row names them.
    func replacing(_ columns: [String], in table: String, key: Int64, _ db: Database, write: () throws -> Bool) throws -> Bool {
        guard !columns.isEmpty, external.folder != nil else { return try write() }
        let old = try Row.fetchOne(db.cachedStatement(sql: "SELECT \(columns.joined(separator: ", ")) FROM \(table) WHERE Z_PK = ?"), arguments: [key])
            .map { row in (0..<columns.count).compactMap { external.file(of: row[$0]) } } ?? []
        let attempt = written.count
        var matched = false
        defer {
            if !matched, written.count > attempt {
                for file in written[attempt...] { try? FileManager.default.removeItem(at: file) }
                written.removeSubrange(attempt...)
            }
        }
        matched = try write()
        if matched, !old.isEmpty {
            observe(db)
            replaced += old
        }
        return matched
    }

    private func observe(_ db: Database) {
        guard !observing else { return }
        observing = true
        db.afterNextTransaction(
            onCommit: { [self] _ in remove(replaced) },
            onRollback: { [self] _ in remove(written) })
    }

    private func remove(_ files: [URL]) {
        for file in files { try? FileManager.default.removeItem(at: file) }
        written = []
        replaced = []
        observing = false
    }
}

/// What an update statement writes: the entity, the attribute slots, the to-one slots (apart
/// those whose order column is written too) and whether the version read was 0. Its sets of
/// slots are the bits of one word (``UpdateSignature<UInt64>``) when every slot is below 64, as
/// in all but the widest entities: a value of plain words, which the statement cache copies and
/// compares for every row without touching a reference; ``SlotSet``s of any size otherwise.
private struct UpdateSignature<Slots: UpdateSlots>: Hashable {
    let number: Int
    let versionless: Bool
    private(set) var attributes = Slots()
    private(set) var toOnes = Slots()
    private(set) var orderedToOnes = Slots()

    /// The signature of an update of `attributes` and `toOnes`, whose slots `Slots` can hold.
    init(number: Int, versionless: Bool, attributes: [(slot: Int, value: DatabaseValue)], toOnes: [(slot: Int, target: ObjectKey?, order: Int64?)]) {
        self.number = number
        self.versionless = versionless
        for change in attributes { self.attributes.insert(change.slot) }
        for change in toOnes {
            if change.order == nil { self.toOnes.insert(change.slot) } else { orderedToOnes.insert(change.slot) }
        }
    }
}

/// A set of slots an update signature can keep: ``SlotSet``, or the bits of one word.
private protocol UpdateSlots: Hashable {
    init()
    mutating func insert(_ slot: Int)
}

extension SlotSet: UpdateSlots {}

/// Slots below 64, a bit each (the writer uses it only when every slot is).
extension UInt64: UpdateSlots {
    fileprivate mutating func insert(_ slot: Int) {
        self |= 1 << UInt64(slot)
    }
}
