import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Finds out, without taking any lock or changing any file, whether another process holds a
/// SQLite write lock on a store: asks the kernel (`F_GETLK`) whether a read lock on SQLite's
/// lock bytes would conflict.
///
/// In rollback-journal mode a writer holds RESERVED, PENDING or EXCLUSIVE on the bytes at 1 GiB
/// in the main file; in WAL mode it holds the write lock, byte 120 of the `-shm` file.
///
/// The probe never closes a descriptor of a database file: closing any descriptor of a file
/// drops every POSIX lock the process holds on it, so a library that has the store open through
/// SQLite would silently lose its locks (SQLite's documented hazard, which its own VFS avoids
/// the same way). Each file's descriptor is opened once, kept by device and inode, and reused.
enum LockProbe {
    private static let pendingByte: off_t = 0x4000_0000
    private static let walWriteLock: off_t = 120

    /// Whether another process is writing to (or holds exclusively) the store at `path`.
    static func isWriteLocked(_ path: String) -> Bool {
        if conflicts(path, start: pendingByte, length: 512) { return true }
        return conflicts(path + "-shm", start: walWriteLock, length: 1)
    }

    /// Whether a connection of another process has the WAL store at `path` open: every
    /// connection holds a read lock on the "dead man switch" byte of the `-shm` (128) while it
    /// has the file mapped, which a write lock would conflict with.
    static func isWALOpenElsewhere(_ path: String) -> Bool {
        conflicts(path + "-shm", start: deadManSwitch, length: 1, type: F_WRLCK)
    }

    private static let deadManSwitch: off_t = 128

    private static func conflicts(_ path: String, start: off_t, length: off_t, type: Int32 = F_RDLCK) -> Bool {
        guard let descriptor = descriptors.descriptor(for: path) else { return false }
        var lock = flock()
        lock.l_type = Int16(type)
        lock.l_whence = Int16(SEEK_SET)
        lock.l_start = start
        lock.l_len = length
        guard fcntl(descriptor, F_GETLK, &lock) == 0 else { return false }
        return lock.l_type != Int16(F_UNLCK)
    }

    private static let descriptors = Descriptors()

    /// The probe's descriptors, one per file (device and inode), opened once and never closed.
    private final class Descriptors: @unchecked Sendable {
        private let lock = NSLock()
        private var byFile: [String: Int32] = [:]

        /// A read-only descriptor of the regular file at `path`, or `nil` when there is none.
        func descriptor(for path: String) -> Int32? {
            var status = stat()
            guard stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return nil }
            let key = "\(status.st_dev):\(status.st_ino)"
            lock.lock()
            defer { lock.unlock() }
            if let known = byFile[key] { return known }
            let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
            guard descriptor >= 0 else { return nil }
            // The path may have been replaced between stat and open: keep the file opened.
            var opened = stat()
            guard fstat(descriptor, &opened) == 0 else { return descriptor }
            byFile["\(opened.st_dev):\(opened.st_ino)"] = descriptor
            return descriptor
        }
    }
}
