import Foundation
import ModelStore

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Android)
import Android
#endif

/// Notices commits to a store file by any connection, in this process or another. On Linux and
/// Android, without polling the database: inotify reports writes to the store's files (its folder
/// is watched, so a `-wal` or `-journal` made or removed later is seen too), then a
/// ``CommitProbe`` confirms with `PRAGMA data_version` that a commit happened (a checkpoint or a
/// half-written transaction writes the files too) and reads the newest transaction's number for
/// the token. Elsewhere (macOS, Windows), where there is no inotify, the probe is polled every
/// ``pollInterval`` instead: a commit is reported within that time, at the cost of one cheap
/// `data_version` read per interval while the watcher lives.
///
/// A burst of writes is looked at a short delay after its first event, so a transaction that
/// writes many pages yields one look, and one report per batch of commits seen; a few rechecks
/// follow, for a commit published after the burst's last write. The inotify
/// descriptor is read by a Dispatch source on a serial queue of its own; releasing the watcher
/// cancels the source, which closes the descriptor and the probe's connection.
final class RemoteChangeWatcher: @unchecked Sendable {
    /// What a look does with each commit it confirms: the newest transaction's number.
    typealias Report = @Sendable (_ newestTransaction: Int64?) -> Void

    /// How often the store is looked at where there is no inotify.
    static let pollInterval = DispatchTimeInterval.milliseconds(250)

    /// The inotify descriptor's read source, or the polling timer.
    private let source: any DispatchSourceProtocol

    /// A watcher of the store at `url`, calling `report` on its private queue after each batch
    /// of commits.
    /// - Throws: a POSIX error when inotify cannot be set up, GRDB's when the store cannot be read.
    init(storeAt url: URL, report: @escaping Report) throws {
        #if os(Linux) || os(Android)
        let descriptor = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        let mask = UInt32(IN_MODIFY | IN_CLOSE_WRITE | IN_CREATE | IN_DELETE | IN_MOVED_TO)
        guard inotify_add_watch(descriptor, url.deletingLastPathComponent().path, mask) >= 0 else {
            let code = POSIXErrorCode(rawValue: errno) ?? .EIO
            close(descriptor)
            throw POSIXError(code)
        }
        let looker: Looker
        do {
            looker = Looker(probe: try CommitProbe(path: url.path), file: url.lastPathComponent, report: report)
        } catch {
            close(descriptor)
            throw error
        }
        let queue = DispatchQueue(label: "modelc.RemoteChangeWatcher")
        source = DispatchSource.makeReadSource(fileDescriptor: descriptor, queue: queue)
        source.setEventHandler { [looker] in
            guard looker.readEvents(descriptor) else { return }
            looker.scheduleLook(on: queue)
        }
        source.setCancelHandler { [looker] in
            looker.stop()
            close(descriptor)
        }
        source.resume()
        #else
        let looker = Looker(probe: try CommitProbe(path: url.path), file: url.lastPathComponent, report: report)
        let timer = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "modelc.RemoteChangeWatcher"))
        timer.schedule(deadline: .now() + Self.pollInterval, repeating: Self.pollInterval)
        timer.setEventHandler { [looker] in looker.look() }
        timer.setCancelHandler { [looker] in looker.stop() }
        source = timer
        timer.resume()
        #endif
    }

    deinit { source.cancel() }
}

/// The watcher's state, used on its queue only.
private final class Looker: @unchecked Sendable {
    /// How long after the first write of a burst the store is looked at: long enough for the
    /// writer to finish a commit it is writing, short enough not to be noticed.
    static let delay = DispatchTimeInterval.milliseconds(10)
    /// When the store is looked at again after a burst's look, in milliseconds after the one
    /// before: a writer may have written its last frame and not yet published the commit (in
    /// the `-shm`, whose writes through memory inotify never reports), and a slow one may take
    /// long on a loaded machine. A few cheap `data_version` reads per burst, three seconds at most.
    static let rechecks = [100, 200, 400, 800, 1_600]

    private var probe: CommitProbe?
    private let names: Set<String>
    private let report: RemoteChangeWatcher.Report
    private var isScheduled = false
    /// The number of the latest burst: a burst's rechecks stop once a newer burst has its own.
    private var burst = 0
    private var buffer = [UInt8](repeating: 0, count: 4096)

    init(probe: CommitProbe, file: String, report: @escaping RemoteChangeWatcher.Report) {
        self.probe = probe
        names = [file, file + "-wal", file + "-journal"]
        self.report = report
    }

    #if os(Linux) || os(Android)
    /// Drains the inotify descriptor; whether any event was about the store's files.
    func readEvents(_ descriptor: Int32) -> Bool {
        var relevant = false
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            guard count > 0 else { return relevant }
            relevant = buffer.withUnsafeBytes { Self.names(in: UnsafeRawBufferPointer(rebasing: $0.prefix(count))).contains(where: names.contains) } || relevant
        }
    }

    /// The file names of the events in `bytes`: each a `struct inotify_event`, four 32-bit
    /// fields (watch, mask, cookie, length) then a name of `length` bytes padded with NULs.
    private static func names(in bytes: UnsafeRawBufferPointer) -> [String] {
        let header = 4 * MemoryLayout<UInt32>.size
        var names = [String]()
        var offset = 0
        while offset + header <= bytes.count {
            let length = Int(bytes.loadUnaligned(fromByteOffset: offset + header - MemoryLayout<UInt32>.size, as: UInt32.self))
            let start = offset + header
            let name = bytes[start..<min(start + length, bytes.count)].prefix { $0 != 0 }
            names.append(String(decoding: name, as: UTF8.self))
            offset = start + length
        }
        return names
    }

    /// Looks at the store after ``delay`` unless a look is already due, then again after each
    /// of ``rechecks`` until a newer burst begins.
    func scheduleLook(on queue: DispatchQueue) {
        guard !isScheduled else { return }
        isScheduled = true
        burst += 1
        let current = burst
        queue.asyncAfter(deadline: .now() + Self.delay) { [self] in
            isScheduled = false
            look()
            recheck(on: queue, burst: current, remaining: Self.rechecks[...])
        }
    }

    private func recheck(on queue: DispatchQueue, burst current: Int, remaining: ArraySlice<Int>) {
        guard let interval = remaining.first else { return }
        queue.asyncAfter(deadline: .now() + .milliseconds(interval)) { [self] in
            guard current == burst else { return }
            look()
            recheck(on: queue, burst: current, remaining: remaining.dropFirst())
        }
    }

    #endif

    /// Reports a commit when one happened since the last look.
    func look() {
        guard let probe, let commit = try? probe.look() else { return }
        report(commit.newestTransaction)
    }

    /// Closes the probe's connection: no look reports after the watcher is gone.
    func stop() { probe = nil }
}
