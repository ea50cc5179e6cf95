import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Starts the tests' child processes one at a time, with pipes no other child can inherit.
///
/// Foundation's `Process.run()` on Linux learns that a child ended from a socket pair whose one
/// end only the child holds, and closes the parent's other descriptors in the child by listing
/// them just before it spawns. Tests start children from several threads at once: a child spawned
/// between another start's listing and its spawn inherits that start's socket end (or a pipe
/// made meanwhile), so the first child, once ended, is never reaped and its reader never sees the
/// pipe's end until the second child ends too; a test waiting for it hangs. Starting children
/// under one lock, with every pipe closed on exec, leaves each descriptor with the child it is for.
public enum Spawn {
    private static let lock = NSLock()

    /// Starts `process`, with no other child of this process starting at the same time.
    public static func run(_ process: Process) throws {
        try lock.withLock { try process.run() }
    }

    /// A pipe whose two ends are closed on exec: a child gets the end a `Process` gives it as its
    /// standard input or output (a duplicate, which is not closed on exec), and no other end.
    public static func pipe() -> Pipe {
        let pipe = Pipe()
        for descriptor in [pipe.fileHandleForReading.fileDescriptor, pipe.fileHandleForWriting.fileDescriptor] {
            _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
        }
        return pipe
    }
}
