import Foundation

/// Reads a SQLite file with Python's `sqlite3` and `plistlib`, a second implementation that shares
/// no code with modelc, so that tests of `store info` and `migrate` compare modelc's output with
/// an independent reading of the same file.
public enum SQLiteProbe {
    /// What the probe read from one store.
    public struct Reading: Sendable, Decodable {
        /// Rows of every table (SQLite's own tables left out).
        public var rows: [String: Int]
        /// `NSStoreModelVersionHashes` of `Z_METADATA`, as lower-case hex.
        public var hashes: [String: String]
        /// `NSPersistenceFrameworkVersion` of `Z_METADATA`, when it has one.
        public var frameworkVersion: String?
        /// The keys of the `Z_METADATA` property list, sorted.
        public var metadataKeys: [String]
        /// The names of the indexes, sorted (SQLite's automatic ones left out).
        public var indexes: [String]
        /// `PRAGMA integrity_check`.
        public var integrity: String
    }

    static let script = """
        import json, plistlib, sqlite3, sys
        c = sqlite3.connect(sys.argv[1])
        tables = [r[0] for r in c.execute("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")]
        rows = {t: c.execute('SELECT COUNT(*) FROM "%s"' % t.replace('"', '""')).fetchone()[0] for t in tables}
        hashes, framework, keys = {}, None, []
        if 'Z_METADATA' in tables:
            plist = plistlib.loads(c.execute('SELECT Z_PLIST FROM Z_METADATA').fetchone()[0])
            hashes = {k: v.hex() for k, v in plist.get('NSStoreModelVersionHashes', {}).items()}
            framework = plist.get('NSPersistenceFrameworkVersion')
            framework = None if framework is None else str(framework)
            keys = sorted(plist.keys())
        indexes = sorted(r[0] for r in c.execute("SELECT name FROM sqlite_master WHERE type = 'index' AND name NOT LIKE 'sqlite_%'"))
        integrity = c.execute('PRAGMA integrity_check').fetchone()[0]
        print(json.dumps({'rows': rows, 'hashes': hashes, 'frameworkVersion': framework, 'metadataKeys': keys, 'indexes': indexes, 'integrity': integrity}))
        """

    /// Reads the store at `path` through a copy of it with its `-wal` and `-shm`: a
    /// connection that closes last checkpoints the WAL into the store and deletes it, so reading a
    /// corpus store in place would change the very file the tests judge by.
    public static func read(_ path: String) throws -> Reading {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("probe-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let copy = try copyStore(path, into: folder)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script, copy]
        let output = Spawn.pipe()
        process.standardOutput = output
        try Spawn.run(process)
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw CocoaError(.fileReadCorruptFile, userInfo: [NSFilePathErrorKey: path])
        }
        return try JSONDecoder().decode(Reading.self, from: data)
    }

    /// Runs one SQL script on the store at `path` with Python's `sqlite3`, to damage a copy as a
    /// test needs.
    public static func execute(_ sql: String, on path: String) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", "import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); c.executescript(sys.argv[2]); c.commit()", path, sql]
        try Spawn.run(process)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path])
        }
    }
}
