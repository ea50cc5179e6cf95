import Foundation
import GRDB
import ModelStack
import ModelStore
import Testing
import _ModelTestSupport

/// In-memory stores (tests, previews) and where the loading runs.
@Suite(Corpus.required)
struct InMemoryStoreTests {
    typealias Support = StackTestSupport

    /// `type|name|sql` of every schema object, the way SQLite keeps them.
    static func schema(_ database: any DatabaseReader) throws -> [String] {
        try database.read { db in
            try Row.fetchAll(db, sql: "SELECT type, name, sql FROM sqlite_master ORDER BY name").map { row in
                [0, 1, 2].map { (row[$0] as String?) ?? "" }.joined(separator: "|")
            }
        }
    }

    /// The name in a `type|name|sql` line.
    static func name(_ line: String) -> String {
        String(line.split(separator: "|", omittingEmptySubsequences: false)[1])
    }

    @Test func aDevNullURLIsAnInMemoryStoreWithCoreDataLayout() async throws {
        let container = try Support.container(Support.otherModel, store: "/dev/null")
        #expect(container.persistentStoreDescriptions[0].type == .inMemory)
        let reports = try await container.loadPersistentStores()
        #expect(reports[0].wasCreated)
        let memory = try Self.schema(try #require(container.database))

        // The same objects as a store Core Data wrote at this version, and exactly the schema
        // `store create` writes.
        try withTemporaryDirectory { folder in
            let apple = try DatabaseQueue(path: try copyStore(Corpus.path("larromba__EasyLife/EasyLifeTests/EasyLife 1.5.0.sqlite"), into: folder))
            #expect(try Self.schema(apple).map(Self.name) == memory.map(Self.name))
            try apple.close()
            let path = folder.appendingPathComponent("Created.sqlite").path
            try StoreCreator.create(at: path, version: try #require(container.model.currentVersion))
            let created = try DatabaseQueue(path: path)
            #expect(try Self.schema(created) == memory)
            try created.close()
        }
        let entities = try await container.database!.read { try String.fetchAll($0, sql: "SELECT Z_NAME FROM Z_PRIMARYKEY ORDER BY Z_ENT") }
        #expect(entities == ["Project", "TodoItem"])
    }

    @Test func anInMemoryStoreVanishesWithItsContainer() async throws {
        weak var released: DatabaseQueue?
        do {
            let container = try Support.container(Support.bookModel, store: "/dev/null")
            try await container.loadPersistentStores()
            let database = try #require(container.database as? DatabaseQueue)
            try await database.write { try $0.execute(sql: "INSERT INTO ZUSER (Z_ENT, Z_OPT, ZUSERID) SELECT Z_ENT, 1, 7 FROM Z_PRIMARYKEY WHERE Z_NAME = 'User'") }
            released = database
        }
        #expect(released == nil, "the database went with the container")
        let second = try Support.container(Support.bookModel, store: "/dev/null")
        try await second.loadPersistentStores()
        #expect(try await second.database!.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM ZUSER") } == 0)
        let type = try FileManager.default.attributesOfItem(atPath: "/dev/null")[.type] as? FileAttributeType
        #expect(type == .typeCharacterSpecial, "/dev/null is untouched")
    }

    /// The Xcode template's preview and test stores set `/dev/null` on the description made for
    /// the store's file (`description.url = URL(fileURLWithPath: "/dev/null")`); Core Data then
    /// keeps the SQLite store in memory, whatever the description's type was.
    @Test func aDevNullURLSetOnAFileDescriptionIsInMemory() async throws {
        let folder = try Modelc.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let container = try Support.container(Support.bookModel, store: folder.appendingPathComponent("Book.sqlite").path)
        container.persistentStoreDescriptions[0].url = URL(fileURLWithPath: "/dev/null")
        #expect(container.persistentStoreDescriptions[0].isInMemory)
        try await container.loadPersistentStores()
        let database = try #require(container.database)
        #expect(try await database.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM ZUSER") } == 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty, "no file was made")
        let type = try FileManager.default.attributesOfItem(atPath: "/dev/null")[.type] as? FileAttributeType
        #expect(type == .typeCharacterSpecial, "/dev/null is untouched")
    }

    /// Core Data adds a store "synchronously on the calling thread" unless its description's
    /// `shouldAddStoreAsynchronously` is set (Apple's documentation of that property): the Xcode
    /// template uses the container on the line after `loadPersistentStores { }`.
    @Test func theCompletionFormLoadsOnTheCallingThreadBeforeItReturns() throws {
        let container = try Support.container(Support.bookModel, store: "/dev/null")
        let caller = pthread_self()
        let loader = DecisionLog()
        container.decisionHandler = { _ in
            loader.append(pthread_equal(pthread_self(), caller) != 0 ? "caller" : "other")
            return true
        }
        container.loadPersistentStores { description, error in
            loader.append(error == nil ? "loaded \(description) on \(pthread_equal(pthread_self(), caller) != 0 ? "caller" : "other")" : "\(error!)")
        }
        #expect(loader.entries == ["caller", "loaded in-memory store on caller"])
        #expect(container.database != nil, "the store is loaded when the call returns")
    }

    @Test func anAsynchronousDescriptionReturnsAtOnceAndLoadsOnAnotherThread() throws {
        let container = try Support.container(Support.bookModel, store: "/dev/null")
        container.persistentStoreDescriptions[0].shouldAddStoreAsynchronously = true
        let caller = pthread_self()
        let loader = DecisionLog()
        let done = DispatchSemaphore(value: 0)
        container.decisionHandler = { _ in
            loader.append(pthread_equal(pthread_self(), caller) != 0 ? "caller" : "other")
            // Holds the load until the caller has moved on.
            Thread.sleep(forTimeInterval: 0.2)
            return true
        }
        let started = Date()
        container.loadPersistentStores { description, error in
            loader.append(error == nil ? "loaded \(description)" : "\(error!)")
            done.signal()
        }
        #expect(Date().timeIntervalSince(started) < 0.15, "the call did not wait for the load")
        #expect(done.wait(timeout: .now() + 30) == .success)
        #expect(loader.entries == ["other", "loaded in-memory store"])
    }
}
