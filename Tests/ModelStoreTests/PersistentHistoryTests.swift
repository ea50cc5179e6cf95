import Foundation
import GRDB
import ModelSchema
import ModelStore
import ModelXML
import Testing
import _ModelTestSupport

/// Persistent history tracking's tables, against the one corpus store that has them
/// (CoreDataPlus's SampleModel2_V1, written by build 1344 with `NSPersistentHistoryTrackingKey`).
struct PersistentHistoryTests {
    static let tracked = "\(CorpusStores.plus)/SampleModel2/Fixtures/SampleModel2_V1.sqlite"
    static let model = "\(CorpusStores.plus)/SampleModel3/SampleModel3.xcdatamodeld"

    static func version() throws -> ModelVersion {
        try #require(ModelReader().read(at: Corpus.path(model)).bundle?.currentVersion)
    }

    /// The history part of a real store: its three tables, their indexes and entity rows.
    static func historyPart(of schema: StoreSchema) -> (tables: [String], indexes: [String], entities: [StoreEntityRow]) {
        let names: Set = ["ACHANGE", "ATRANSACTION", "ATRANSACTIONSTRING"]
        return (
            schema.tables.filter { names.contains($0.name) }.map(\.sql),
            schema.indexes.filter { names.contains($0.table) }.map(\.sql),
            schema.entities.filter { $0.number > 16000 })
    }

    @Test(Corpus.required)
    func createdHistoryTablesAreTheRealStoresOnes() throws {
        let real = Self.historyPart(of: try StoreSchema.read(at: Corpus.path(Self.tracked)))
        #expect(real.tables.count == 3 && real.entities.count == 3)
        try withTemporaryDirectory { folder in
            let path = folder.appendingPathComponent("Tracked.sqlite").path
            try StoreCreator.create(at: path, version: try Self.version(), persistentHistory: true)
            let ours = Self.historyPart(of: try StoreSchema.read(at: path))
            #expect(ours.tables == real.tables)
            #expect(ours.indexes == real.indexes)
            #expect(ours.entities == real.entities)
        }
    }

    /// A store that tracks history still matches its model's layout: the history part is Core
    /// Data's, not a difference.
    @Test(Corpus.required)
    func historyTablesAreNotSchemaDifferences() throws {
        try withTemporaryDirectory { folder in
            let path = folder.appendingPathComponent("Tracked.sqlite").path
            let version = try Self.version()
            try StoreCreator.create(at: path, version: version, persistentHistory: true)
            #expect(StoreLayout(version).schema.differences(from: try StoreSchema.read(at: path)).isEmpty)
            #expect(StoreLayout(version, persistentHistory: true).schema.differences(from: try StoreSchema.read(at: path)).isEmpty)
        }
    }

    /// Installing history into an existing store adds exactly what a tracked store is created with.
    @Test(Corpus.required)
    func installingHistoryMatchesCreatingWithIt() throws {
        try withTemporaryDirectory { folder in
            let version = try Self.version()
            let created = folder.appendingPathComponent("Created.sqlite").path
            let installed = folder.appendingPathComponent("Installed.sqlite").path
            try StoreCreator.create(at: created, version: version, persistentHistory: true)
            try StoreCreator.create(at: installed, version: version)
            let queue = try DatabaseQueue(path: installed)
            try queue.write { try PersistentHistoryLayout.install(in: $0) }
            try queue.write { try PersistentHistoryLayout.install(in: $0) }
            try queue.close()
            let a = Self.historyPart(of: try StoreSchema.read(at: created))
            let b = Self.historyPart(of: try StoreSchema.read(at: installed))
            #expect(a.tables == b.tables && a.indexes == b.indexes && a.entities == b.entities)
        }
    }

    /// CoreDataPlus's SampleModel marks `Person.id` preserved on deletion: a store created for it
    /// with tracking has one `ZTOMBSTONE0 BLOB` after `ZCOLUMNS`, and is otherwise the real
    /// store's history part; without tracking, it has no history tables at all.
    @Test(Corpus.required)
    func aModelWithPreservedAttributesGetsTombstoneColumns() throws {
        let version = try #require(ModelReader().read(at: Corpus.path("\(CorpusStores.plus)/SampleModel/SampleModel.xcdatamodeld")).bundle?.currentVersion)
        #expect(PersistentHistoryLayout.tombstoneCount(of: version) == 1)
        let real = Self.historyPart(of: try StoreSchema.read(at: Corpus.path(Self.tracked)))
        try withTemporaryDirectory { folder in
            let path = folder.appendingPathComponent("People.sqlite").path
            try StoreCreator.create(at: path, version: version, persistentHistory: true)
            let ours = Self.historyPart(of: try StoreSchema.read(at: path))
            let realChange = try #require(real.tables.first { $0.contains("TABLE ACHANGE") })
            #expect(ours.tables.first { $0.contains("TABLE ACHANGE") } == realChange.replacingOccurrences(of: "ZCOLUMNS BLOB )", with: "ZCOLUMNS BLOB, ZTOMBSTONE0 BLOB )"))
            #expect(ours.tables.filter { !$0.contains("TABLE ACHANGE") } == real.tables.filter { !$0.contains("TABLE ACHANGE") })
            #expect(StoreLayout(version, persistentHistory: true).schema.differences(from: try StoreSchema.read(at: path)).isEmpty)
        }
    }

    /// An entity's tombstone takes its preserved attributes and its ancestors', never transient
    /// or external binary data ones; the table has as many columns as the entity with the most.
    @Test func tombstoneColumnsCountTheEntityWithTheMostPreservedAttributes() {
        func attribute(_ name: String, transient: Bool = false, external: Bool = false) -> Attribute {
            Attribute(name: name, type: .binary, isTransient: transient, allowsExternalBinaryDataStorage: external, preservesValueInHistoryOnDeletion: true)
        }
        let version = ModelVersion(name: "V", path: "", entities: [
            Entity(name: "Leaf", parentEntityName: "Middle", attributes: [attribute("leafOwn"), attribute("leafTransient", transient: true)]),
            Entity(name: "Middle", parentEntityName: "Root", attributes: [attribute("middleOwn"), attribute("middleExternal", external: true)]),
            Entity(name: "Root", attributes: [attribute("rootOwn"), Attribute(name: "notPreserved", type: .string)]),
            Entity(name: "Other", attributes: [attribute("a"), attribute("b")]),
        ])
        #expect(PersistentHistoryLayout.tombstoneCount(of: version) == 3)
        #expect(PersistentHistoryLayout.tombstoneCount(of: ModelVersion(name: "V", path: "", entities: [Entity(name: "Plain")])) == 0)
        // A chain of 5,000 subentities, each adding one, counts in linear time.
        let chain = (0..<5_000).map { Entity(name: "E\($0)", parentEntityName: $0 == 0 ? nil : "E\($0 - 1)", attributes: [attribute("a\($0)")]) }
        #expect(PersistentHistoryLayout.tombstoneCount(of: ModelVersion(name: "V", path: "", entities: chain.reversed())) == 5_000)
    }

    /// A store whose history tables predate its model's preserved attributes gains the missing
    /// `ZTOMBSTONEn` columns when history is installed again, and keeps the rows it had.
    @Test(Corpus.required)
    func installingHistoryAddsTheMissingTombstoneColumns() throws {
        try withTemporaryDirectory { folder in
            let path = try copyStore(Corpus.path(Self.tracked), into: folder)
            let queue = try DatabaseQueue(path: path)
            try queue.write { try PersistentHistoryLayout.install(in: $0, tombstones: 2) }
            try queue.write { try PersistentHistoryLayout.install(in: $0, tombstones: 1) }
            let (columns, changes) = try queue.read { db in
                (try db.columns(in: "ACHANGE").map { "\($0.name) \($0.type)" }, try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM ACHANGE"))
            }
            try queue.close()
            #expect(columns.suffix(3) == ["ZCOLUMNS BLOB", "ZTOMBSTONE0 BLOB", "ZTOMBSTONE1 BLOB"])
            #expect(changes == 5_468)
        }
    }
}

/// Writes to a real store whose derived attributes Core Data maintains with triggers.
struct CoreDataFunctionTests {
    static let store = "\(CorpusStores.plus)/SampleModel2/Fixtures/SampleModel2_V1.sqlite"
    static let insert = "INSERT INTO ZPAGE (Z_PK, Z_ENT, Z_OPT, ZBOOK) SELECT 100000, Z_ENT, 1, (SELECT MIN(Z_PK) FROM ZBOOK) FROM Z_PRIMARYKEY WHERE Z_NAME = 'Page'"

    /// The triggers call Core Data's functions: without them a write fails; with them it runs
    /// and the trigger still keeps the derived count.
    @Test(Corpus.required)
    func derivedAttributeTriggersRunWithCoreDataFunctions() throws {
        try withTemporaryDirectory { folder in
            let path = try copyStore(Corpus.path(Self.store), into: folder)
            let plain = try DatabaseQueue(path: path)
            #expect(throws: DatabaseError.self) { try plain.write { try $0.execute(sql: Self.insert) } }
            try plain.close()

            let queue = try DatabaseQueue(path: path, configuration: CoreDataFunctions.registering(in: Configuration()))
            let count = "SELECT ZPAGESCOUNT FROM ZBOOK WHERE Z_PK = (SELECT MIN(Z_PK) FROM ZBOOK)"
            let before = try queue.read { try Int.fetchOne($0, sql: count) }
            try queue.write { try $0.execute(sql: Self.insert) }
            #expect(try queue.read { try Int.fetchOne($0, sql: count) } == before.map { $0 + 1 })
            try queue.close()
        }
    }
}
