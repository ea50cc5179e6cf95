import Foundation
import ModelCompiler
import Synchronization
import GRDB
import ModelMigration
import ModelSchema
import ModelStore
import ModelXML
import Testing
import _ModelTestSupport

/// Shared steps of the migration tests: copying stores, reading models, comparing schemas.
enum MigrationTestSupport {
    static let library = Corpus.packageRoot.appendingPathComponent("Models/Library.xcdatamodeld").path

    static func fixture(_ name: String) -> String {
        Corpus.packageRoot.appendingPathComponent("Fixtures/\(name)").path
    }

    /// The model at `path` (Xcode 3 versions included, as every command reads them), read once
    /// per test run: the corpus tests share Wire's 90 versions.
    static func bundle(_ path: String) throws -> ModelBundle {
        if let cached = cache.withLock({ $0[path] }) { return cached }
        let bundle = try #require(ModelSources.reader.read(at: path).bundle)
        cache.withLock { $0[path] = bundle }
        return bundle
    }

    private static let cache = Mutex<[String: ModelBundle]>([:])

    /// Copies a store with its `-wal` and `-shm` into `folder`; returns the copy's path.
    static func copy(_ store: String, into folder: URL, as name: String? = nil) throws -> String {
        try copyStore(store, into: folder, as: name)
    }

    /// The schema of a store as a set: tables with their columns and types, and indexes.
    static func schemaSet(_ path: String) throws -> (tables: [String: Set<String>], indexes: [String: String]) {
        let schema = try StoreSchema.read(at: path)
        let tables = Dictionary(uniqueKeysWithValues: schema.tables.map { ($0.name, Set($0.columns.map { "\($0.name) \($0.type)" })) })
        let indexes = Dictionary(uniqueKeysWithValues: schema.indexes.map { ($0.name, $0.normalizedSQL) })
        return (tables, indexes)
    }

    /// Checks that a migrated store is what `store create` makes for `version`: hashes, and the
    /// schema as a set of tables, columns, types and indexes.
    static func expectDestination(_ path: String, is version: ModelVersion, framework: FrameworkVersion, in folder: URL) throws {
        let metadata = try StoreMetadata.read(at: path)
        #expect(metadata.versionHashes == VersionHasher(version).entityHashes(), "hashes of \(version.name)")
        let fresh = folder.appendingPathComponent("fresh-\(UUID().uuidString).sqlite").path
        try StoreCreator.create(at: fresh, version: version, framework: framework)
        let expected = try schemaSet(fresh)
        let actual = try schemaSet(path)
        #expect(actual.tables == expected.tables, "tables and columns of \(version.name)")
        #expect(actual.indexes == expected.indexes, "indexes of \(version.name)")
        let check = StoreCheck.run(storeAt: path, bundle: ModelBundle(name: "x", path: "", isVersioned: true, currentVersionName: version.name, versions: [version]))
        #expect(check.error == nil, "store check: \(check.error?.description ?? "")")
    }

    /// Fills a store of the first Library version with `rows` publications, tags and links
    /// (and up to 1,000 authors), as an app would have.
    static func fillLibrary(_ path: String, rows: Int) throws {
        try DatabaseQueue(path: path).write { db in
            let numbers = "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < \(rows))"
            try db.execute(sql: "\(numbers) INSERT INTO ZAUTHOR (Z_PK, Z_ENT, Z_OPT, ZNAME) SELECT i, 1, 1, 'author ' || i FROM n WHERE i <= 1000")
            try db.execute(
                sql: "\(numbers) INSERT INTO ZPUBLICATION (Z_PK, Z_ENT, Z_OPT, ZAUTHOR, ZPAGECOUNT, ZTITLE, ZISBN) SELECT i, 3, 1, i % 1000 + 1, i % 500, 'title ' || i, 'isbn-' || i FROM n")
            try db.execute(sql: "\(numbers) INSERT INTO ZTAG (Z_PK, Z_ENT, Z_OPT, ZNAME) SELECT i, 5, 1, 'tag ' || i FROM n")
            try db.execute(sql: "\(numbers) INSERT INTO Z_2TAGS (Z_2PUBLICATIONS, Z_5TAGS) SELECT i, i * 7 % \(rows) + 1 FROM n")
            try db.execute(sql: "UPDATE Z_PRIMARYKEY SET Z_MAX = CASE Z_NAME WHEN 'Author' THEN \(min(rows, 1000)) ELSE \(rows) END WHERE Z_SUPER = 0")
        }
    }

    /// The rows of a store's entity tables (every table but Core Data's own `Z_` ones).
    static func entityRowCount(_ path: String) throws -> Int {
        try DatabaseQueue(path: path, configuration: RetainedData.readOnly).read { db in
            var total = 0
            for table in try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'Z%' AND name NOT LIKE 'Z\\_%' ESCAPE '\\'") {
                total += try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(table.quotedDatabaseIdentifier)") ?? 0
            }
            return total
        }
    }

    /// The bytes of a store and its `-wal` and `-shm` (`nil` for those absent), for before and
    /// after comparisons; a store that cannot be read is a failure, not a `nil` equal to `nil`.
    static func fileBytes(_ path: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) -> [Data?] {
        let bytes = [path, path + "-wal", path + "-shm"].map { FileManager.default.contents(atPath: $0) }
        #expect(bytes[0] != nil, "\(path) cannot be read", sourceLocation: sourceLocation)
        return bytes
    }
}
