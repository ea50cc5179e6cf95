import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The files that make up one store: the database, its `-wal`, `-shm` and `-journal`, and the
/// hidden folder of externally stored binary data (`.<Name>_SUPPORT`). Whatever
/// moves or copies a store moves or copies all of them.
struct StoreFiles {
    let path: String

    static let sidecarSuffixes = ["-wal", "-shm", "-journal"]

    /// `.<store name without extension>_SUPPORT` beside the store.
    var supportFolder: String {
        let url = URL(fileURLWithPath: path)
        let stem = url.deletingPathExtension().lastPathComponent
        return url.deletingLastPathComponent().appendingPathComponent(".\(stem)_SUPPORT").path
    }

    /// The sidecar files that exist, in the order they must move: `-wal` and `-shm` before the
    /// database, so a crash half-way never leaves a stale log beside a store it does not belong to.
    var existingSidecars: [String] {
        Self.sidecarSuffixes.map { path + $0 }.filter { FileManager.default.fileExists(atPath: $0) }
    }

    /// Removes the database and its sidecars, ignoring those that are not there: for a staging
    /// copy that did not become a store.
    func removeDatabaseAndSidecars() {
        for file in [path] + Self.sidecarSuffixes.map({ path + $0 }) {
            try? FileManager.default.removeItem(atPath: file)
        }
    }

    /// Whether a hot rollback journal is beside the database: a `-journal` whose header is
    /// still valid, which a writer interrupted mid-transaction leaves and which SQLite plays back
    /// on the next open by a writer. (A committed or idle journal is deleted, truncated or has its
    /// header zeroed.) Call it only when no process holds the store's lock. (SQLite locks no
    /// byte of a `-journal`, so opening and closing it costs no connection its locks.)
    var hasHotJournal: Bool {
        guard let handle = FileHandle(forReadingAtPath: path + "-journal") else { return false }
        defer { try? handle.close() }
        let magic: [UInt8] = [0xD9, 0xD5, 0x05, 0xF9, 0x20, 0xA1, 0x63, 0xD7]
        return (try? handle.read(upToCount: 8)).map { [UInt8]($0) == magic } ?? false
    }

    /// Whether the database file's header says WAL (its read and write versions are 2), read
    /// from the file: an `immutable` open reports `delete` for a WAL store. `nil` when the file
    /// has no SQLite header. Read through SQLite (``StoreFileReader``), so that a connection of
    /// this process that has the store open keeps its locks.
    var headerSaysWAL: Bool? {
        guard let header = try? StoreFileReader.prefix(of: path, count: 20), header.count == 20,
            header.starts(with: Self.headerMagic)
        else { return nil }
        return header[18] == 2
    }

    /// The 16 bytes every SQLite database file starts with.
    static let headerMagic = Array("SQLite format 3\0".utf8)

    var hasSupportFolder: Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: supportFolder, isDirectory: &isDirectory) && isDirectory.boolValue
    }

    /// `"FIFO"`, `"socket"` or `"device"` when the path exists and is one of those, found with
    /// `stat` and never by opening it (which blocks on a FIFO); `nil` for a file, a folder or nothing.
    static func nonRegularKind(atPath path: String) -> String? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        switch status.st_mode & S_IFMT {
        case S_IFIFO: return "FIFO"
        case S_IFSOCK: return "socket"
        case S_IFCHR, S_IFBLK: return "device"
        default: return nil
        }
    }
}
