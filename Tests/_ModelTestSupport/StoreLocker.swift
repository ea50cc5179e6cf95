import Foundation

/// A second process that holds an exclusive SQLite lock on a store until it is stopped: what an
/// app writing to the store looks like from outside. It is Python's `sqlite3`, so the lock is
/// SQLite's own, taken by another process.
public final class StoreLocker {
    private let process = Process()

    /// Starts the process and returns once it holds the lock.
    public init(_ path: String) throws {
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "python3", "-c",
            "import sqlite3, sys, time; c = sqlite3.connect(sys.argv[1], isolation_level=None); c.execute('BEGIN EXCLUSIVE'); print('locked', flush=True); time.sleep(60)",
            path,
        ]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let line = String(decoding: output.fileHandleForReading.availableData, as: UTF8.self)
        guard line.hasPrefix("locked") else {
            process.terminate()
            throw CocoaError(.fileLocking, userInfo: [NSFilePathErrorKey: path])
        }
    }

    /// Ends the process, which releases the lock.
    public func stop() {
        process.terminate()
        process.waitUntilExit()
    }
}
