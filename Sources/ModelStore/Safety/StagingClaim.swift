import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A live run's hold on a file it writes under a staging name (`….modelc-<UUID>`) while it does
/// not hold the store's lock (a backup copy waits for its migration's commit before it is
/// named): an exclusive `flock(2)` on the file, which the system drops when the run ends however
/// it ends, so that another run cleaning up beside the store removes only dead runs' files.
/// Within one process the claimed paths are known without opening them: closing a descriptor of
/// a file drops the process's POSIX locks on it, which SQLite may hold on that file meanwhile.
package final class StagingClaim: @unchecked Sendable {
    package let path: String
    private let lock = NSLock()
    private var descriptor: Int32

    private static let claimedHere = ClaimedPaths()

    /// Creates the file at `path`, which must not exist, and claims it.
    init(creating path: String) throws {
        let descriptor = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            let reason = String(cString: strerror(errno))
            throw StoreError(errno == EEXIST ? .alreadyExists : .permissionDenied, code: 513, path: path, message: "cannot create \(path): \(reason)")
        }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            let reason = String(cString: strerror(errno))
            close(descriptor)
            unlink(path)
            throw StoreError(.alreadyExists, code: 513, path: path, message: "cannot claim \(path): \(reason)")
        }
        self.path = path
        self.descriptor = descriptor
        Self.claimedHere.insert(path)
    }

    deinit { release() }

    /// Lets the file go (it is no longer claimed; the caller removes or keeps it).
    package func release() {
        lock.lock()
        defer { lock.unlock() }
        guard descriptor >= 0 else { return }
        Self.claimedHere.remove(path)
        close(descriptor)
        descriptor = -1
    }

    /// Whether a live run, in this process or another, claims the file at `path`.
    static func isClaimed(_ path: String) -> Bool {
        if claimedHere.contains(path) { return true }
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        if flock(descriptor, LOCK_SH | LOCK_NB) == 0 {
            flock(descriptor, LOCK_UN)
            return false
        }
        return errno == EWOULDBLOCK
    }

    /// The paths this process claims.
    private final class ClaimedPaths: @unchecked Sendable {
        private let lock = NSLock()
        private var paths = Set<String>()

        func insert(_ path: String) { lock.withLock { _ = paths.insert(path) } }
        func remove(_ path: String) { lock.withLock { _ = paths.remove(path) } }
        func contains(_ path: String) -> Bool { lock.withLock { paths.contains(path) } }
    }
}
