import Foundation
import GRDB

/// Access to a store that leaves every byte of it as it was.
///
/// A read-write open of a WAL store checkpoints its `-wal` into the main file and creates a
/// `-shm`; even a read-only open can create the `-shm`. So a store is read in place where SQLite
/// writes nothing to it and leaves nothing beside it, as a live store that another process may
/// be writing meanwhile (``withReadingQueue(at:configuration:busyTimeout:_:)``), else from a
/// private copy of its files in a temporary folder, removed afterwards.
public enum StoreSnapshot {
    /// Runs `body` with the path of a private copy of the store, removed afterwards; `body` may
    /// change the copy as it likes (a dry run does).
    ///
    /// Another process may be writing the store meanwhile, so the copy is taken through a
    /// connection that reads the store in place, as
    /// ``withReadingQueue(at:configuration:busyTimeout:_:)`` opens it: SQLite's backup, in one
    /// read transaction, copies the store as one commit left it. Bytes copied without a lock
    /// would mix commits (a checkpoint or a commit landing between the `-wal` and the main file).
    /// Where SQLite will not read the store in place without writing to it (a hot journal, a log
    /// no open connection accounts for, a damaged file), its files are copied as they are (main,
    /// `-wal`, `-journal`), which is what the store's next writer would find: opening the copy
    /// rolls a hot journal back or replays the log. There the main file is read through SQLite
    /// (`StoreFileReader`) and the `-shm` is not read at all (SQLite rebuilds it from the `-wal`
    /// when it opens the copy): those two files carry a connection's locks, which closing any
    /// descriptor of ours would drop.
    ///
    /// The copy is readable and writable by us whatever the store's own mode (a store of mode
    /// 444 in a read-only folder can be planned on). A store another process holds locked (a
    /// writer, where only its files can be copied) is waited for up to `busyTimeout` seconds,
    /// then fails with class `locked`. Failures to copy or open are ``StoreError``s of their class.
    public static func withPrivateCopy<T>(of path: String, busyTimeout: TimeInterval = 5, _ body: (String) throws -> T) throws -> T {
        let manager = FileManager.default
        let folder = manager.temporaryDirectory.appendingPathComponent("modelc-snapshot-\(UUID().uuidString)")
        let copy = folder.appendingPathComponent("store.sqlite").path
        try StoreError.mapping(path: path) {
            try manager.createDirectory(at: folder, withIntermediateDirectories: true)
        }
        defer { try? manager.removeItem(at: folder) }
        if try !backUp(path, to: copy, busyTimeout: busyTimeout) {
            // Files copied as they are hold one commit only while no one writes.
            try StoreCheck.waitUntilNotLocked(path, timeout: busyTimeout)
            try copyFiles(path, to: copy)
        }
        return try StoreError.mapping(path: path) { try body(copy) }
    }

    /// Copies the store at `path` to a new database at `copy` with SQLite's backup, through a
    /// connection that reads it in place; false when it cannot be read so (or reading it fails
    /// other than by a lock held too long), and nothing is left at `copy`.
    private static func backUp(_ path: String, to copy: String, busyTimeout: TimeInterval) throws -> Bool {
        do {
            let copied: Void? = try withInPlaceQueue(at: path, configuration: Configuration(), busyTimeout: busyTimeout) { source in
                // The backup copies whole pages: a file cut short would come out whole.
                try source.read { try StoreIntegrity.checkWholePages($0, path: path) }
                let destination = try DatabaseQueue(path: copy)
                defer { try? destination.close() }
                try source.backup(to: destination)
            }
            return copied != nil
        } catch let error as StoreError where error.errorClass == .locked {
            throw error
        } catch let error as DatabaseError where error.resultCode == .SQLITE_BUSY || error.resultCode == .SQLITE_LOCKED {
            throw StoreError(sqlite: error, path: path)
        } catch {
            for suffix in ["", "-wal", "-shm", "-journal"] { try? FileManager.default.removeItem(atPath: copy + suffix) }
            return false
        }
    }

    /// Copies the store's files as they are: main, `-wal` and `-journal`.
    private static func copyFiles(_ path: String, to copy: String) throws {
        let manager = FileManager.default
        try StoreError.mapping(path: path) {
            // With a hot -journal, opening the copy rolls the interrupted write back, as the
            // store's next writer will: reading the main file without it would see half a
            // transaction. A sidecar gone before it is opened was removed by the connection
            // that closed the store last, once everything was in the main file.
            for suffix in ["-wal", "-journal"] {
                if let kind = StoreFiles.nonRegularKind(atPath: path + suffix) {
                    throw StoreError(.notRegularFile, path: path + suffix, message: "\(path + suffix) is a \(kind), not a regular file")
                }
                guard let source = FileHandle(forReadingAtPath: path + suffix) else {
                    if manager.fileExists(atPath: path + suffix) { throw StoreError.permissionDenied(path: path + suffix, writing: false) }
                    continue
                }
                defer { try? source.close() }
                try copyToEnd(source, to: copy + suffix)
            }
        }
        try StoreFileReader.copy(path, to: copy)
    }

    /// Copies what `source` holds to a new file at `destination` (mode 0600), a chunk at a time
    /// until the end it finds: a `-wal` a writer truncates meanwhile ends early, where a copy
    /// of the size it had at first would wait for bytes that never come.
    private static func copyToEnd(_ source: FileHandle, to destination: String) throws {
        guard FileManager.default.createFile(atPath: destination, contents: nil, attributes: [.posixPermissions: 0o600]),
            let output = FileHandle(forWritingAtPath: destination)
        else {
            throw StoreError.permissionDenied(path: destination, writing: true)
        }
        defer { try? output.close() }
        while let chunk = try source.read(upToCount: 1 << 20), !chunk.isEmpty {
            try output.write(contentsOf: chunk)
        }
    }

    // MARK: - Reading in place

    /// Runs `body` on the store read where it is, as a live store, when SQLite can read it so
    /// without leaving a file beside it or changing a byte of it; otherwise on a private copy.
    /// Failures to open are ``StoreError``s of their class, and so are `body`'s SQLite errors.
    ///
    /// A store another process holds locked is waited for up to `busyTimeout` seconds, then
    /// fails with class `locked`.
    static func withReadOnlyDatabase<T>(at path: String, busyTimeout: TimeInterval = 5, _ body: (Database) throws -> T) throws -> T {
        try withReadingQueue(at: path, busyTimeout: busyTimeout) { queue in try StoreError.mapping(path: path) { try queue.read(body) } }
    }

    /// Runs `body` with a connection, opened with `configuration`, that reads the store at
    /// `path` and writes nothing to it.
    ///
    /// Another process may be writing the store meanwhile, or start to the moment after it is
    /// looked at, so the connection takes part in SQLite's locking as any reader does: a
    /// rollback-journal store opens read-only (`mode=ro`), whose shared lock keeps a writer out
    /// while it reads; a WAL store with both its `-wal` and `-shm` opens read-only too and reads
    /// the log through them, when the log is empty or another process has the store open
    /// (`LockProbe.isWALOpenElsewhere(_:)`); one no one has open and whose main file has not
    /// been written for a second is read without locks (`immutable=1`, which leaves its `-shm`
    /// as it is, where a locking reader rebuilds it), and read again with locks when its main
    /// file changed meanwhile (`FileStamp`), so `body` may run twice. A WAL store without a
    /// `-shm` opens read-write with `PRAGMA query_only`, so that SQLite, which creates both files
    /// for any reader, also removes them when the last connection closes, as a writer's close
    /// does. A store no process of this user can write (its file, or its folder when it has no
    /// `-shm`) opens `immutable=1` with nothing to check. A log with frames no open connection
    /// accounts for, a `-shm` without its `-wal`, a hot journal, and a store SQLite will not
    /// read in place read-only are read from a private copy
    /// (``withPrivateCopy(of:busyTimeout:_:)``).
    ///
    /// A store another process holds locked is waited for up to `busyTimeout` seconds.
    /// - Throws: ``StoreError`` of its class when the store cannot be opened; `body`'s errors as
    ///   they are.
    public static func withReadingQueue<T>(
        at path: String, configuration: Configuration = Configuration(), busyTimeout: TimeInterval = 5, _ body: (DatabaseQueue) throws -> T
    ) throws -> T {
        if let result = try withInPlaceQueue(at: path, configuration: configuration, busyTimeout: busyTimeout, body) {
            return result
        }
        return try withPrivateCopy(of: path, busyTimeout: busyTimeout) { copy in
            var copied = configuration
            copied.readonly = false  // WAL copies need a writable -shm; the copy is ours.
            let queue = try DatabaseQueue(path: copy, configuration: copied)
            defer { try? queue.close() }
            return try body(queue)
        }
    }

    /// Runs `body` with a connection that reads the store at `path` in place (as
    /// ``withReadingQueue(at:configuration:busyTimeout:_:)`` says); nil, without running it,
    /// when only a private copy can be read.
    private static func withInPlaceQueue<T>(
        at path: String, configuration: Configuration, busyTimeout: TimeInterval, _ body: (DatabaseQueue) throws -> T
    ) throws -> T? {
        let deadline = Date().addingTimeInterval(busyTimeout)
        var lockless = true
        while true {
            if let reading = inPlaceReading(of: path, lockless: lockless) {
                var inPlace = configuration
                inPlace.readonly = !reading.queryOnly
                inPlace.busyMode = .timeout(busyTimeout)
                if reading.queryOnly { inPlace.prepareDatabase { try $0.execute(sql: "PRAGMA query_only = 1") } }
                if let queue = try openInPlace(reading.uri, configuration: inPlace, path: path) {
                    let result = Result { try body(queue) }
                    try? queue.close()
                    // A lockless read stands only if no one wrote the main file meanwhile; else
                    // what it read (or the damage it met) may mix commits: read again with locks.
                    guard let stamp = reading.unchangedSince, FileStamp(path: path) != stamp else { return try result.get() }
                    lockless = false
                    continue
                }
            }
            // A writer of another process opening or closing the store leaves it unreadable in
            // place for a moment (a -wal with frames, its -shm not there yet); a store no one
            // holds stays so, and is copied at once.
            guard Date() < deadline, LockProbe.isWriteLocked(path) || LockProbe.isWALOpenElsewhere(path) else { return nil }
            Thread.sleep(forTimeInterval: 0.01)
        }
    }

    /// The connection `uri` opens, once it has read the schema; nil when SQLite can read the
    /// store in place only by writing (a hot journal to roll back, a `-shm` it cannot make).
    private static func openInPlace(_ uri: String, configuration: Configuration, path: String) throws -> DatabaseQueue? {
        try StoreError.mapping(path: path) {
            var opened: DatabaseQueue?
            do {
                let queue = try DatabaseQueue(path: uri, configuration: configuration)
                opened = queue
                try queue.read { _ = try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM sqlite_master") }
                return queue
            } catch let error as DatabaseError where error.resultCode == .SQLITE_READONLY || error.resultCode == .SQLITE_CANTOPEN {
                try? opened?.close()
                return nil
            }
        }
    }

    /// How a store is read in place.
    private struct InPlaceReading {
        /// The URI that opens it.
        var uri: String
        /// Whether it opens read-write with `PRAGMA query_only`
        /// (``withReadingQueue(at:configuration:busyTimeout:_:)`` says when).
        var queryOnly = false
        /// For a lockless read of a store a process of this user could write: its main file as
        /// it was before the read, which must be the same after it.
        var unchangedSince: FileStamp?
    }

    /// How the store at `path` is read in place (without locks only where `lockless` allows);
    /// nil when only a private copy can be read (or this SQLite reads no URIs).
    private static func inPlaceReading(of path: String, lockless: Bool) -> InPlaceReading? {
        let files = StoreFiles(path: path)
        let manager = FileManager.default
        guard readsURIs, let headerSaysWAL = files.headerSaysWAL else { return nil }
        let log = try? manager.attributesOfItem(atPath: path + "-wal")[.size] as? Int
        // SQLite opens any -wal it finds beside a database, whatever the header says.
        guard headerSaysWAL || log != nil else { return uri(of: path, "mode=ro").map { InPlaceReading(uri: $0) } }
        let hasIndex = manager.fileExists(atPath: path + "-shm")
        if files.hasHotJournal { return nil }
        if log != nil && hasIndex && LockProbe.isWALOpenElsewhere(path) { return uri(of: path, "mode=ro").map { InPlaceReading(uri: $0) } }
        // Left by a connection that has closed (or one of this process): its log is read from a
        // copy, as a reader in place would rebuild the -shm.
        guard (log ?? 0) == 0 else { return nil }
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
        guard manager.isWritableFile(atPath: path) else {
            // No process of this user can write the store, so reading without locks is safe.
            return uri(of: path, "immutable=1").map { InPlaceReading(uri: $0) }
        }
        if hasIndex {
            guard log != nil else { return nil }
            // The first reader with locks of a store no one has open rebuilds its -shm. A main
            // file no one has written for a while is read without locks instead, leaving the
            // -shm as it is; a writer that opens the store meanwhile changes the main file only
            // when it checkpoints, which its new modification time shows after the read.
            if lockless, let stamp = FileStamp(path: path), stamp.age > 1, !LockProbe.isWALOpenElsewhere(path) {
                return uri(of: path, "immutable=1").map { InPlaceReading(uri: $0, unchangedSince: stamp) }
            }
            // Else read-only through both files, which it creates neither of.
            return uri(of: path, "mode=ro").map { InPlaceReading(uri: $0) }
        }
        guard manager.isWritableFile(atPath: folder) else {
            // Without a -shm, which no process of this user can create here, no one writes in WAL mode.
            return uri(of: path, "immutable=1").map { InPlaceReading(uri: $0) }
        }
        // Read-write where SQLite creates both files, so that the last connection's close
        // removes them again.
        return uri(of: path, "mode=rw").map { InPlaceReading(uri: $0, queryOnly: true) }
    }

    /// `file:` and the absolute path of `path`, with `parameter`.
    private static func uri(of path: String, _ parameter: String) -> String? {
        let absolute = URL(fileURLWithPath: path).standardizedFileURL.path
        return absolute.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed).map { "file:\($0)?\(parameter)" }
    }

    /// Whether this SQLite takes `file:` URIs as paths (built with `SQLITE_USE_URI`, as
    /// Debian's and Apple's are); without, a URI would name a file, so stores are copied.
    static let readsURIs: Bool = {
        let probe = try? DatabaseQueue().read { try Bool.fetchOne($0, sql: "SELECT sqlite_compileoption_used('USE_URI')") }
        return (probe ?? nil) == true
    }()
}
