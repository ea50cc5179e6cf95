import Foundation
import GRDB
import ModelStore
import ModelXML
import Testing
import _ModelTestSupport

/// Reading a store's files while a connection of this process has the store open must not cost
/// that connection its locks: closing any descriptor of a file drops every POSIX lock the process
/// holds on it, so a check, an info or a private copy that opened and closed the store (or its
/// `-shm`) would let another process write or checkpoint under a library's open store.
struct StoreFileLockTests {
    /// Runs `script` with Python's `sqlite3` in another process on the store at `path` (as
    /// `c`, with no busy timeout) and returns what it prints.
    func otherProcess(_ path: String, _ script: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "python3", "-c",
            "import sqlite3, sys\nc = sqlite3.connect(sys.argv[1], timeout=0, isolation_level=None)\n" + script, path,
        ]
        let output = Spawn.pipe()
        process.standardOutput = output
        try Spawn.run(process)
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// `busy` when another process cannot take the exclusive lock a commit needs, else `free`.
    func exclusiveAttempt(_ path: String) throws -> String {
        try otherProcess(path, """
            try:
                c.execute('BEGIN EXCLUSIVE'); c.execute('ROLLBACK'); print('free')
            except sqlite3.OperationalError:
                print('busy')
            """)
    }

    /// The journal mode another process leaves after asking for `delete` (which needs every
    /// other connection's shared lock gone), or `busy`.
    func journalModeChange(_ path: String) throws -> String {
        try otherProcess(path, """
            try:
                print(c.execute('PRAGMA journal_mode = DELETE').fetchone()[0])
            except sqlite3.OperationalError:
                print('busy')
            """)
    }

    /// `1` when another process's truncating checkpoint is held up by a reader, `0` when it ran.
    func truncatingCheckpoint(_ path: String) throws -> String {
        try otherProcess(path, "print(c.execute('PRAGMA wal_checkpoint(TRUNCATE)').fetchone()[0])")
    }

    /// Everything a loader or a command reads of a store before it opens it.
    func readEverything(_ path: String) throws {
        let bundle = try #require(ModelReader().read(at: Corpus.packagePath("Models/Library.xcdatamodeld")).bundle)
        try StoreCheck.checkFile(path)
        _ = StoreCheck.run(storeAt: path, bundle: bundle, busyTimeout: 0)
        _ = try StoreInfo.read(at: path)
        _ = try StoreMetadata.read(at: path)
    }

    func copyFixture(into folder: URL) throws -> String {
        let path = folder.appendingPathComponent("Store.sqlite").path
        try FileManager.default.copyItem(atPath: Corpus.packagePath("Fixtures/Library-v1.sqlite"), toPath: path)
        return path
    }

    /// A copy of the fixture in WAL mode, open in the queue returned, its `-wal` holding a
    /// commit's frames or, `checkpointed`, none (beside its `-shm`).
    func walStore(in folder: URL, checkpointed: Bool) throws -> (path: String, queue: DatabaseQueue) {
        let path = try copyFixture(into: folder)
        let queue = try DatabaseQueue(path: path)
        try queue.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA journal_mode = WAL")
            try db.execute(sql: "UPDATE Z_METADATA SET Z_VERSION = Z_VERSION")
            if checkpointed { try db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)") }
        }
        let log = try FileManager.default.attributesOfItem(atPath: path + "-wal")[.size] as? Int
        if checkpointed {
            #expect(log == 0 && FileManager.default.fileExists(atPath: path + "-shm"), "the -wal must be empty, so that the store is read in place")
        } else {
            #expect((log ?? 0) > 0, "the -wal must hold frames, so that a private copy carries them")
        }
        return (path, queue)
    }

    // MARK: - Rollback journal

    @Test func readingAStoreThisProcessReadsKeepsItsSharedLock() throws {
        try withTemporaryDirectory { folder in
            let path = try copyFixture(into: folder)
            let queue = try DatabaseQueue(path: path)
            try queue.inDatabase { db in
                try db.execute(sql: "BEGIN")
                _ = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM Z_METADATA")
                #expect(try exclusiveAttempt(path) == "busy")
                try readEverything(path)
                #expect(try exclusiveAttempt(path) == "busy", "reading the store dropped this process's shared lock")
                try db.execute(sql: "ROLLBACK")
            }
            #expect(try exclusiveAttempt(path) == "free")
        }
    }

    // MARK: - WAL

    @Test func copyingAWALStoreThisProcessReadsKeepsItsLocks() throws {
        try withTemporaryDirectory { folder in
            let (path, queue) = try walStore(in: folder, checkpointed: false)
            try queue.inDatabase { db in
                try db.execute(sql: "BEGIN")
                _ = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM Z_METADATA")
                #expect(try truncatingCheckpoint(path) == "1")
                // Commands read a store with its -wal and -shm in place; a dry run copies it.
                try readEverything(path)
                try StoreSnapshot.withPrivateCopy(of: path) { _ in }
                // The reader's lock in the -shm, and the shared lock a WAL connection keeps on
                // the main file (a change of journal mode needs it gone).
                #expect(try truncatingCheckpoint(path) == "1", "copying the store dropped this process's -shm read lock")
                #expect(try journalModeChange(path) != "delete", "copying the store dropped this process's shared lock")
                try db.execute(sql: "ROLLBACK")
            }
            #expect(try truncatingCheckpoint(path) == "0")
        }
    }

    /// A WAL store whose log is empty is read in place, read-only through its `-wal` and
    /// `-shm`: closing that connection keeps the other connection's shared lock.
    @Test func readingACheckpointedWALStoreThisProcessReadsKeepsItsLock() throws {
        try withTemporaryDirectory { folder in
            let (path, queue) = try walStore(in: folder, checkpointed: true)
            try queue.inDatabase { db in
                try db.execute(sql: "BEGIN")
                _ = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM Z_METADATA")
                #expect(try journalModeChange(path) == "busy")
                try readEverything(path)
                #expect(try journalModeChange(path) == "busy", "reading the store dropped this process's shared lock")
                try db.execute(sql: "ROLLBACK")
            }
        }
    }

    /// A writer that opens a WAL store the moment after a reader looked at its files (here a
    /// connection of this process, which the lock probe cannot see) commits to two tables and
    /// checkpoints between the reader's reads of them: the reader must see one commit in both,
    /// which a lockless (`immutable`) read of the main file under the checkpoint does not. A
    /// store written just now is read with locks; one last written long ago without, and read
    /// again with locks when its main file changed meanwhile.
    @Test(arguments: [false, true])
    func aReaderOfACheckpointedWALStoreSeesOneCommitWhileAWriterCheckpoints(lastWrittenLongAgo: Bool) throws {
        try withTemporaryDirectory { folder in
            let (path, writer) = try walStore(in: folder, checkpointed: true)
            if lastWrittenLongAgo {
                try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -60)], ofItemAtPath: path)
            }
            var reads = 0
            let (titles, names) = try StoreSnapshot.withReadingQueue(at: path) { reader in
                try reader.read { db in
                    reads += 1
                    let titles = try String.fetchAll(db, sql: "SELECT ZTITLE FROM ZPUBLICATION")
                    if reads == 1 {
                        try writer.writeWithoutTransaction { db in
                            try db.inTransaction {
                                try db.execute(sql: "UPDATE ZPUBLICATION SET ZTITLE = 'rewritten'")
                                try db.execute(sql: "UPDATE ZAUTHOR SET ZNAME = 'rewritten'")
                                return .commit
                            }
                            try db.execute(sql: "PRAGMA wal_checkpoint(PASSIVE)")
                        }
                    }
                    return (titles, try String.fetchAll(db, sql: "SELECT ZNAME FROM ZAUTHOR"))
                }
            }
            let rewritten = (titles: titles.allSatisfy { $0 == "rewritten" }, names: names.allSatisfy { $0 == "rewritten" })
            #expect(rewritten.titles == rewritten.names, "the read mixed two commits: \(titles) \(names)")
            #expect(reads == (lastWrittenLongAgo ? 2 : 1), "a lockless read under a checkpoint is read again with locks")
        }
    }
}
