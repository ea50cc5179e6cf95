import Foundation
import Testing
import _ModelTestSupport

/// `modelc fetch` on a store another process writes meanwhile: Python's `sqlite3` rewrites
/// every publication's title (a few to dozens of pages each time), opening and closing the store
/// as an app does, checkpointing and truncating the `-wal` after each commit in WAL mode. Every
/// fetch must read the store as it was at some commit, never call it damaged, missing or locked.
@Suite(.serialized)
struct LiveStoreReadingTests {
    /// The writer: rewrites titles for `seconds`, then prints how many commits it made.
    static let writer = """
        import random, sqlite3, sys, time
        path, wal, end = sys.argv[1], sys.argv[2] == 'wal', time.time() + float(sys.argv[3])
        commits = 0
        while time.time() < end:
            c = sqlite3.connect(path, timeout=30, isolation_level=None)
            for _ in range(random.randint(1, 4)):
                c.execute('BEGIN IMMEDIATE')
                c.execute('UPDATE ZPUBLICATION SET ZTITLE = ?', ('t' * random.randint(100, 60000),))
                c.execute('COMMIT')
                if wal:
                    c.execute('PRAGMA wal_checkpoint(TRUNCATE)')
                commits += 1
            c.close()
        print(commits)
        """

    /// Runs `fetch` again and again for `seconds` (at most 200 runs) while the writer writes
    /// the copy of a fixture in journal mode `mode`; returns the failed runs' reports.
    func fetchWhileWriting(mode: String, seconds: Double) throws -> (runs: Int, failures: [String], commits: Int) {
        try withTemporaryDirectory { folder in
            let path = try copyStore(Corpus.packagePath("Fixtures/Library-v3.sqlite"), into: folder)
            let setup = try python(["-c", "import sqlite3, sys; sqlite3.connect(sys.argv[1]).execute('PRAGMA journal_mode = \(mode)')", path])
            setup.waitUntilExit()
            let writer = try python(["-c", Self.writer, path, mode, String(seconds)])
            let end = Date().addingTimeInterval(seconds)
            var (runs, failures) = (0, [String]())
            while Date() < end && runs < 200 {
                let run = try Modelc.run([
                    "fetch", path, "--model", Corpus.packagePath("Models/Library.xcdatamodeld"), "--entity", "Publication", "--json",
                ])
                runs += 1
                if run.status != 0 || (try? run.json()["count"] as? Int) != 5 { failures.append(run.standardOutput + run.standardError) }
            }
            writer.waitUntilExit()
            let commits = Int(String(decoding: (writer.standardOutput as? Pipe)?.fileHandleForReading.readDataToEndOfFile() ?? Data(), as: UTF8.self)
                .trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
            return (runs, failures, commits)
        }
    }

    /// Python 3 running `arguments`, its output in a pipe.
    func python(_ arguments: [String]) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3"] + arguments
        process.standardOutput = Spawn.pipe()
        try Spawn.run(process)
        return process
    }

    @Test(arguments: ["wal", "delete"])
    func aStoreBeingWrittenIsReadAsALiveStore(mode: String) throws {
        let (runs, failures, commits) = try fetchWhileWriting(mode: mode, seconds: 15)
        #expect(commits > runs, "the writer must keep writing while the store is read (\(commits) commits, \(runs) runs)")
        #expect(failures.isEmpty, "\(failures.count) of \(runs) runs failed; the first: \(failures.first ?? "")")
    }
}
