import GRDB

/// The associations of an entity mapping the set-based path ran: its instances got the
/// destination keys `base + 1 ... base + count`, one per selected source row, in source-key
/// order. When the source keys are consecutive, the association is a shift and needs no table;
/// otherwise a temporary table lists the source keys by rank, its integer primary key, so that the way from
/// a destination key back to its source is a rowid lookup, and the way from a source key an
/// index built only when a lookup first needs it.
struct RankedKeys {
    /// The temporary table of source keys by rank; nil when the keys are a shift.
    let table: String?
    /// The source table (`modelc_source.ZBOOK`) and the source entity's number in it.
    let sourceTable: String
    let sourceNumber: Int
    let sourceEntity: String
    let destinationEntity: String
    let base: Int64
    let count: Int
    /// Destination key minus source key, for a shift.
    let shift: Int64
    var sourceIndexed = false

    /// The destination keys the mapping made.
    var destinationRange: Range<Int64> { base + 1..<base + 1 + Int64(count) }

    /// The SQL of the destination key of the source row `s`, and the clause that selects the
    /// mapping's source rows as `s` in rank order.
    var rows: (key: String, from: String) {
        guard let table else { return ("s.Z_PK + \(shift)", "FROM \(sourceTable) s WHERE s.Z_ENT = \(sourceNumber) ORDER BY s.Z_PK") }
        return ("a.rank + \(base)", "FROM temp.\(table) a JOIN \(sourceTable) s ON s.Z_PK = a.source_key ORDER BY a.rank")
    }

    /// SQL for the destination key of the source key `sourceKey` (an SQL expression), or NULL;
    /// the table's source index must exist.
    func destinationKeySQL(of sourceKey: String) -> String {
        guard let table else {
            return "(CASE WHEN \(sourceKey) BETWEEN \(base + 1 - shift) AND \(base + Int64(count) - shift) THEN \(sourceKey) + \(shift) END)"
        }
        return "(SELECT k.rank + \(base) FROM temp.\(table) k WHERE k.source_key = \(sourceKey))"
    }

    /// The clause that selects, as `s`, the source row of the destination key `destinationKey`
    /// (an SQL expression).
    func sourceRowSQL(of destinationKey: String) -> String {
        guard let table else { return "FROM \(sourceTable) s WHERE s.Z_PK = \(destinationKey) - \(shift)" }
        return "FROM temp.\(table) a JOIN \(sourceTable) s ON s.Z_PK = a.source_key WHERE a.rank = \(destinationKey) - \(base)"
    }

    /// The destination key of the source key `key`, if the mapping selected it; the table's
    /// source index must exist.
    func destinationKey(of key: Int64, in db: Database) throws -> Int64? {
        guard let table else {
            // A source key from a hostile store's foreign key may be near the ends of the integers.
            let (moved, overflow) = key.addingReportingOverflow(shift)
            return !overflow && destinationRange.contains(moved) ? moved : nil
        }
        return try Int64.fetchOne(db.cachedStatement(sql: "SELECT rank + \(base) FROM temp.\(table) WHERE source_key = ?"), arguments: [key])
    }

    /// The source key of the destination key `key`, if the mapping made it.
    func sourceKey(of key: Int64, in db: Database) throws -> Int64? {
        guard destinationRange.contains(key) else { return nil }
        guard let table else { return key - shift }
        return try Int64.fetchOne(db.cachedStatement(sql: "SELECT source_key FROM temp.\(table) WHERE rank = ?"), arguments: [key - base])
    }

    /// The destination keys after `after`, at most `limit`.
    func destinationKeys(after: Int64, limit: Int) -> [Int64] {
        let first = max(after + 1, base + 1), end = min(first + Int64(limit), base + Int64(count) + 1)
        return Array(first..<max(first, end))
    }
}
