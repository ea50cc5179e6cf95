import Foundation
import GRDB
import ModelArchive
import ModelMigration
import ModelSchema
import ModelStore
import Testing
import _ModelTestSupport

/// The triggers with which Core Data keeps a derived count (`Book.pagesCount = pages.@count`)
/// up to date, against the ones Core Data wrote into CoreDataPlus's SampleModel2 stores (whose
/// model is read from their model cache): created as Core Data creates them, counting as they
/// do, and kept by a migration that rebuilds the tables they name.
@Suite(Corpus.required)
struct DerivedAttributeTriggerTests {
    static let stores = ["SampleModel2_V1.sqlite", "SampleModel2_V2.sqlite"].map { "\(CorpusStores.plus)/SampleModel2/Fixtures/\($0)" }

    /// The model version a store carries in its model cache.
    static func version(of store: String) throws -> ModelVersion {
        let archive = try #require(try StoreModelCache.archive(at: store))
        return try ModelUnarchiver.version(from: archive, name: "SampleModel2", path: store)
    }

    @Test(arguments: stores)
    func createdTriggersAreTheRealStoresOnes(_ store: String) throws {
        let path = Corpus.path(store)
        let real = try StoreSchema.read(at: path).triggers
        #expect(real.count == 5)
        let layout = StoreLayout(try Self.version(of: path), framework: try StoreMetadata.read(at: path).framework)
        #expect(layout.schema.triggers.map(\.name) == real.map(\.name))
        #expect(layout.schema.triggers.map(\.sql) == real.map(\.sql))
        #expect(layout.schema.triggers.map(\.table) == real.map(\.table))
    }

    /// A store `store create` writes keeps the count as pages come and go.
    @Test func aCreatedStoreKeepsTheCount() throws {
        try withTemporaryDirectory { folder in
            let path = folder.appendingPathComponent("Created.sqlite").path
            let version = try Self.version(of: Corpus.path(Self.stores[0]))
            try StoreCreator.create(at: path, version: version)
            let queue = try DatabaseQueue(path: path, configuration: CoreDataFunctions.registering(in: Configuration()))
            let layout = StoreLayout(version)
            let book = try #require(layout.entity(named: "Book")), page = try #require(layout.entity(named: "Page"))
            try queue.write { db in
                try db.execute(sql: "INSERT INTO ZBOOK (Z_PK, Z_ENT, Z_OPT) VALUES (1, \(book.number), 1)")
                for key in 1...3 { try db.execute(sql: "INSERT INTO ZPAGE (Z_PK, Z_ENT, Z_OPT, ZBOOK) VALUES (\(key), \(page.number), 1, 1)") }
                try db.execute(sql: "DELETE FROM ZPAGE WHERE Z_PK = 2")
            }
            #expect(try queue.read { try Int.fetchOne($0, sql: "SELECT ZPAGESCOUNT FROM ZBOOK WHERE Z_PK = 1") } == 2)
            try queue.close()
        }
    }

    /// Book renamed Volume (renaming identifier `Book`): the step rebuilds ZBOOK as ZVOLUME, and
    /// the triggers come out named and written for Volume, still counting.
    @Test func aMigrationThatRebuildsTheTablesKeepsTheTriggers() throws {
        try withTemporaryDirectory { folder in
            let path = try copyStore(Corpus.path(Self.stores[0]), into: folder)
            let old = try Self.version(of: path)
            var new = old
            new.name = "SampleModel2 renamed"
            new.entities = old.entities.map { entity in
                var entity = entity
                if entity.name == "Book" {
                    entity.name = "Volume"
                    entity.renamingIdentifier = "Book"
                }
                if entity.parentEntityName == "Book" { entity.parentEntityName = "Volume" }
                entity.relationships = entity.relationships.map { relationship in
                    var relationship = relationship
                    if relationship.destinationEntityName == "Book" { relationship.destinationEntityName = "Volume" }
                    if relationship.inverseEntityName == "Book" { relationship.inverseEntityName = "Volume" }
                    return relationship
                }
                return entity
            }
            let bundle = ModelBundle(name: "SampleModel2", path: path, isVersioned: true, currentVersionName: new.name, versions: [old, new])
            let counts = "SELECT COUNT(*) FROM ZVOLUME v WHERE v.ZPAGESCOUNT IS NOT (SELECT COUNT(*) FROM ZPAGE p WHERE p.ZBOOK = v.Z_PK)"
            let result = try Migrator.migrate(storeAt: path, bundle: bundle)
            #expect(result.outcome == .migrated)
            let framework = try StoreMetadata.read(at: path).framework
            let triggers = try StoreSchema.read(at: path).triggers
            #expect(triggers.map(\.name).sorted() == StoreLayout(new, framework: framework).schema.triggers.map(\.name).sorted())
            #expect(triggers.allSatisfy { $0.name.contains("_Volume_pagesCount_") })
            let queue = try DatabaseQueue(path: path, configuration: CoreDataFunctions.registering(in: Configuration()))
            #expect(try queue.read { try Int.fetchOne($0, sql: counts) } == 0, "the counts came through")
            let volume = try #require(try queue.read { try Int64.fetchOne($0, sql: "SELECT MIN(Z_PK) FROM ZVOLUME") })
            let before = try queue.read { try Int.fetchOne($0, sql: "SELECT ZPAGESCOUNT FROM ZVOLUME WHERE Z_PK = \(volume)") } ?? 0
            try queue.write { db in
                try db.execute(sql: "INSERT INTO ZPAGE (Z_PK, Z_ENT, Z_OPT, ZBOOK) SELECT MAX(Z_PK) + 1, MIN(Z_ENT), 1, \(volume) FROM ZPAGE")
            }
            #expect(try queue.read { try Int.fetchOne($0, sql: "SELECT ZPAGESCOUNT FROM ZVOLUME WHERE Z_PK = \(volume)") } == before + 1)
            #expect(try queue.read { try Int.fetchOne($0, sql: counts) } == 0)
            try queue.close()
        }
    }
}
