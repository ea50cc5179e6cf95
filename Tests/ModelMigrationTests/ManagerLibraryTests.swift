import Foundation
import GRDB
import ModelExpression
import ModelMigration
import ModelSchema
import ModelStore
import Testing
import _ModelTestSupport

/// The migration manager on the project's Library model with a mapping model written as values:
/// a renamed attribute, a value transformed by a policy function, a to-one, an ordered
/// one-to-many and a many-to-many re-linked; the dry run's counts, the swap of a WAL store,
/// a killed run's files removed, a missing policy function refused before anything is touched.
@Suite struct ManagerLibraryTests {
    typealias Support = MigrationTestSupport

    static func bundle() throws -> ModelBundle { try Support.bundle(Support.library) }

    /// Library → Library 2 as Xcode would generate it, plus `shout:` on authors' names.
    static func mapping(_ bundle: ModelBundle) throws -> MappingModel {
        let source = try #require(bundle.version(named: "Library")), destination = try #require(bundle.version(named: "Library 2"))
        let (old, new) = (VersionHasher(source).entityHashes(), VersionHasher(destination).entityHashes())
        func to(_ mapping: String, _ key: String) -> String {
            "FUNCTION($manager, \"destinationInstancesForEntityMappingNamed:sourceInstances:\", \"\(mapping)\", $source.\(key))"
        }
        func entity(_ name: String, _ attributes: [(String, String?)], _ relationships: [(String, String?)]) -> EntityMapping {
            EntityMapping(
                name: "\(name)To\(name)", type: .copy, sourceEntityName: name, destinationEntityName: name,
                sourceEntityVersionHash: old[name], destinationEntityVersionHash: new[name],
                sourceExpression: SourceExpression(entityName: name),
                attributeMappings: attributes.map { PropertyMapping(name: $0.0, valueExpression: $0.1) },
                relationshipMappings: relationships.map { PropertyMapping(name: $0.0, valueExpression: $0.1) })
        }
        return MappingModel(
            name: "LibraryToLibrary2", path: "LibraryToLibrary2.xcmappingmodel",
            entityMappings: [
                entity("Author", [("born", "$source.born"), ("name", "FUNCTION($entityPolicy, \"shout:\", $source.name)")], [("publications", to("BookToBook", "publications"))]),
                entity("Book", [("isbn", "$source.isbn"), ("pages", "$source.pageCount"), ("publishedAt", "$source.publishedAt"), ("summary", nil), ("title", "$source.title")],
                    [("author", to("AuthorToAuthor", "author")), ("tags", to("TagToTag", "tags"))]),
                entity("Magazine", [("issue", "$source.issue"), ("publishedAt", "$source.publishedAt"), ("title", "$source.title")], [("author", to("AuthorToAuthor", "author"))]),
                entity("Tag", [("name", "$source.name")],
                    [("publications", "FUNCTION($manager, \"destinationInstancesForSourceRelationshipNamed:sourceInstances:\", \"publications\", $source.publications)")]),
            ])
    }

    static func registry() -> PolicyRegistry {
        var registry = PolicyRegistry()
        registry.register(selector: "shout:") { arguments, _ in
            guard case .string(let text) = arguments.first ?? .null else { return .null }
            return .string(text.uppercased())
        }
        return registry
    }

    static func store(in folder: URL, rows: Int) throws -> String {
        let path = folder.appendingPathComponent("Library.sqlite").path
        try StoreCreator.create(at: path, version: try #require(try bundle().version(named: "Library")))
        try Support.fillLibrary(path, rows: rows)
        return path
    }

    static func rows(_ path: String, _ sql: String) throws -> [[DatabaseValue]] {
        try DatabaseQueue(path: path, configuration: RetainedData.readOnly).read { db in
            try Row.fetchAll(db, sql: sql).map { Array($0.databaseValues) }
        }
    }

    @Test func migratesValuesAndLinksThroughTheMapping() throws {
        let bundle = try Self.bundle()
        try withTemporaryDirectory { folder in
            let store = try Self.store(in: folder, rows: 3000)
            let titles = try Self.rows(store, "SELECT p.ZTITLE, p.ZPAGECOUNT, upper(a.ZNAME) FROM ZPUBLICATION p LEFT JOIN ZAUTHOR a ON a.Z_PK = p.ZAUTHOR ORDER BY 1")
            let links = try Self.rows(store, "SELECT p.ZTITLE, t.ZNAME FROM Z_2TAGS j JOIN ZPUBLICATION p ON p.Z_PK = j.Z_2PUBLICATIONS JOIN ZTAG t ON t.Z_PK = j.Z_5TAGS ORDER BY 1, 2")
            let leftover = store + ".modelc-\(UUID().uuidString)"
            try Data("half a store".utf8).write(to: URL(fileURLWithPath: leftover))
            try Data("journal".utf8).write(to: URL(fileURLWithPath: leftover + "-journal"))
            try DatabaseQueue(path: store).writeWithoutTransaction { db in
                try db.execute(sql: "PRAGMA journal_mode = WAL")
                let data = try #require(try Data.fetchOne(db, sql: "SELECT Z_PLIST FROM Z_METADATA"))
                var plist = try #require(try PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any])
                plist["appSyncToken"] = "kept"
                let encoded = try PropertyListSerialization.data(fromPropertyList: plist, format: .binary, options: 0)
                try db.execute(sql: "UPDATE Z_METADATA SET Z_PLIST = ?", arguments: [encoded])
            }

            let planned = try MigrationManager(bundle: bundle, mappingModel: Self.mapping(bundle), registry: Self.registry())
                .migrate(storeAt: store, options: { var options = MigrationManager.Options(); options.dryRun = true; return options }())
            #expect(planned.outcome == .planned)
            #expect(planned.entityMappings.map(\.instancesCreated) == [1000, 3000, 0, 3000])
            #expect(try StoreMetadata.read(at: store).versionHashes == VersionHasher(try #require(bundle.version(named: "Library"))).entityHashes())

            let result = try MigrationManager(bundle: bundle, mappingModel: Self.mapping(bundle), registry: Self.registry()).migrate(storeAt: store)
            #expect(result.outcome == .migrated)
            #expect(result.entityMappings.map(\.instancesCreated) == planned.entityMappings.map(\.instancesCreated))
            #expect(result.removedLeftovers == [leftover, leftover + "-journal"])
            let version = try #require(bundle.version(named: "Library 2"))
            try Support.expectDestination(store, is: version, framework: .current, in: folder)
            #expect(try Self.rows(store, "SELECT p.ZTITLE, p.ZPAGES, a.ZNAME FROM ZPUBLICATION p LEFT JOIN ZAUTHOR a ON a.Z_PK = p.ZAUTHOR ORDER BY 1") == titles)
            #expect(try Self.rows(store, "SELECT p.ZTITLE, t.ZNAME FROM Z_2TAGS j JOIN ZPUBLICATION p ON p.Z_PK = j.Z_2PUBLICATIONS JOIN ZTAG t ON t.Z_PK = j.Z_5TAGS ORDER BY 1, 2") == links)
            #expect(try Self.rows(store, "PRAGMA journal_mode") == [["wal".databaseValue]])
            #expect(try StoreMetadata.read(at: store).plist["appSyncToken"] as? String == "kept", "the app's metadata keys are kept")
            #expect(!FileManager.default.fileExists(atPath: leftover))
            let backup = try #require(result.backupPath)
            #expect(try StoreMetadata.read(at: backup).versionHashes == VersionHasher(try #require(bundle.version(named: "Library"))).entityHashes())
            #expect(try Self.rows(store, "SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_NAME = 'Publication'") == [[3000.databaseValue]])
        }
    }

    /// The set-based path (SQL over whole tables) and the row-by-row path write the same store.
    @Test func theSetBasedPathWritesWhatTheRowByRowPathWrites() throws {
        let bundle = try Self.bundle()
        try withTemporaryDirectory { folder in
            let original = try Self.store(in: folder, rows: 1500)
            var contents = [[String: [[DatabaseValue]]]]()
            for usesSQL in [false, true] {
                let store = folder.appendingPathComponent("copy-\(usesSQL).sqlite").path
                try FileManager.default.copyItem(atPath: original, toPath: store)
                var options = MigrationManager.Options()
                options.usesSQL = usesSQL
                let result = try MigrationManager(bundle: bundle, mappingModel: Self.mapping(bundle), registry: Self.registry()).migrate(storeAt: store, options: options)
                #expect(result.outcome == .migrated)
                var tables = [String: [[DatabaseValue]]]()
                for table in try Self.rows(store, "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").compactMap({ String.fromDatabaseValue($0[0]) }) {
                    tables[table] = try Self.rows(store, "SELECT * FROM \(table) ORDER BY 1")
                }
                contents.append(tables)
            }
            #expect(contents[0].keys.sorted() == contents[1].keys.sorted())
            // Z_METADATA's plist is the same dictionary, whose key order the encoder does not fix.
            for table in contents[0].keys.sorted() where table != "Z_METADATA" {
                #expect(contents[0][table] == contents[1][table], "\(table)")
            }
            #expect((contents[1]["ZPUBLICATION"]?.count ?? 0) == 1500)
        }
    }

    @Test func aMissingPolicyFunctionStopsBeforeAnythingIsTouched() throws {
        let bundle = try Self.bundle()
        try withTemporaryDirectory { folder in
            let store = try Self.store(in: folder, rows: 10)
            let before = try Data(contentsOf: URL(fileURLWithPath: store))
            #expect {
                try MigrationManager(bundle: bundle, mappingModel: Self.mapping(bundle)).migrate(storeAt: store)
            } throws: { error in
                guard let error = error as? MigrationError else { return false }
                return error.errorClass == .missingPolicy && error.message.contains("shout:") && error.message.contains("AuthorToAuthor")
            }
            #expect(try Data(contentsOf: URL(fileURLWithPath: store)) == before)
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["Library.sqlite"])
        }
    }

    /// A policy function that fails stops the run with `policyFailed`, naming the mapping and the
    /// property; the WAL store is as it was (journal mode, rows) and nothing is left beside it.
    @Test func aFailingPolicyFunctionLeavesTheStoreAsItWas() throws {
        let bundle = try Self.bundle()
        var registry = PolicyRegistry()
        registry.register(selector: "shout:") { _, _ in throw EvaluationError("no voice") }
        try withTemporaryDirectory { folder in
            let store = try Self.store(in: folder, rows: 700)
            try DatabaseQueue(path: store).writeWithoutTransaction { try $0.execute(sql: "PRAGMA journal_mode = WAL") }
            let before = try Self.rows(store, "SELECT * FROM ZAUTHOR ORDER BY Z_PK")
            for usesSQL in [true, false] {
                var options = MigrationManager.Options()
                options.usesSQL = usesSQL
                #expect {
                    try MigrationManager(bundle: bundle, mappingModel: Self.mapping(bundle), registry: registry).migrate(storeAt: store, options: options)
                } throws: { error in
                    guard let error = error as? MigrationError else { return false }
                    return error.errorClass == .policyFailed && error.message.contains("AuthorToAuthor") && error.message.contains("no voice")
                }
                #expect(try Self.rows(store, "PRAGMA journal_mode") == [["wal".databaseValue]])
                #expect(try Self.rows(store, "SELECT * FROM ZAUTHOR ORDER BY Z_PK") == before)
                #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { !$0.hasSuffix("-wal") && !$0.hasSuffix("-shm") } == ["Library.sqlite"])
            }
        }
    }

    @Test func aDamagedStoreIsRefusedAsCorrupt() throws {
        let bundle = try Self.bundle()
        try withTemporaryDirectory { folder in
            let store = try Self.store(in: folder, rows: 2000)
            let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: store))
            try handle.truncate(atOffset: 4096 * 3 + 100)
            try handle.close()
            #expect {
                try MigrationManager(bundle: bundle, mappingModel: Self.mapping(bundle), registry: Self.registry()).migrate(storeAt: store)
            } throws: { error in
                (error as? MigrationError)?.errorClass == .store(.corrupt)
            }
        }
    }
}
