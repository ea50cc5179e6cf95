import Foundation
import GRDB
import ModelStack
import ModelStore
import Testing
import _ModelTestSupport

/// `StoreDescription.persistentHistoryTracking` as Core Data applies it: on, stores get the
/// history tables; off, a store that records history opens read-only.
struct PersistentHistoryLoadingTests {
    typealias Support = StackTestSupport

    static func tracksHistory(_ database: any DatabaseReader) throws -> Bool {
        try database.read { try PersistentHistoryLayout.isPresent(in: StoreSchema.read(from: $0)) }
    }

    @Test(Corpus.required)
    func trackingAddsHistoryTablesToNewAndExistingStores() async throws {
        let folder = try Support.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let memory = try Support.container(Support.bookModel, store: "/dev/null") { $0.persistentHistoryTracking = true }
        try await memory.loadPersistentStores()
        #expect(try Self.tracksHistory(try #require(memory.database)))

        let store = try copyStore(Corpus.path(Support.bookStore), into: folder)
        let existing = try Support.container(Support.bookModel, store: store) {
            $0.persistentHistoryTracking = true
            $0.backsUpBeforeMigration = false
        }
        let reports = try await existing.loadPersistentStores()
        #expect(!reports[0].forcedReadOnly)
        #expect(try Self.tracksHistory(try #require(existing.database)))
    }

    @Test(Corpus.required)
    func aStoreThatRecordsHistoryOpensReadOnlyWithoutTracking() async throws {
        let folder = try Support.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = folder.appendingPathComponent("Tracked.sqlite").path
        let first = try Support.container(Support.bookModel, store: store) { $0.persistentHistoryTracking = true }
        try await first.loadPersistentStores()
        #expect(try Self.tracksHistory(try #require(first.database)))

        let second = try Support.container(Support.bookModel, store: store)
        let reports = try await second.loadPersistentStores()
        #expect(reports[0].forcedReadOnly)
        let database = try #require(second.database)
        #expect(throws: (any Error).self) {
            try database.write { try $0.execute(sql: "INSERT INTO ZUSER (Z_ENT, Z_OPT, ZUSERID) VALUES (1, 1, 7)") }
        }
    }
}
