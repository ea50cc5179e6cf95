import Foundation
import Testing
import _ModelTestSupport

/// `modelc fetch`, `migrate --dry-run` and `store check` on a store another process writes
/// meanwhile: Python's `sqlite3` rewrites every publication's title (a few to dozens of pages each
/// time), opening and closing the store as an app does, checkpointing and truncating the `-wal`
/// after each commit in WAL mode. Every run must read the store as it was at some commit, never
/// call it damaged, missing or locked.
@Suite(.serialized)
struct LiveStoreReadingTests {
    /// The writer: rewrites titles for `seconds`, resting `pause` seconds after each commit,
    /// then prints how many commits it made.
    static let writer = """
        import random, sqlite3, sys, time
        path, wal, end, pause = sys.argv[1], sys.argv[2] == 'wal', time.time() + float(sys.argv[3]), float(sys.argv[4])
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
                time.sleep(pause)
            c.close()
        print(commits)
        """

    /// Runs `modelc` with the `arguments` of the store's path again and again for `seconds` (at
    /// most 200 runs) while the writer writes the copy of fixture `store` in journal mode `mode`,
    /// resting `pause` seconds between commits; returns the failed runs' reports (a run fails
    /// when it exits non-zero or `passed` rejects its JSON).
    func runWhileWriting(
        _ store: String, mode: String, seconds: Double, pause: Double = 0, _ arguments: (String) -> [String], passed: ([String: Any]) -> Bool
    ) throws -> (runs: Int, failures: [String], commits: Int) {
        try withTemporaryDirectory { folder in
            let path = try copyStore(Corpus.packagePath("Fixtures/\(store)"), into: folder)
            let setup = try python(["-c", "import sqlite3, sys; sqlite3.connect(sys.argv[1]).execute('PRAGMA journal_mode = \(mode)')", path])
            setup.waitUntilExit()
            let writer = try python(["-c", Self.writer, path, mode, String(seconds), String(pause)])
            let end = Date().addingTimeInterval(seconds)
            var (runs, failures) = (0, [String]())
            while Date() < end && runs < 200 {
                let run = try Modelc.run(arguments(path))
                runs += 1
                if run.status != 0 || !((try? run.json()).map(passed) ?? false) { failures.append(run.standardOutput + run.standardError) }
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
        let (runs, failures, commits) = try runWhileWriting(
            "Library-v3.sqlite", mode: mode, seconds: 15,
            { ["fetch", $0, "--model", Corpus.packagePath("Models/Library.xcdatamodeld"), "--entity", "Publication", "--json"] }
        ) { $0["count"] as? Int == 5 }
        #expect(commits > runs, "the writer must keep writing while the store is read (\(commits) commits, \(runs) runs)")
        #expect(failures.isEmpty, "\(failures.count) of \(runs) runs failed; the first: \(failures.first ?? "")")
    }

    /// A dry run migrates a private copy of the store, which must be the store as one commit
    /// left it: bytes of its files copied while the writer commits and checkpoints would mix
    /// commits, and the dry run would call the store damaged.
    @Test(arguments: ["wal", "delete"])
    func aStoreBeingWrittenIsPlannedOnAsALiveStore(mode: String) throws {
        let (runs, failures, commits) = try runWhileWriting(
            "Library-v1.sqlite", mode: mode, seconds: 10,
            { ["migrate", $0, "--model", Corpus.packagePath("Models/Library.xcdatamodeld"), "--dry-run", "--json"] }
        ) { $0["outcome"] as? String == "planned" }
        #expect(commits > runs, "the writer must keep writing while the store is planned on (\(commits) commits, \(runs) runs)")
        #expect(failures.isEmpty, "\(failures.count) of \(runs) runs failed; the first: \(failures.first ?? "")")
    }

    /// An app at work holds the store's write lock for a moment at a time, which is not a
    /// locked store (Core Data's 134090 is a timeout): the check waits for the lock to be let go
    /// and finds the store opens. (A writer that never rests would keep it locked throughout.)
    @Test(arguments: ["wal", "delete"])
    func aStoreBeingWrittenIsCheckedAsALiveStore(mode: String) throws {
        let (runs, failures, commits) = try runWhileWriting(
            "Library-v3.sqlite", mode: mode, seconds: 10, pause: 0.02,
            { ["store", "check", $0, "--model", Corpus.packagePath("Models/Library.xcdatamodeld"), "--json"] }
        ) { $0["class"] as? String == "compatible" }
        #expect(commits > runs, "the writer must keep writing while the store is checked (\(commits) commits, \(runs) runs)")
        #expect(failures.isEmpty, "\(failures.count) of \(runs) runs failed; the first: \(failures.first ?? "")")
    }
}
