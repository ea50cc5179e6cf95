import Foundation
import GRDB
import ModelSchema

/// What a store holds: its metadata, its tables with their row counts and schema and, given a
/// model, which version made it and how its tables differ from Core Data's layout of it.
public struct StoreInfo: Sendable {
    /// A table and how many rows it has.
    public struct Table: Sendable, Hashable, Codable {
        public var name: String
        public var rows: Int
    }

    public var path: String
    public var metadata: StoreMetadata
    public var tables: [Table]
    /// `PRAGMA journal_mode`: `wal` or `delete`, as the file header records it.
    public var journalMode: String
    /// The tables, indexes and entity rows as found.
    public var schema: StoreSchema

    /// Reads the store at `path` read-only (in place, or from a private copy where SQLite would
    /// write beside it: ``StoreSnapshot``); the store is left untouched.
    public static func read(at path: String) throws -> StoreInfo {
        try StoreCheck.checkFile(path)
        return try StoreSnapshot.withReadOnlyDatabase(at: path) { db in
            let metadata = try StoreMetadata.required(from: db, path: path)
            let names = try String.fetchAll(
                db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
            let tables = try names.map { name in
                Table(name: name, rows: try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(name.quotedDatabaseIdentifier)") ?? 0)
            }
            // From the header: a WAL store read `immutable` (one no one here can write) says `delete`.
            let journalMode = StoreFiles(path: path).headerSaysWAL == true ? "wal" : "delete"
            return StoreInfo(
                path: path, metadata: metadata, tables: tables, journalMode: journalMode, schema: try StoreSchema.read(from: db))
        }
    }
}

extension StoreInfo {
    /// How the store's schema differs from what the store's own Core Data build creates for
    /// `version` (`StoreLayout`); empty when the tables, columns, indexes and entity numbers are
    /// Core Data's. What a store carries from in-place migrations shows up here.
    public func schemaDifferences(from version: ModelVersion) -> [SchemaDifference] {
        StoreLayout(version, framework: metadata.framework).schema.differences(from: schema)
    }
}
