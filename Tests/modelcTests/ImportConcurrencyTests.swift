import Foundation
import GRDB
import Testing
import _ModelTestSupport

#if canImport(Glibc)
import Glibc
#endif

/// `modelc import` with other writers on the same store: it waits for another writer's
/// transaction as a SQLite writer does, and whatever a second import, a library save or another
/// SQLite writer does meanwhile, every committed row is in the store at the end and
/// `store check` is clean (it once renamed a copy onto the store, losing rows committed in
/// between, and took a live import's copy for a dead run's).
@Suite(.serialized)
struct ImportConcurrencyTests {
    static let model = ImportBatchTests.model

    /// A Library 3 store made by importing 10 books, in `journalMode` ("wal" or "delete").
    static func makeStore(in folder: URL, journalMode: String = "wal") throws -> String {
        let store = folder.appendingPathComponent("store.sqlite").path
        let file = folder.appendingPathComponent("seed.json")
        try ImportBatchTests.write(ImportBatchTests.objects(books: 10), to: file)
        let run = try Modelc.run(["import", store, "--model", model, file.path])
        #expect(run.status == 0, "\(run.standardOutput)\(run.standardError)")
        let queue = try DatabaseQueue(path: store)
        try queue.writeWithoutTransaction { _ = try String.fetchOne($0, sql: "PRAGMA journal_mode = \(journalMode)") }
        try queue.close()
        return store
    }

    /// The store's author names and its number of books.
    static func contents(_ store: String) throws -> (authors: Set<String>, books: Int) {
        var configuration = Configuration()
        configuration.readonly = true
        let queue = try DatabaseQueue(path: store, configuration: configuration)
        defer { try? queue.close() }
        return try queue.read { db in
            let authors = Set(try String.fetchAll(db, sql: "SELECT ZNAME FROM ZAUTHOR"))
            let books = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM ZPUBLICATION WHERE Z_ENT = (SELECT Z_ENT FROM Z_PRIMARYKEY WHERE Z_NAME = 'Book')") ?? -1
            return (authors, books)
        }
    }

    /// A file of `books` books (with their reviews, authors and topics) whose unique values carry `tag`.
    static func file(books: Int, tag: String, in folder: URL) throws -> URL {
        let file = folder.appendingPathComponent("import-\(tag).json")
        try ImportBatchTests.write(ImportBatchTests.renamed(ImportBatchTests.objects(books: books), tag), to: file)
        return file
    }

    static func storeCheck(_ store: String) throws -> String {
        let run = try Modelc.run(["store", "check", store, "--model", model])
        return run.status == 0 ? "ok" : run.standardOutput + run.standardError
    }

    @Test func anImportWaitsForAnotherWritersTransactionAndBothLand() throws {
        let folder = try Modelc.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        for mode in ["wal", "delete"] {
            let store = try Self.makeStore(in: folder.appendingPathComponent(mode).creating(), journalMode: mode)
            let file = try Self.file(books: 20, tag: mode, in: folder)
            // The other writer holds its transaction 1.5 s, then commits its row.
            let writer = try AuthorWriter(store: store, seconds: 0, holding: 1.5, in: folder)
            try writer.waitUntilHolding()
            let start = Date()
            let run = try Modelc.run(["import", store, "--model", Self.model, file.path, "--json"])
            let waited = Date().timeIntervalSince(start)
            let committed = try writer.committed()
            #expect(run.status == 0, "\(mode): \(run.standardOutput)\(run.standardError)")
            #expect(waited > 1, "\(mode): the import waited \(waited) s for the other writer")
            let (authors, books) = try Self.contents(store)
            #expect(committed == 1 && authors.contains("py 0"), "\(mode): the other writer's row")
            #expect(books == 30, "\(mode)")
            #expect(try Self.storeCheck(store) == "ok", "\(mode)")
        }
    }

    /// Two imports started at once on one store, a few times: the second waits for the first's
    /// transaction (each takes well under the 5 s a writer waits), both land whole, and nothing
    /// is left beside the store.
    @Test func twoImportsAtOnceBothLand() throws {
        let folder = try Modelc.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        for trial in 1...5 {
            let store = try Self.makeStore(in: folder.appendingPathComponent("trial-\(trial)").creating())
            let files = try (0..<2).map { try Self.file(books: 100, tag: "t\(trial)i\($0)", in: folder) }
            let runs = try Modelc.runAtOnce(files.map { ["import", store, "--model", Self.model, $0.path, "--json"] })
            for run in runs { #expect(run.status == 0, "trial \(trial): \(run.output)\(run.error)") }
            #expect(try Self.contents(store).books == 10 + 100 * 2, "trial \(trial)")
            #expect(try ImportBatchTests.copies(beside: store).isEmpty)
            #expect(try Self.storeCheck(store) == "ok", "trial \(trial)")
        }
    }

    /// For a bounded time (`MODELC_IMPORT_STRESS_SECONDS`, default 20 per journal mode), two
    /// loops of `modelc import`, another SQLite writer (Python's sqlite3, a row per transaction)
    /// and, in WAL mode, an app saving through the library (ContextWorker, 5 authors a save) write
    /// one store: at the end every committed row is there, each import landed whole or not at
    /// all, and `store check` is clean.
    @Test(arguments: ["wal", "delete"])
    func importsSavesAndAnotherWriterKeepEveryCommittedRow(_ mode: String) throws {
        let seconds = ProcessInfo.processInfo.environment["MODELC_IMPORT_STRESS_SECONDS"].flatMap(Double.init) ?? 20
        let folder = try Modelc.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try Self.makeStore(in: folder, journalMode: mode)
        // A library saving in WAL mode, as an app's container opens the store by default.
        let worker = mode == "wal" ? try LibraryWriter(store: store, model: Self.model, in: folder) : nil
        let writer = try AuthorWriter(store: store, seconds: seconds, in: folder)
        let deadline = Date().addingTimeInterval(seconds)
        let results = Locked<[(tag: String, status: Int32, output: String)]>([])
        let loops = (0..<2).map { loop in
            Thread {
                var round = 0
                while Date() < deadline {
                    round += 1
                    let tag = "l\(loop)r\(round)"
                    guard let file = try? Self.file(books: 50, tag: tag, in: folder),
                        let run = try? Modelc.run(["import", store, "--model", Self.model, file.path, "--json"])
                    else { continue }
                    results.withLock { $0.append((tag, run.status, run.standardOutput + run.standardError)) }
                }
            }
        }
        for loop in loops { loop.start() }
        while results.withLock({ $0.count }) < 2 || Date() < deadline { usleep(100_000) }
        while loops.contains(where: { !$0.isFinished }) { usleep(100_000) }
        let committedRows = try writer.committed()
        let saves = worker?.stop() ?? 0
        let imports = results.withLock { $0 }
        let landed = imports.filter { $0.status == 0 }.count
        for failed in imports where failed.status != 0 {
            #expect(failed.output.contains("\"locked\""), "\(failed.tag): \(failed.output)")
        }
        let (authors, books) = try Self.contents(store)
        let missing = (0..<committedRows).map { "py \($0)" }.filter { !authors.contains($0) }
            + (1..<(saves + 1)).flatMap { round in (0..<5).map { "bulk \(round).\($0)" } }.filter { !authors.contains($0) }
        #expect(missing.isEmpty, "\(missing.count) committed rows missing, first: \(missing.prefix(5))")
        #expect(books == 10 + 50 * landed, "\(landed) of \(imports.count) imports landed")
        #expect(try Self.storeCheck(store) == "ok")
        print("import stress (\(mode), \(seconds) s): \(landed) of \(imports.count) imports landed, \(committedRows) rows of the other writer, \(saves) library saves")
        #expect(landed >= 2 && committedRows >= 10, "the writers ran: \(landed) imports, \(committedRows) rows")
    }
}

/// Another SQLite writer on a store: Python's `sqlite3` with a busy timeout, writing an Author
/// row per transaction as Core Data writes one (its key from `Z_PRIMARYKEY`, whose `Z_MAX` it
/// raises in the same transaction), for `seconds`; it prints the number of each row it commits.
/// With `holding`, the first transaction is held that long before its commit.
final class AuthorWriter {
    private let process = Process()
    private let output: URL

    init(store: String, seconds: Double, holding: Double = 0, in folder: URL) throws {
        output = folder.appendingPathComponent("writer-\(UUID().uuidString).txt")
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        let script = """
            import sqlite3, sys, time
            path, seconds, hold = sys.argv[1], float(sys.argv[2]), float(sys.argv[3])
            c = sqlite3.connect(path, timeout=120, isolation_level=None)
            n, end = 0, time.time() + seconds
            while True:
                c.execute('BEGIN IMMEDIATE')
                ent = c.execute("SELECT Z_ENT FROM Z_PRIMARYKEY WHERE Z_NAME = 'Author'").fetchone()[0]
                pk = c.execute('SELECT Z_MAX + 1 FROM Z_PRIMARYKEY WHERE Z_ENT = ?', (ent,)).fetchone()[0]
                c.execute('INSERT INTO ZAUTHOR (Z_PK, Z_ENT, Z_OPT, ZNAME) VALUES (?, ?, 1, ?)', (pk, ent, 'py %d' % n))
                c.execute('UPDATE Z_PRIMARYKEY SET Z_MAX = ? WHERE Z_ENT = ?', (pk, ent))
                if n == 0 and hold > 0:
                    print('holding', flush=True)
                    time.sleep(hold)
                c.execute('COMMIT')
                print(n, flush=True)
                n += 1
                if time.time() >= end:
                    break
                time.sleep(0.005)
            c.close()
            """
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script, store, "\(seconds)", "\(holding)"]
        process.standardOutput = try FileHandle(forWritingTo: output)
        try Spawn.run(process)
    }

    private var lines: [String] {
        (try? String(contentsOf: output, encoding: .utf8))?.split(separator: "\n").map(String.init) ?? []
    }

    /// Waits until the first transaction holds the store's lock.
    func waitUntilHolding() throws {
        let deadline = Date().addingTimeInterval(30)
        while !lines.contains("holding") {
            guard Date() < deadline, process.isRunning else { throw CocoaError(.fileLocking) }
            usleep(10_000)
        }
    }

    /// Waits for the writer to end and returns how many rows it committed (rows 0..<n).
    func committed() throws -> Int {
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "the other writer failed")
        return lines.compactMap(Int.init).count
    }
}

/// An app saving through the library: `ContextWorker bulk 5` saves 5 new authors per
/// transaction (`bulk R.I`) and prints each commit, until it is killed.
final class LibraryWriter {
    private let process = Process()
    private let input = Spawn.pipe()
    private let output: URL

    init(store: String, model: String, in folder: URL) throws {
        output = folder.appendingPathComponent("worker-\(UUID().uuidString).txt")
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        process.executableURL = Modelc.builtProduct("ContextWorker")
        process.arguments = [store, model]
        process.standardInput = input
        process.standardOutput = try FileHandle(forWritingTo: output)
        process.standardError = FileHandle.nullDevice
        try Spawn.run(process)
        let deadline = Date().addingTimeInterval(60)
        while !text.contains("\"ready\"") {
            guard Date() < deadline, process.isRunning else { throw CocoaError(.fileReadUnknown, userInfo: [NSDebugDescriptionErrorKey: text]) }
            usleep(10_000)
        }
        input.fileHandleForWriting.write(Data("bulk 5\n".utf8))
    }

    private var text: String { (try? String(contentsOf: output, encoding: .utf8)) ?? "" }

    /// Kills the worker and returns the number of saves it printed as committed (saves 1...n);
    /// a save it was killed in before printing may have committed too.
    func stop() -> Int {
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        #expect(!text.contains("\"ok\":false"), "the library's saves failed: \(text.suffix(400))")
        return text.split(separator: "\n").filter { $0.contains("\"committed\"") }.count
    }
}


extension URL {
    /// This folder, created when missing.
    func creating() throws -> URL {
        try FileManager.default.createDirectory(at: self, withIntermediateDirectories: true)
        return self
    }
}

/// A value guarded by a lock.
final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) { self.value = value }

    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        try lock.withLock { try body(&value) }
    }
}
