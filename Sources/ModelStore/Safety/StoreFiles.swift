import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The files that make up one store: the database, its `-wal`, `-shm` and `-journal`, and the
/// hidden folder of externally stored binary data (`.<Name>_SUPPORT`, FORMATS §6.8). Whatever
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
