#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads a whole regular file straight into a byte array: one copy from the kernel, where
/// reading into `Data` and converting it copies a large model twice.
enum FileBytes {
    /// What the path is when it exists and is not a regular file (`"FIFO"`, `"folder"`, …), found
    /// without opening it: opening a FIFO for reading blocks until a writer comes.
    static func nonRegularKind(atPath path: String) -> String? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        switch status.st_mode & S_IFMT {
        case S_IFREG: return nil
        case S_IFIFO: return "FIFO"
        case S_IFDIR: return "folder"
        case S_IFCHR, S_IFBLK: return "device"
        case S_IFSOCK: return "socket"
        default: return "special file"
        }
    }

    /// The file's bytes, or `nil` when it cannot be opened or read as a regular file.
    static func read(atPath path: String) -> [UInt8]? {
        // O_NONBLOCK: should the path become a FIFO after a check, opening it still returns.
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else { return nil }
        var bytes: [UInt8] = []
        // The size is a hint: read in chunks of at least that size until the end of the file.
        let chunk = max(Int(status.st_size) + 1, 4096)
        while true {
            var failed = false
            var atEnd = false
            let chunkBytes = [UInt8](unsafeUninitializedCapacity: chunk) { buffer, initialized in
                initialized = 0
                while initialized < chunk {
                    let result = systemRead(descriptor, buffer.baseAddress! + initialized, chunk - initialized)
                    if result > 0 {
                        initialized += result
                    } else if result == 0 {
                        atEnd = true
                        return
                    } else if errno != EINTR {
                        failed = true
                        return
                    }
                }
            }
            if failed { return nil }
            if bytes.isEmpty { bytes = chunkBytes } else { bytes += chunkBytes }
            if atEnd { return bytes }
        }
    }

    private static func systemRead(_ descriptor: Int32, _ buffer: UnsafeMutablePointer<UInt8>, _ count: Int) -> Int {
        #if canImport(Glibc)
        Glibc.read(descriptor, buffer, count)
        #else
        Darwin.read(descriptor, buffer, count)
        #endif
    }
}
