import Foundation
import GRDB
import ModelStack
import ModelStore
import Testing
import _ModelTestSupport

/// A store whose writer was killed mid-transaction, with the hot rollback journal that leaves
/// beside it: a writable load rolls the write back, as SQLite does for its next writer, and
/// the store loads as it was; a read-only load cannot, and changes nothing.
@Suite(Corpus.required)
struct HotJournalTests {
    typealias Support = StackTestSupport

    /// A copy of the corpus book store in `folder` whose writer (a `python3` process using
    /// SQLite) was killed with SIGKILL in the middle of a transaction that added 5,000 books:
    /// with a 10-page cache, SQLite had already written changed pages into the store, after
    /// saving their old contents in the journal.
    static func interruptedStore(in folder: URL) throws -> String {
        let store = try copyStore(Corpus.path(Support.bookStore), into: folder, as: "Books.sqlite")
        let writer = Process()
        writer.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        writer.arguments = [
            "python3", "-c",
            """
            import os, signal, sqlite3, sys
            db = sqlite3.connect(sys.argv[1], isolation_level=None)
            db.execute("PRAGMA journal_mode = DELETE")
            db.execute("PRAGMA cache_size = 10")
            db.execute("BEGIN")
            db.execute("WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 5000) "
                       "INSERT INTO ZBOOK (Z_PK, Z_ENT, Z_OPT, ZTITLE) SELECT 1000 + i, 1, 1, printf('%0200d', i) FROM n")
            os.kill(os.getpid(), signal.SIGKILL)
            """,
            store,
        ]
        try Spawn.run(writer)
        writer.waitUntilExit()
        #expect(writer.terminationReason == .uncaughtSignal && writer.terminationStatus == SIGKILL, "the writer died mid-write")
        return store
    }

    @Test func aWritableLoadRollsTheInterruptedWriteBack() async throws {
        let folder = try Support.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let pristine = try DatabaseQueue(path: try copyStore(Corpus.path(Support.bookStore), into: folder, as: "pristine.sqlite"))
        let titles = try Support.bookTitles(pristine)
        try pristine.close()
        let store = try Self.interruptedStore(in: folder)
        #expect(HotJournal.isPresent(beside: store), "a real hot journal")
        let size = try #require(try FileManager.default.attributesOfItem(atPath: store)[.size] as? Int)
        #expect(size > 28672, "the killed writer had grown the store itself, not only its cache")
        let container = try Support.container(Support.bookModel, store: store)
        #expect(StoreCheck.run(storeAt: store, bundle: container.model).error?.errorClass == .hotJournal)

        let reports = try await container.loadPersistentStores()
        #expect(reports[0].rolledBackJournal)
        #expect(reports[0].migratedFrom == "Model1", "then loaded as any old store: migrated")
        #expect(reports[0].quarantinePath == nil, "an interrupted write is not damage")
        let database = try #require(container.database)
        #expect(try Support.bookTitles(database) == titles, "the books before the interrupted write, none of its 5,000")
        try database.close()
        #expect(!FileManager.default.fileExists(atPath: store + "-journal"))
    }

    @Test func aReadOnlyLoadFailsAndChangesNothing() async throws {
        let folder = try Support.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try Self.interruptedStore(in: folder)
        let before = try Support.files(in: folder)
        let container = try Support.container(Support.bookModel, store: store) {
            $0.isReadOnly = true
            $0.timeout = 0.2
        }
        let error = try await #require(throws: PersistentStoreLoadError.self) { try await container.loadPersistentStores() }
        #expect(error.message.contains("hot rollback journal"), "\(error)")
        #expect(try Support.files(in: folder) == before, "the store and its journal byte for byte")
    }
}
