import Foundation
import GRDB
import ModelSchema
import ModelStore
import Testing
import _ModelTestSupport

/// `modelc migrate --mapping` (the migration manager) and `--through … --mapping` (a staged
/// migration) on a store an app has open, as SQLite lets several connections share one file:
/// the app's connection reads the migrated store afterwards and its writes land in it, and a
/// writer committing all through the run loses nothing (each commit is migrated, or made after
/// on the new store). A run that renamed a new file onto the store left the app reading the old,
/// unlinked file, and SQLite refused its writes there (`SQLITE_READONLY_DBMOVED`).
@Suite(.serialized)
struct OpenStoreMigrationTests {
    /// The two kinds of run that build the new store beside the store.
    enum Route: String, CaseIterable, Sendable {
        case mapping, staged

        var options: [String] {
            let base = ["--model", ShelfMapping.bundlePath, "--mapping", ShelfMapping.mappingPath, "--json"]
            return self == .staged ? base + ["--through", "Shelf 2"] : base
        }
    }

    static let books = 300

    /// A Shelf store of ``books`` books in `journalMode` (`delete` or `wal`).
    static func makeStore(in folder: URL, journalMode: String) throws -> String {
        let store = folder.appendingPathComponent("Shelf.sqlite").path
        try ShelfMapping.makeStore(at: store, books: Self.books)
        let queue = try DatabaseQueue(path: store)
        try queue.writeWithoutTransaction { _ = try String.fetchOne($0, sql: "PRAGMA journal_mode = \(journalMode)") }
        try queue.close()
        return store
    }

    /// The entity hashes of `Shelf 2`, as Core Data computes them for the model.
    static func newHashes() throws -> [String: VersionHash] {
        let bundle = try MigrationTestSupport.bundle(ShelfMapping.bundlePath)
        return VersionHasher(try #require(bundle.version(named: "Shelf 2"))).entityHashes()
    }

    /// Adds a book titled `title` as Core Data does: its key from `Z_PRIMARYKEY`, whose `Z_MAX`
    /// it raises, its entity number read from the store (the versions number `Book` apart).
    static func addBook(_ title: String, in db: Database) throws {
        let row = try #require(try Row.fetchOne(db, sql: "SELECT Z_ENT, Z_MAX FROM Z_PRIMARYKEY WHERE Z_NAME = 'Book'"))
        let (entity, key): (Int, Int) = (row[0], row[1] + 1)
        try db.execute(
            sql: "INSERT INTO ZBOOK (Z_PK, Z_ENT, Z_OPT, ZPAGES, ZTITLE) VALUES (?, ?, 1, 0, ?)", arguments: [key, entity, title])
        try db.execute(sql: "UPDATE Z_PRIMARYKEY SET Z_MAX = ? WHERE Z_ENT = ?", arguments: [key, entity])
    }

    /// The number of books a fresh connection finds titled `title`, in any case.
    static func books(titled title: String, in store: String) throws -> Int {
        let queue = try DatabaseQueue(path: store)
        defer { try? queue.close() }
        return try queue.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM ZBOOK WHERE upper(ZTITLE) = upper(?)", arguments: [title]) ?? 0 }
    }

    /// An app's connection, open before the run, reads the migrated version, tables and values
    /// afterwards, and what it then writes is in the store a new connection opens.
    @Test(arguments: Route.allCases, ["delete", "wal"])
    func anOpenConnectionReadsAndWritesTheMigratedStore(_ route: Route, journalMode: String) throws {
        try withTemporaryDirectory { folder in
            let store = try Self.makeStore(in: folder, journalMode: journalMode)
            let app = try DatabaseQueue(path: store)
            #expect(try app.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM ZAUTHOR") } == Self.books / 10)

            let run = try Modelc.run(["migrate", store] + route.options)
            #expect(run.status == 0, "\(run.standardOutput)\(run.standardError)")
            #expect(try run.json()["outcome"] as? String == "migrated")

            let (hashes, tables, titles) = try app.read { db in
                (
                    try StoreMetadata.read(from: db)?.versionHashes,
                    try db.tableExists("ZWRITER") && !db.tableExists("ZAUTHOR"),
                    try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM ZBOOK WHERE ZTITLE GLOB 'TITLE *'")
                )
            }
            #expect(try hashes == Self.newHashes(), "the app reads the new version")
            #expect(tables, "the app reads the new tables")
            #expect(titles == Self.books, "the app reads the mapped titles")
            try app.write { try Self.addBook("written after", in: $0) }
            try app.close()
            #expect(try Self.books(titled: "written after", in: store) == 1, "the app's write after the run is in the store")
            let files = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            #expect(!files.contains { $0.contains(".modelc-") || $0.hasSuffix("-journal") }, "nothing stray: \(files)")
        }
    }

    /// A writer that commits a book every few milliseconds before, during and after the run (it
    /// waits while the run holds the store's lock): every book it committed is in the migrated
    /// store, upper-cased by the mapping when the run migrated it, as written when it came after.
    @Test(arguments: Route.allCases, ["delete", "wal"])
    func aWriterCommittingThroughTheRunLosesNothing(_ route: Route, journalMode: String) throws {
        try withTemporaryDirectory { folder in
            let store = try Self.makeStore(in: folder, journalMode: journalMode)
            var configuration = Configuration()
            configuration.busyMode = .timeout(60)
            let app = try DatabaseQueue(path: store, configuration: configuration)
            let log = WriterLog()
            let writer = Thread {
                var number = 0
                while !log.stopped {
                    do {
                        try app.writeWithoutTransaction { db in
                            try db.inTransaction(.immediate) {
                                try Self.addBook("late \(number)", in: db)
                                return .commit
                            }
                        }
                        log.record(number)
                    } catch {
                        log.record(failure: "\(number): \(error)")
                    }
                    number += 1
                    usleep(10_000)
                }
            }
            writer.start()
            let waitFor = { (count: Int) in
                let deadline = Date().addingTimeInterval(60)
                while log.committed.count < count && Date() < deadline { usleep(5_000) }
            }
            waitFor(5)

            let run = try Modelc.run(["migrate", store] + route.options)
            let before = log.committed.count
            waitFor(before + 5)
            log.stop()
            while !writer.isFinished { usleep(5_000) }
            try app.close()

            #expect(run.status == 0, "\(run.standardOutput)\(run.standardError)")
            #expect(try run.json()["outcome"] as? String == "migrated")
            #expect(log.failures == [], "the writer's transactions failed")
            let numbers = log.committed
            #expect(numbers.count >= before + 5, "the writer committed after the run")
            let lost = try numbers.filter { try Self.books(titled: "late \($0)", in: store) != 1 }
            #expect(lost.isEmpty, "\(lost.count) of \(numbers.count) committed books are not in the store: \(lost.prefix(10))")
            #expect(try StoreMetadata.read(at: store).versionHashes == Self.newHashes())
        }
    }
}

/// What the writer thread of ``OpenStoreMigrationTests`` committed and what failed, and the
/// flag that stops it, shared with the test under a lock.
final class WriterLog: @unchecked Sendable {
    private let lock = NSLock()
    private var numbers: [Int] = []
    private var errors: [String] = []
    private var isStopped = false

    /// The numbers of the books whose transaction committed.
    var committed: [Int] { lock.withLock { numbers } }
    /// The transactions that failed, with their errors.
    var failures: [String] { lock.withLock { errors } }
    /// Whether the writer is to stop.
    var stopped: Bool { lock.withLock { isStopped } }

    func record(_ number: Int) { lock.withLock { numbers.append(number) } }
    func record(failure: String) { lock.withLock { errors.append(failure) } }
    func stop() { lock.withLock { isStopped = true } }
}
