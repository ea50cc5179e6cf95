import Foundation

/// A second process that holds an exclusive SQLite lock on a store until it is told to let go:
/// what an app writing to the store looks like from outside. It is Python's `sqlite3`, so the
/// lock is SQLite's own, taken by another process; it ends its transaction and exits as soon as
/// ``stop()`` closes its standard input.
///
/// Sendable so that a load's decision handler may let go of the lock from the loading thread;
/// `stop()` only closes the process's input and waits for it, which any thread may do.
public final class StoreLocker: @unchecked Sendable {
    private let process = Process()
    private let input = Spawn.pipe()

    /// Starts the process and returns once it holds the lock.
    public init(_ path: String) throws {
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "python3", "-c",
            "import sqlite3, sys; c = sqlite3.connect(sys.argv[1], isolation_level=None); c.execute('BEGIN EXCLUSIVE'); print('locked', flush=True); sys.stdin.read(); c.execute('ROLLBACK'); c.close()",
            path,
        ]
        let output = Spawn.pipe()
        process.standardOutput = output
        process.standardInput = input
        try Spawn.run(process)
        let line = String(decoding: output.fileHandleForReading.availableData, as: UTF8.self)
        guard line.hasPrefix("locked") else {
            stop()
            throw CocoaError(.fileLocking, userInfo: [NSFilePathErrorKey: path])
        }
    }

    /// Tells the process to let go (it sees the end of its input), and waits until it has.
    public func stop() {
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
    }
}
