import Foundation
import GRDB
import ModelStore
import Testing
import _ModelTestSupport

/// The lock probe must not cost the process its own SQLite locks: closing any descriptor of a
/// file drops every POSIX lock the process holds on it, so a probe that opened and closed the
/// store while this process had it locked would let another process write under it.
struct LockProbeTests {
    /// What another process gets when it tries to start writing: `busy` or `free`.
    func otherProcessWriteAttempt(_ path: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "python3", "-c",
            """
            import sqlite3, sys
            c = sqlite3.connect(sys.argv[1], timeout=0, isolation_level=None)
            try:
                c.execute('BEGIN IMMEDIATE'); c.execute('ROLLBACK'); print('free')
            except sqlite3.OperationalError:
                print('busy')
            """,
            path,
        ]
        let output = Spawn.pipe()
        process.standardOutput = output
        try Spawn.run(process)
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test func probingAStoreThisProcessHasLockedKeepsTheLock() throws {
        try withTemporaryDirectory { folder in
            let path = folder.appendingPathComponent("Store.sqlite").path
            try FileManager.default.copyItem(
                atPath: Corpus.packageRoot.appendingPathComponent("Fixtures/Library-v1.sqlite").path, toPath: path)
            let queue = try DatabaseQueue(path: path)
            try queue.inDatabase { db in
                try db.execute(sql: "BEGIN EXCLUSIVE")
                #expect(try otherProcessWriteAttempt(path) == "busy")
                // This process's own lock is no other process's: the probe finds none, twice.
                try StoreCheck.checkNotLocked(path)
                try StoreCheck.checkNotLocked(path)
                #expect(try otherProcessWriteAttempt(path) == "busy", "the probe dropped this process's lock")
                try db.execute(sql: "ROLLBACK")
            }
            #expect(try otherProcessWriteAttempt(path) == "free")
        }
    }
}
