import GRDB
import ModelExpression

/// Which destination instances each source instance became, per entity mapping: a temporary
/// SQLite table of the destination's connection (spilled to a temporary file, never a dictionary
/// sized by the store), as `associateSourceInstance:withDestinationInstance:forEntityMapping:`
/// records them.
struct Associations {
    let db: Database

    /// Creates the table on the destination's connection.
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

    /// Records that `source` became `destination` through the mapping at `mapping`.
    func associate(_ source: ObjectReference, _ destination: ObjectReference, mapping: Int) throws {
        try db.cachedStatement(sql: "INSERT INTO modelc_association VALUES (?, ?, ?, ?, ?)")
            .execute(arguments: [mapping, source.entity, source.primaryKey, destination.entity, destination.primaryKey])
    }

    /// The destination instances `source` became, through the mapping at `mapping` or any when nil.
    func destinations(of source: ObjectReference, mapping: Int?) throws -> [ObjectReference] {
        try linked(to: source, from: "source", to: "destination", side: .destination, mapping: mapping)
    }

    /// The source instances `destination` came from, through the mapping at `mapping` or any when nil.
    func sources(of destination: ObjectReference, mapping: Int?) throws -> [ObjectReference] {
        try linked(to: destination, from: "destination", to: "source", side: .source, mapping: mapping)
    }

    /// The instances associated with `object`, whose side's columns start with `own`.
    private func linked(to object: ObjectReference, from own: String, to other: String, side: ObjectReference.Side, mapping: Int?) throws -> [ObjectReference] {
        let filter = mapping.map { " AND mapping = \($0)" } ?? ""
        return try Row.fetchAll(
            db.cachedStatement(sql: "SELECT \(other)_entity, \(other)_key FROM modelc_association WHERE \(own)_key = ? AND \(own)_entity = ?\(filter) ORDER BY rowid"),
            arguments: [object.primaryKey, object.entity]
        ).map { ObjectReference(side: side, entity: $0[0], primaryKey: $0[1]) }
    }

    /// The destination instances the mapping at `mapping` created after the association `after`
    /// (a row id), at most `limit`, with their row ids: pass 2 walks them in bounded batches.
    func created(by mapping: Int, after: Int64, limit: Int) throws -> [(Int64, ObjectReference)] {
        try Row.fetchAll(
            db.cachedStatement(sql: "SELECT rowid, destination_entity, destination_key FROM modelc_association WHERE mapping = ? AND rowid > ? ORDER BY rowid LIMIT ?"),
            arguments: [mapping, after, limit]
        ).map { ($0[0], ObjectReference(side: .destination, entity: $0[1], primaryKey: $0[2])) }
    }

    /// How many destination instances the mapping at `mapping` created.
    func count(mapping: Int) throws -> Int {
        try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM modelc_association WHERE mapping = ?", arguments: [mapping]) ?? 0
    }
}
