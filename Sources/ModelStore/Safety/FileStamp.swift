import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What any write to a file changes: its device and inode (a file put in its place), its size
/// and its modification time. Read with `stat`, which opens no descriptor, so a connection of
/// this process that has the file open keeps its locks.
struct FileStamp: Equatable {
    private var device: UInt64
    private var inode: UInt64
    private var size: Int64
    private var seconds: Int
    private var nanoseconds: Int

    /// The stamp of the file at `path`; nil when there is none.
    init?(path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
        size = Int64(info.st_size)
        #if canImport(Darwin)
        seconds = info.st_mtimespec.tv_sec
        nanoseconds = info.st_mtimespec.tv_nsec
        #else
        seconds = info.st_mtim.tv_sec
        nanoseconds = info.st_mtim.tv_nsec
        #endif
    }

    /// Seconds since the file was last written. A write stamps the file with the kernel's
    /// coarse clock (a few milliseconds a tick), so a file last written well over a tick ago
    /// shows any later write as a new time.
    var age: TimeInterval {
        Date().timeIntervalSince1970 - (TimeInterval(seconds) + TimeInterval(nanoseconds) / 1e9)
    }
}
