import Foundation
import GRDB
import ModelStack
import ModelStore
import Testing
import _ModelTestSupport

/// Loading real Core Data stores (copies) through the container: migration on and off, a store
/// no version made, the default location.
@Suite(Corpus.required)
struct PersistentContainerTests {
    typealias Support = StackTestSupport

    @Test func anOldStoreMigratesAutomaticallyAndKeepsItsRows() async throws {
        let folder = try Support.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try copyStore(Corpus.path(Support.bookStore), into: folder, as: "Books.sqlite")
        let original = try DatabaseQueue(path: try copyStore(store, into: folder, as: "original.sqlite"))
        let titles = try Support.bookTitles(original)
        let users = try await original.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM ZUSER") }
        try original.close()
        try FileManager.default.removeItem(atPath: folder.appendingPathComponent("original.sqlite").path)
        #expect(titles.count == 4 && users == 3, "the corpus store's rows, read with SQLite")

        let container = try Support.container(Support.bookModel, store: store)
        let reports = try await container.loadPersistentStores()
        #expect(reports.map(\.migratedFrom) == ["Model1"])
        #expect(reports.map(\.version) == ["Model3"])
        #expect(reports[0].backupPath.map { FileManager.default.fileExists(atPath: $0) } == true)
        let database = try #require(container.database)
        #expect(try Support.bookTitles(database) == titles)
        #expect(try await database.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM ZUSER") } == users)
        try database.close()
        let check = StoreCheck.run(storeAt: store, bundle: container.model)
        #expect(check.error == nil, "the store is at the current version: \(String(describing: check.error))")
        #expect(check.match?.matched?.name == "Model3")
    }

    @Test func withMigrationOffAnOldStoreFailsWith134100Unchanged() async throws {
        let folder = try Support.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try copyStore(Corpus.path(Support.bookStore), into: folder, as: "Books.sqlite")
        let before = try Support.files(in: folder)
        let container = try Support.container(Support.bookModel, store: store) { $0.shouldMigrateStoreAutomatically = false }
        let error = try await #require(throws: PersistentStoreLoadError.self) { try await container.loadPersistentStores() }
        #expect(error.kind == .incompatibleVersion)
        #expect(error.code == 134100 && error.domain == "NSCocoaErrorDomain")
        #expect(error.storeVersion == "Model1" && error.modelVersion == "Model3")
        #expect(error.metadata?.versionHashes.keys.sorted() == ["Book", "User"], "the store's own metadata is attached")
        // As an NSError, as apps test it: Core Data's domain and code, the metadata and the reason.
        let bridged = error as NSError
        #expect(bridged.domain == NSCocoaErrorDomain && bridged.code == 134100, "\(bridged)")
        #expect(bridged.userInfo[NSFilePathErrorKey] as? String == store)
        #expect(((bridged.userInfo["metadata"] as? [String: Any])?["NSStoreModelVersionHashes"] as? [String: Any])?.keys.sorted() == ["Book", "User"])
        #expect(bridged.userInfo["reason"] is String)
        #expect(try Support.files(in: folder) == before, "byte for byte, and no file added")
        #expect(container.loadedStores.isEmpty)
    }

    @Test func withInferenceOffMigrationNeedsAMappingModel134140() async throws {
        let folder = try Support.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try copyStore(Corpus.path(Support.bookStore), into: folder, as: "Books.sqlite")
        let before = try Support.files(in: folder)
        let container = try Support.container(Support.bookModel, store: store) { $0.shouldInferMappingModelAutomatically = false }
        let error = try await #require(throws: PersistentStoreLoadError.self) { try await container.loadPersistentStores() }
        #expect(error.kind == .missingMappingModel && error.code == 134140)
        #expect(try Support.files(in: folder) == before)
    }

    @Test func aStoreNoVersionMadeFailsWith134130Unchanged() async throws {
        let folder = try Support.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try copyStore(Corpus.path(Support.bookStore), into: folder, as: "Books.sqlite")
        let before = try Support.files(in: folder)
        let container = try Support.container(Support.otherModel, store: store)
        let error = try await #require(throws: PersistentStoreLoadError.self) { try await container.loadPersistentStores() }
        #expect(error.kind == .missingSourceModel && error.code == 134130)
        #expect(error.storeVersion == nil && error.modelVersion == "EasyLife 1.5.0")
        #expect(error.metadata != nil)
        #expect(try Support.files(in: folder) == before)
    }

    @Test func aStoreAtTheCurrentVersionOpensAsIs() async throws {
        let folder = try Support.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let real = "larromba__EasyLife/EasyLifeTests/EasyLife 1.5.0.sqlite"
        let store = try copyStore(Corpus.path(real), into: folder, as: "EasyLife.sqlite")
        let container = try Support.container(Support.otherModel, store: store) { $0.isReadOnly = true }
        let reports = try await container.loadPersistentStores()
        #expect(reports[0].migratedFrom == nil && !reports[0].wasCreated)
        let count = try await container.database!.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM ZTODOITEM") }
        #expect(count == 6)
    }

    @Test func aMissingStoreIsCreatedWithItsFolder() async throws {
        let folder = try Support.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = folder.appendingPathComponent("Nested/Books.sqlite").path
        let container = try Support.container(Support.bookModel, store: store)
        let decisions = DecisionLog()
        container.decisionHandler = { decisions.append($0.description); return true }
        let reports = try await container.loadPersistentStores()
        #expect(reports[0].wasCreated)
        #expect(decisions.entries == ["create \(store) at 'Model3'"])
        try await container.database!.write { try $0.execute(sql: "INSERT INTO ZUSER (Z_ENT, Z_OPT, ZUSERID) SELECT Z_ENT, 1, 7 FROM Z_PRIMARYKEY WHERE Z_NAME = 'User'") }
        #expect(StoreCheck.run(storeAt: store, bundle: container.model).error == nil)
    }

    @Test func theDefaultStoreFollowsTheDataDirectory() throws {
        let container = try Support.container(Support.bookModel, store: "/unused")
        let fresh = PersistentContainer(name: "Notes", bundle: container.model)
        let expected = PersistentContainer.defaultDirectoryURL().appendingPathComponent("Notes/Notes.sqlite")
        #expect(fresh.persistentStoreDescriptions.map(\.url) == [expected])
        #expect(fresh.persistentStoreDescriptions[0].type == .sqlite)
        if let data = ProcessInfo.processInfo.environment["XDG_DATA_HOME"], data.hasPrefix("/") {
            #expect(PersistentContainer.defaultDirectoryURL().path == data)
        } else {
            #expect(PersistentContainer.defaultDirectoryURL().path.hasSuffix("/.local/share"))
        }
    }

    @Test func anUnreadableModelIsAModelReadError() throws {
        #expect(throws: PersistentContainer.ModelReadError.self) {
            try PersistentContainer(name: "X", model: URL(fileURLWithPath: "/nonexistent/Model.momd"))
        }
    }
}

/// Decisions seen by a handler, from whichever thread it runs on.
final class DecisionLog: @unchecked Sendable {
    private let lock = NSLock()
    private var _entries: [String] = []
    var entries: [String] { lock.withLock { _entries } }
    func append(_ entry: String) { lock.withLock { _entries.append(entry) } }
}

/// Two containers loading the same old store at once: one migrates, the other waits or finds
/// the store migrated, and both open it at the current version with its rows.
@Suite(Corpus.required)
struct ConcurrentLoadTests {
    typealias Support = StackTestSupport

    @Test func twoContainersOnOneOldStoreBothEndAtTheCurrentVersion() async throws {
        let folder = try Support.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try copyStore(Corpus.path(Support.bookStore), into: folder, as: "Books.sqlite")
        let first = try Support.container(Support.bookModel, store: store) { $0.timeout = 30 }
        let second = try Support.container(Support.bookModel, store: store) { $0.timeout = 30 }
        async let a = first.loadPersistentStores()
        async let b = second.loadPersistentStores()
        let reports = try await [a[0], b[0]]
        #expect(reports.compactMap(\.migratedFrom).count >= 1, "at least one migrated")
        for container in [first, second] {
            #expect(try Support.bookTitles(try #require(container.database)).count == 4)
        }
        #expect(StoreCheck.run(storeAt: store, bundle: first.model).match?.matched?.name == "Model3")
    }
}
