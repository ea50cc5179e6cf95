import Foundation
import GRDB

/// Access to a store that leaves every byte of it as it was.
///
/// A read-write open of a WAL store checkpoints its `-wal` into the main file and creates a
/// `-shm`; even a read-only open can create the `-shm`. So a store is read in place only where
/// SQLite writes nothing (``withReadOnlyDatabase(at:_:)``), else from a private copy of its
/// files in a temporary folder, removed afterwards.
public enum StoreSnapshot {
    /// Runs `body` with the path of a private copy of the store's files (main, `-wal`,
    /// `-journal`), removed afterwards;
    /// `body` may change the copy as it likes (a dry run does).
    /// The main file is read through SQLite (``StoreFileReader``) and the `-shm` is not read at
    /// all (SQLite rebuilds it from the `-wal` when it opens the copy): those two files carry a
    /// connection's locks, which closing any descriptor of ours would drop.
    /// The copy is readable and writable by us whatever the store's own mode (a store of mode
    /// 444 in a read-only folder can be planned on). Failures to copy or open are
    /// ``StoreError``s of their class.
    public static func withPrivateCopy<T>(of path: String, _ body: (String) throws -> T) throws -> T {
        let manager = FileManager.default
        let folder = manager.temporaryDirectory.appendingPathComponent("modelc-snapshot-\(UUID().uuidString)")
        let copy = folder.appendingPathComponent("store.sqlite").path
        try StoreError.mapping(path: path) {
            try manager.createDirectory(at: folder, withIntermediateDirectories: true)
        }
        defer { try? manager.removeItem(at: folder) }
        try StoreError.mapping(path: path) {
            // With a hot -journal, opening the copy rolls the interrupted write back, as the
            // store's next writer will: reading the main file without it would see half a
            // transaction.
            for suffix in ["-wal", "-journal"] where manager.fileExists(atPath: path + suffix) {
                try manager.copyItem(atPath: path + suffix, toPath: copy + suffix)
                try manager.setAttributes([.posixPermissions: 0o600], ofItemAtPath: copy + suffix)
            }
        }
        try StoreFileReader.copy(path, to: copy)
        return try StoreError.mapping(path: path) { try body(copy) }
    }

    // MARK: - Reading in place

    /// Runs `body` on the store opened read-only where it is, when SQLite can read it so
    /// without creating or changing a file beside it; otherwise on a private copy.
    ///
    /// A rollback-journal store opens read-only (`mode=ro`): SQLite's shared lock keeps a
    /// writer out while it reads, and readers create no file. A WAL store whose `-wal` is
    /// missing or empty is all in its main file, which opens `immutable=1`: no lock, no `-wal`,
    /// no `-shm` (a read-only open would create both). Only a WAL store with log frames not yet
    /// checkpointed, or one with a hot journal, is read from a copy: reading its frames needs
    /// the `-shm` SQLite would write, and the journal must be played back first.
    ///
    /// A store another process holds locked is waited for up to `busyTimeout` seconds, then
    /// fails with class `locked`.
    static func withReadOnlyDatabase<T>(at path: String, busyTimeout: TimeInterval = 5, _ body: (Database) throws -> T) throws -> T {
        guard let uri = inPlaceURI(of: path) else {
            return try withPrivateCopy(of: path) { copy in
                var configuration = Configuration()
                configuration.readonly = false  // WAL copies need a writable -shm; the copy is ours.
                let queue = try DatabaseQueue(path: copy, configuration: configuration)
                defer { try? queue.close() }
                return try queue.read(body)
            }
        }
        var configuration = Configuration()
        configuration.readonly = true
        configuration.busyMode = .timeout(busyTimeout)
        return try StoreError.mapping(path: path) {
            let queue = try DatabaseQueue(path: uri, configuration: configuration)
            defer { try? queue.close() }
            return try queue.read(body)
        }
    }

    /// Whether this SQLite takes `file:` URIs as paths (built with `SQLITE_USE_URI`, as
    /// Debian's and Apple's are); without, a URI would name a file, so stores are copied.
    static let readsURIs: Bool = {
        let probe = try? DatabaseQueue().read { try Bool.fetchOne($0, sql: "SELECT sqlite_compileoption_used('USE_URI')") }
        return (probe ?? nil) == true
    }()

    /// The URI that opens the store at `path` read-only in place, or `nil` when only a copy can
    /// be read without writing beside the store (or this SQLite reads no URIs).
    ///
    /// SQLite opens any `-wal` it finds beside a database, whatever the header says, and maps
    /// its `-shm`; `immutable=1` ignores both, which is right only when the log holds nothing.
    public static func inPlaceURI(of path: String) -> String? {
        let files = StoreFiles(path: path)
        guard readsURIs, !files.hasHotJournal, let isWAL = files.headerSaysWAL else { return nil }
        let log = try? FileManager.default.attributesOfItem(atPath: path + "-wal")[.size] as? Int
        guard (log ?? 0) == 0 else { return nil }
        let parameter = isWAL || log != nil ? "immutable=1" : "mode=ro"
        let absolute = URL(fileURLWithPath: path).standardizedFileURL.path
        guard let escaped = absolute.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) else { return nil }
        return "file:\(escaped)?\(parameter)"
    }
}
