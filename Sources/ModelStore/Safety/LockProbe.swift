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
enum LockProbe {
    private static let pendingByte: off_t = 0x4000_0000
    private static let walWriteLock: off_t = 120

    /// Whether another process is writing to (or holds exclusively) the store at `path`.
    static func isWriteLocked(_ path: String) -> Bool {
        if conflicts(path, start: pendingByte, length: 512) { return true }
        return conflicts(path + "-shm", start: walWriteLock, length: 1)
    }

    private static func conflicts(_ path: String, start: off_t, length: off_t) -> Bool {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var lock = flock()
        lock.l_type = Int16(F_RDLCK)
        lock.l_whence = Int16(SEEK_SET)
        lock.l_start = start
        lock.l_len = length
        guard fcntl(descriptor, F_GETLK, &lock) == 0 else { return false }
        return lock.l_type != Int16(F_UNLCK)
    }
}
