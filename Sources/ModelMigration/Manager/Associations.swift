import GRDB
import ModelExpression
import ModelStore

/// Which destination instances each source instance became, per entity mapping, in temporary
/// SQLite tables of the destination's connection (spilled to a temporary file, never a
/// dictionary sized by the store), as `associateSourceInstance:withDestinationInstance:forEntityMapping:`
/// records them.
///
/// One shared table holds the associations policies and the row-by-row path record one at a
/// time; a mapping the set-based path ran keeps its own as ``RankedKeys``.
final class Associations {
    let db: Database
    private var ranked: [Int: RankedKeys] = [:]

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
    ) throws -> RankedKeys {
        let selected = "FROM \(sourceTable) s WHERE s.Z_ENT = \(number)" + (filter.map { " AND \($0)" } ?? "")
        func made(_ table: String?, count: Int, shift: Int64) -> RankedKeys {
            let made = RankedKeys(
                table: table, sourceTable: sourceTable, sourceNumber: number, sourceEntity: entities.source, destinationEntity: entities.destination,
                base: base, count: count, shift: shift)
            ranked[mapping] = made
            return made
        }
        if filter == nil, let row = try Row.fetchOne(db, sql: "SELECT COUNT(*), MIN(s.Z_PK), MAX(s.Z_PK) \(selected)") {
            let checked = CheckedRow(row, table: sourceTable, in: db)
            let count = try checked.required(0, "COUNT(*)", as: Int.self)
            let first = try checked.optional(1, "Z_PK", as: Int64.self) ?? 1, last = try checked.optional(2, "Z_PK", as: Int64.self) ?? 0
            // Keys at the ends of the integers (a hostile store's) overflow the span or the shift:
            // the ranked table takes those over.
            let span = last.subtractingReportingOverflow(first), shift = (base + 1).subtractingReportingOverflow(first)
            if !shift.overflow, count == 0 || (!span.overflow && span.partialValue == Int64(count) - 1) {
                return made(nil, count: count, shift: shift.partialValue)
            }
        }
        let table = "modelc_ranked_\(mapping)"
        try db.execute(sql: "CREATE TEMP TABLE \(table) (rank INTEGER PRIMARY KEY, source_key INTEGER NOT NULL)")
        try db.execute(sql: "INSERT INTO temp.\(table) (source_key) SELECT s.Z_PK \(selected) ORDER BY s.Z_PK")
        return made(table, count: db.changesCount, shift: 0)
    }

    /// The set-based associations of the mapping at `mapping`, when that path made them.
    func ranked(_ mapping: Int) -> RankedKeys? { ranked[mapping] }

    /// SQL for the destination key the source key `sourceKey` (an SQL expression) became
    /// through the mapping at `mapping`, or NULL.
    func destinationKeySQL(of sourceKey: String, mapping: Int) throws -> String {
        if let keys = try indexedBySource(mapping) { return keys.destinationKeySQL(of: sourceKey) }
        return "(SELECT t.destination_key FROM temp.modelc_association t WHERE t.source_key = \(sourceKey) AND t.mapping = \(mapping) ORDER BY t.rowid LIMIT 1)"
    }

    /// An SQL condition on `Z_PK` selecting the destination instances the mapping at `mapping` created.
    func createdSQL(mapping: Int) -> String {
        if let range = ranked[mapping]?.destinationRange { return "Z_PK >= \(range.lowerBound) AND Z_PK < \(range.upperBound)" }
        return "Z_PK IN (SELECT destination_key FROM temp.modelc_association WHERE mapping = \(mapping))"
    }

    // MARK: - One at a time

    /// Records that `source` became `destination` through the mapping at `mapping`.
    func associate(_ source: ObjectReference, _ destination: ObjectReference, mapping: Int) throws {
        // A policy adding to a set-based mapping's associations: its associations move to the
        // shared table first, so that every lookup sees them all, in creation order.
        if ranked[mapping] != nil { try unrank(mapping) }
        try db.cachedStatement(sql: "INSERT INTO modelc_association VALUES (?, ?, ?, ?, ?)")
            .execute(arguments: [mapping, source.entity, source.primaryKey, destination.entity, destination.primaryKey])
    }

    /// The destination instances `source` became, through the mapping at `mapping` or any when nil.
    func destinations(of source: ObjectReference, mapping: Int?) throws -> [ObjectReference] {
        var found = [ObjectReference]()
        for number in rankedMappings(mapping) {
            guard let keys = try indexedBySource(number), keys.sourceEntity == source.entity else { continue }
            if let key = try keys.destinationKey(of: source.primaryKey, in: db) {
                found.append(ObjectReference(side: .destination, entity: keys.destinationEntity, primaryKey: key))
            }
            if mapping == number { return found }
        }
        return found + (try linked(to: source, from: "source", to: "destination", side: .destination, mapping: mapping))
    }

    /// The source instances `destination` came from, through the mapping at `mapping` or any when nil.
    func sources(of destination: ObjectReference, mapping: Int?) throws -> [ObjectReference] {
        var found = [ObjectReference]()
        for number in rankedMappings(mapping) {
            guard let keys = ranked[number], keys.destinationEntity == destination.entity else { continue }
            if let key = try keys.sourceKey(of: destination.primaryKey, in: db) {
                found.append(ObjectReference(side: .source, entity: keys.sourceEntity, primaryKey: key))
            }
            if mapping == number { return found }
        }
        return found + (try linked(to: destination, from: "destination", to: "source", side: .source, mapping: mapping))
    }

    /// The destination instances the mapping at `mapping` created after the cursor `after` (0 to
    /// start), at most `limit`, with their cursors: pass 2 walks them in bounded batches.
    func created(by mapping: Int, after: Int64, limit: Int) throws -> [(Int64, ObjectReference)] {
        if let keys = ranked[mapping] {
            return keys.destinationKeys(after: after, limit: limit).map { ($0, ObjectReference(side: .destination, entity: keys.destinationEntity, primaryKey: $0)) }
        }
        return try Row.fetchAll(
            db.cachedStatement(sql: "SELECT rowid, destination_entity, destination_key FROM modelc_association WHERE mapping = ? AND rowid > ? ORDER BY rowid LIMIT ?"),
            arguments: [mapping, after, limit]
        ).map { row in
            let checked = CheckedRow(row, table: "modelc_association", in: db)
            return (try checked.required(0, "rowid"), ObjectReference(
                side: .destination, entity: try checked.required(1, "destination_entity"), primaryKey: try checked.required(2, "destination_key")))
        }
    }

    /// How many destination instances the mapping at `mapping` created.
    func count(mapping: Int) throws -> Int {
        if let keys = ranked[mapping] { return keys.count }
        return try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM modelc_association WHERE mapping = ?", arguments: [mapping]) ?? 0
    }

    // MARK: - Private

    /// The set-based mappings a lookup through `mapping` (any when nil) reads, in mapping order.
    private func rankedMappings(_ mapping: Int?) -> [Int] {
        guard let mapping else { return ranked.keys.sorted() }
        return ranked[mapping] == nil ? [] : [mapping]
    }

    /// The set-based associations of `mapping`, their table indexed by source key, which
    /// lookups from the source side need; built the first time one asks.
    private func indexedBySource(_ mapping: Int) throws -> RankedKeys? {
        guard let keys = ranked[mapping] else { return nil }
        guard let table = keys.table, !keys.sourceIndexed else { return keys }
        try db.execute(sql: "CREATE UNIQUE INDEX temp.\(table)_source ON \(table) (source_key)")
        ranked[mapping]?.sourceIndexed = true
        return ranked[mapping]
    }

    /// Moves a set-based mapping's associations into the shared table.
    private func unrank(_ mapping: Int) throws {
        guard let keys = ranked.removeValue(forKey: mapping) else { return }
        let rows = keys.rows
        try db.execute(
            sql: "INSERT INTO modelc_association SELECT ?, ?, s.Z_PK, ?, \(rows.key) \(rows.from)",
            arguments: [mapping, keys.sourceEntity, keys.destinationEntity])
        if let table = keys.table { try db.execute(sql: "DROP TABLE temp.\(table)") }
    }

    /// The instances of the shared table associated with `object`, whose side's columns start with `own`.
    private func linked(to object: ObjectReference, from own: String, to other: String, side: ObjectReference.Side, mapping: Int?) throws -> [ObjectReference] {
        let filter = mapping.map { " AND mapping = \($0)" } ?? ""
        return try Row.fetchAll(
            db.cachedStatement(sql: "SELECT \(other)_entity, \(other)_key FROM modelc_association WHERE \(own)_key = ? AND \(own)_entity = ?\(filter) ORDER BY rowid"),
            arguments: [object.primaryKey, object.entity]
        ).map { row in
            // The source keys came from the store's Z_PK column, which a hostile store may fill with text.
            let checked = CheckedRow(row, table: "modelc_association", in: db)
            return ObjectReference(side: side, entity: try checked.required(0, "\(other)_entity"), primaryKey: try checked.required(1, "\(other)_key"))
        }
    }
}
