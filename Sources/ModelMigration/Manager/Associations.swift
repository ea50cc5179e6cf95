import GRDB
import ModelExpression

/// Which destination instances each source instance became, per entity mapping, in temporary
/// SQLite tables of the destination's connection (spilled to a temporary file, never a
/// dictionary sized by the store), as `associateSourceInstance:withDestinationInstance:forEntityMapping:`
/// records them.
///
/// One shared table holds the associations policies and the row-by-row path record one at a
/// time. A mapping the set-based path ran gives its instances consecutive destination keys in
/// source-key order, one primary-key range, and keeps its associations apart: when its source
/// keys are consecutive too, as a shift (no table at all); otherwise in a keyed table of its own
/// whose rows are keyed by the source's primary key (one b-tree, no index to maintain).
final class Associations {
    /// A set-based mapping's associations: the source table and entity number, the entities
    /// on both sides, the range of destination keys it created, `base + 1 ... base + count`, and
    /// either its keyed table or, when nil, the shift from source to destination key.
    struct Keyed {
        let table: String?
        let sourceTable: String
        let sourceNumber: Int
        let sourceEntity: String
        let destinationEntity: String
        let base: Int64
        let count: Int
        let shift: Int64
        var reverseIndexed = false

        /// The SQL of the destination key of the source row `s`, and the clause that selects
        /// the mapping's source rows as `s` in key order.
        var rows: (key: String, from: String) {
            guard let table else { return ("s.Z_PK + \(shift)", "FROM \(sourceTable) s WHERE s.Z_ENT = \(sourceNumber) ORDER BY s.Z_PK") }
            return ("a.destination_key", "FROM temp.\(table) a JOIN \(sourceTable) s ON s.Z_PK = a.source_key ORDER BY a.source_key")
        }
    }

    let db: Database
    private var keyed: [Int: Keyed] = [:]

    /// Creates the shared table on the destination's connection.
    init(db: Database) throws {
        self.db = db
        try db.execute(sql: """
            CREATE TEMP TABLE modelc_association (
              mapping INTEGER NOT NULL, source_entity TEXT NOT NULL, source_key INTEGER NOT NULL,
              destination_entity TEXT NOT NULL, destination_key INTEGER NOT NULL);
            CREATE INDEX temp.modelc_association_source ON modelc_association (source_key, mapping, destination_key);
            CREATE INDEX temp.modelc_association_destination ON modelc_association (destination_key, mapping, source_key)
            """)
    }

    // MARK: - Set-based mappings

    /// Associates, for the mapping at `mapping`, each row of entity `number` in `sourceTable`
    /// that `filter` (an SQL condition on `s`, or nil) selects with the destination key `base + n`
    /// of its rank n in key order. Without a filter, consecutive source keys need no table.
    func associateInOrder(
        mapping: Int, sourceTable: String, number: Int, filter: String?, entities: (source: String, destination: String), base: Int64
    ) throws -> Keyed {
        let selected = "FROM \(sourceTable) s WHERE s.Z_ENT = \(number)" + (filter.map { " AND \($0)" } ?? "")
        func made(_ table: String?, count: Int, shift: Int64) -> Keyed {
            let made = Keyed(
                table: table, sourceTable: sourceTable, sourceNumber: number, sourceEntity: entities.source, destinationEntity: entities.destination,
                base: base, count: count, shift: shift)
            keyed[mapping] = made
            return made
        }
        if filter == nil, let row = try Row.fetchOne(db, sql: "SELECT COUNT(*), MIN(s.Z_PK), MAX(s.Z_PK) \(selected)") {
            let count: Int = row[0]
            let first: Int64 = row[1] ?? 1, last: Int64 = row[2] ?? 0
            if count == 0 || last - first + 1 == Int64(count) { return made(nil, count: count, shift: base + 1 - first) }
        }
        let table = "modelc_keyed_\(mapping)"
        try db.execute(sql: "CREATE TEMP TABLE \(table) (source_key INTEGER PRIMARY KEY, destination_key INTEGER NOT NULL)")
        try db.execute(
            sql: "INSERT INTO temp.\(table) (source_key, destination_key) SELECT s.Z_PK, \(base) + ROW_NUMBER() OVER (ORDER BY s.Z_PK) \(selected)")
        return made(table, count: db.changesCount, shift: 0)
    }

    /// The set-based associations of the mapping at `mapping`, when that path made them.
    func keyed(_ mapping: Int) -> Keyed? { keyed[mapping] }

    /// Indexes a keyed table by destination key, the first time a lookup goes that way.
    func indexDestinations(_ mapping: Int) throws {
        guard let table = keyed[mapping]?.table ?? nil, keyed[mapping]?.reverseIndexed == false else { return }
        try db.execute(sql: "CREATE INDEX temp.\(table)_destination ON \(table) (destination_key)")
        keyed[mapping]?.reverseIndexed = true
    }

    /// SQL for the destination key the source key `sourceKey` (an SQL expression) became
    /// through the mapping at `mapping`, or NULL.
    func destinationKeySQL(of sourceKey: String, mapping: Int) -> String {
        if let keyed = keyed[mapping] {
            guard let table = keyed.table else {
                let first = keyed.base + 1 - keyed.shift
                return "(CASE WHEN \(sourceKey) BETWEEN \(first) AND \(first + Int64(keyed.count) - 1) THEN \(sourceKey) + \(keyed.shift) END)"
            }
            return "(SELECT k.destination_key FROM temp.\(table) k WHERE k.source_key = \(sourceKey))"
        }
        return "(SELECT t.destination_key FROM temp.modelc_association t WHERE t.source_key = \(sourceKey) AND t.mapping = \(mapping) ORDER BY t.rowid LIMIT 1)"
    }

    /// An SQL condition on `Z_PK` selecting the destination instances the mapping at `mapping` created.
    func createdSQL(mapping: Int) -> String {
        if let keyed = keyed[mapping] {
            return "Z_PK BETWEEN \(keyed.base + 1) AND \(keyed.base + Int64(keyed.count))"
        }
        return "Z_PK IN (SELECT destination_key FROM temp.modelc_association WHERE mapping = \(mapping))"
    }

    // MARK: - One at a time

    /// Records that `source` became `destination` through the mapping at `mapping`.
    func associate(_ source: ObjectReference, _ destination: ObjectReference, mapping: Int) throws {
        // A policy adding to a set-based mapping's associations: its keyed rows move to the
        // shared table first, so that every lookup sees them all, in creation order.
        if keyed[mapping] != nil { try unkey(mapping) }
        try db.cachedStatement(sql: "INSERT INTO modelc_association VALUES (?, ?, ?, ?, ?)")
            .execute(arguments: [mapping, source.entity, source.primaryKey, destination.entity, destination.primaryKey])
    }

    /// The destination instances `source` became, through the mapping at `mapping` or any when nil.
    func destinations(of source: ObjectReference, mapping: Int?) throws -> [ObjectReference] {
        var found = [ObjectReference]()
        for (number, keyed) in keyedTables(mapping) where keyed.sourceEntity == source.entity {
            let keys = try lookUp(source.primaryKey, in: keyed, from: "source_key", to: "destination_key", shift: keyed.shift)
            found += keys.map { ObjectReference(side: .destination, entity: keyed.destinationEntity, primaryKey: $0) }
            if mapping == number { return found }
        }
        return found + (try linked(to: source, from: "source", to: "destination", side: .destination, mapping: mapping))
    }

    /// The source instances `destination` came from, through the mapping at `mapping` or any when nil.
    func sources(of destination: ObjectReference, mapping: Int?) throws -> [ObjectReference] {
        var found = [ObjectReference]()
        for (number, keyed) in keyedTables(mapping) where keyed.destinationEntity == destination.entity {
            try indexDestinations(number)
            let keys = try lookUp(destination.primaryKey, in: keyed, from: "destination_key", to: "source_key", shift: -keyed.shift)
            found += keys.map { ObjectReference(side: .source, entity: keyed.sourceEntity, primaryKey: $0) }
            if mapping == number { return found }
        }
        return found + (try linked(to: destination, from: "destination", to: "source", side: .source, mapping: mapping))
    }

    /// The destination instances the mapping at `mapping` created after the cursor `after`, at
    /// most `limit`, with their cursors: pass 2 walks them in bounded batches.
    func created(by mapping: Int, after: Int64, limit: Int) throws -> [(Int64, ObjectReference)] {
        if let keyed = keyed[mapping] {
            guard let table = keyed.table else {
                let first = max(after + keyed.shift + 1, keyed.base + 1), end = min(first + Int64(limit), keyed.base + Int64(keyed.count) + 1)
                return (first..<max(first, end)).map { ($0 - keyed.shift, ObjectReference(side: .destination, entity: keyed.destinationEntity, primaryKey: $0)) }
            }
            return try Row.fetchAll(
                db.cachedStatement(sql: "SELECT source_key, destination_key FROM temp.\(table) WHERE source_key > ? ORDER BY source_key LIMIT ?"),
                arguments: [after, limit]
            ).map { ($0[0], ObjectReference(side: .destination, entity: keyed.destinationEntity, primaryKey: $0[1])) }
        }
        return try Row.fetchAll(
            db.cachedStatement(sql: "SELECT rowid, destination_entity, destination_key FROM modelc_association WHERE mapping = ? AND rowid > ? ORDER BY rowid LIMIT ?"),
            arguments: [mapping, after, limit]
        ).map { ($0[0], ObjectReference(side: .destination, entity: $0[1], primaryKey: $0[2])) }
    }

    /// How many destination instances the mapping at `mapping` created.
    func count(mapping: Int) throws -> Int {
        if let keyed = keyed[mapping] { return keyed.count }
        return try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM modelc_association WHERE mapping = ?", arguments: [mapping]) ?? 0
    }

    // MARK: - Private

    /// The keyed tables a lookup through `mapping` (any when nil) reads, in mapping order.
    private func keyedTables(_ mapping: Int?) -> [(Int, Keyed)] {
        guard let mapping else { return keyed.sorted { $0.key < $1.key } }
        return keyed[mapping].map { [(mapping, $0)] } ?? []
    }

    /// The keys `key` maps to through a set-based mapping's associations, from the column `from`
    /// of its keyed table to `to`, or by `shift` when it has none.
    private func lookUp(_ key: Int64, in keyed: Keyed, from: String, to: String, shift: Int64) throws -> [Int64] {
        guard let table = keyed.table else {
            let mapped = key + shift
            return (keyed.base + 1...keyed.base + Int64(keyed.count)).contains(from == "source_key" ? mapped : key) ? [mapped] : []
        }
        return try Int64.fetchAll(db.cachedStatement(sql: "SELECT \(to) FROM temp.\(table) WHERE \(from) = ?"), arguments: [key])
    }

    /// Moves a set-based mapping's associations into the shared table.
    private func unkey(_ mapping: Int) throws {
        guard let keyed = keyed.removeValue(forKey: mapping) else { return }
        let rows = keyed.rows
        try db.execute(
            sql: "INSERT INTO modelc_association SELECT ?, ?, s.Z_PK, ?, \(rows.key) \(rows.from)",
            arguments: [mapping, keyed.sourceEntity, keyed.destinationEntity])
        if let table = keyed.table { try db.execute(sql: "DROP TABLE temp.\(table)") }
    }

    /// The instances of the shared table associated with `object`, whose side's columns start with `own`.
    private func linked(to object: ObjectReference, from own: String, to other: String, side: ObjectReference.Side, mapping: Int?) throws -> [ObjectReference] {
        let filter = mapping.map { " AND mapping = \($0)" } ?? ""
        return try Row.fetchAll(
            db.cachedStatement(sql: "SELECT \(other)_entity, \(other)_key FROM modelc_association WHERE \(own)_key = ? AND \(own)_entity = ?\(filter) ORDER BY rowid"),
            arguments: [object.primaryKey, object.entity]
        ).map { ObjectReference(side: side, entity: $0[0], primaryKey: $0[1]) }
    }
}
