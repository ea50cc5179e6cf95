import Foundation
import GRDB
@testable import ModelObjects
import ModelStack
import Testing
import _ModelTestSupport

/// Remote-change notifications in one process: a store loaded with
/// `postsRemoteChangeNotifications` posts `NSPersistentStoreRemoteChange` for the commits of
/// another container on the same file and for its own, with Core Data's user-info keys and the
/// newest transaction's token, on a private queue; a store without the option posts nothing; the
/// watcher's inotify descriptor goes with its coordinator.
struct RemoteChangeTests {
    typealias Support = ContextTestSupport

    @Test func aSaveByAnotherContainerPostsARemoteChangeWithItsToken() async throws {
        let folder = try StackFolder()
        defer { folder.remove() }
        let watched = try await Self.container(in: folder.url, remote: true)
        let coordinator = watched.persistentStoreCoordinator
        let posted = Self.Recorder(coordinator)
        let other = try await Self.container(in: folder.url, remote: false)
        let number = try Self.saveAuthor("Bob", in: other)
        let note = try await posted.first(timeout: 10) { ($0.userInfo?[NSPersistentHistoryTokenKey] as? HistoryToken)?.transactionNumber == number }
        #expect(note.object as AnyObject === coordinator)
        #expect(note.userInfo?[NSPersistentStoreURLKey] as? URL == folder.url.appendingPathComponent("Library.sqlite"))
        #expect(note.userInfo?[NSStoreUUIDKey] as? String == (try coordinator.storeIdentifier()))
        #expect(!(posted.onMainThread.withLock { $0 }))
    }

    @Test func theCoordinatorsOwnSavesPostToo() async throws {
        let folder = try StackFolder()
        defer { folder.remove() }
        let container = try await Self.container(in: folder.url, remote: true)
        let changes = container.persistentStoreCoordinator.remoteChanges()
        let number = try Self.saveAuthor("Carol", in: container)
        let message = try await Self.withTimeout(10) { () async -> PersistentStoreCoordinator.RemoteChangeMessage? in
            for await message in changes where message.historyToken?.transactionNumber == number { return message }
            return nil
        }
        #expect(message?.storeUUID == (try container.persistentStoreCoordinator.storeIdentifier()))
    }

    @Test func aBurstOfSavesEndsWithTheNewestToken() async throws {
        let folder = try StackFolder()
        defer { folder.remove() }
        let watched = try await Self.container(in: folder.url, remote: true)
        let posted = Self.Recorder(watched.persistentStoreCoordinator)
        let writer = try await Self.container(in: folder.url, remote: false)
        var newest: Int64 = 0
        for number in 0..<20 { newest = try Self.saveAuthor("Author \(number)", in: writer) }
        let last = newest
        _ = try await posted.first(timeout: 10) { ($0.userInfo?[NSPersistentHistoryTokenKey] as? HistoryToken)?.transactionNumber == last }
        let tokens = posted.notes.withLock { $0.compactMap { ($0.userInfo?[NSPersistentHistoryTokenKey] as? HistoryToken)?.transactionNumber } }
        // One notification per batch of commits seen, in commit order, the last for the last save.
        #expect(!tokens.isEmpty && tokens.count <= 20)
        #expect(tokens == tokens.sorted() && tokens.last == last)
    }

    @Test func aStoreWithoutTheOptionPostsNothing() async throws {
        let folder = try StackFolder()
        defer { folder.remove() }
        let quiet = try await Self.container(in: folder.url, remote: false)
        let posted = Self.Recorder(quiet.persistentStoreCoordinator)
        _ = try Self.saveAuthor("Dan", in: quiet)
        _ = try Self.saveAuthor("Eve", in: try await Self.container(in: folder.url, remote: false))
        try await Task.sleep(for: .milliseconds(500))
        #expect(posted.notes.withLock { $0.isEmpty })
    }

    @Test func theWatcherEndsWithItsCoordinator() async throws {
        let folder = try StackFolder()
        defer { folder.remove() }
        var container: PersistentContainer? = try await Self.container(in: folder.url, remote: true)
        _ = container?.persistentStoreCoordinator
        #expect(try Self.inotifyWatches(of: folder.url) == 1)
        // The container holds its coordinator, which goes with it, and the watcher with the coordinator.
        container = nil
        var remaining = try Self.inotifyWatches(of: folder.url)
        for _ in 0..<50 where remaining > 0 {
            try await Task.sleep(for: .milliseconds(50))
            remaining = try Self.inotifyWatches(of: folder.url)
        }
        #expect(remaining == 0)
    }

    // MARK: - Helpers

    /// A container of the Library model on `folder`'s store, tracking history.
    static func container(in folder: URL, remote: Bool) async throws -> PersistentContainer {
        let container = try PersistentContainer(name: "Library", model: URL(fileURLWithPath: Support.library))
        var description = StoreDescription(url: folder.appendingPathComponent("Library.sqlite"))
        description.persistentHistoryTracking = true
        description.postsRemoteChangeNotifications = remote
        container.persistentStoreDescriptions = [description]
        try await container.loadPersistentStores()
        return container
    }

    /// Saves a new author in a background context of `container`; the save's transaction number.
    static func saveAuthor(_ name: String, in container: PersistentContainer) throws -> Int64 {
        let context = container.newBackgroundContext()
        try context.performAndWait {
            ManagedObject(entity: container.persistentStoreCoordinator.managedObjectModel.entitiesByName["Author"]!, insertInto: context)
                .setValue(name, forKey: "name")
            try context.save()
        }
        return try context.performAndWait { try context.execute(HistoryChangeRequest.fetchHistory(after: nil as HistoryToken?)).transactions.last?.transactionNumber ?? 0 }
    }

    /// The inotify watches of this process on `folder`, as `/proc/self/fdinfo` lists them (by the
    /// folder's inode number, so watchers of other tests' folders do not count).
    static func inotifyWatches(of folder: URL) throws -> Int {
        let inode = try FileManager.default.attributesOfItem(atPath: folder.path)[.systemFileNumber] as? UInt64 ?? 0
        let needle = "ino:\(String(inode, radix: 16)) "
        return try FileManager.default.contentsOfDirectory(atPath: "/proc/self/fdinfo").reduce(0) { count, fd in
            let info = (try? String(contentsOfFile: "/proc/self/fdinfo/\(fd)", encoding: .utf8)) ?? ""
            return count + info.split(separator: "\n").filter { $0.hasPrefix("inotify ") && $0.contains(needle) }.count
        }
    }

    /// `body`'s result, or a failure after `seconds`.
    static func withTimeout<T: Sendable>(_ seconds: Double, _ body: @escaping @Sendable () async throws -> T) async throws -> T {
        try await withThrowingTaskGroup(of: T?.self) { group in
            group.addTask { try await body() }
            group.addTask {
                try await Task.sleep(for: .seconds(seconds))
                return nil
            }
            defer { group.cancelAll() }
            guard let first = try await group.next(), let result = first else { throw WorkerProcess.Timeout(waitingFor: "\(seconds) s") }
            return result
        }
    }

    /// The remote-change notifications a coordinator posts, as they come.
    final class Recorder: @unchecked Sendable {
        let notes = Mutex<[Notification]>([])
        let onMainThread = Mutex(false)
        private var observer: NSObjectProtocol?

        init(_ coordinator: PersistentStoreCoordinator) {
            observer = NotificationCenter.default.addObserver(forName: .NSPersistentStoreRemoteChange, object: coordinator, queue: nil) { [notes, onMainThread] note in
                if Thread.isMainThread { onMainThread.withLock { $0 = true } }
                notes.withLock { $0.append(note) }
            }
        }

        deinit { observer.map(NotificationCenter.default.removeObserver) }

        /// The first notification `matching` posted, waiting up to `timeout` seconds. The notes
        /// are looked at once more after the deadline: a test task may wait long to be scheduled
        /// again on a loaded machine while the watcher's queue goes on posting.
        func first(timeout: Double, matching: (Notification) -> Bool) async throws -> Notification {
            let deadline = Date().addingTimeInterval(timeout)
            while true {
                if let found = notes.withLock({ $0.first(where: matching) }) { return found }
                guard Date() < deadline else { break }
                try await Task.sleep(for: .milliseconds(20))
            }
            let tokens = notes.withLock { $0.map { ($0.userInfo?[NSPersistentHistoryTokenKey] as? HistoryToken).map { "\($0.transactionNumber)" } ?? "none" } }
            throw WorkerProcess.Timeout(waitingFor: "a remote change (got \(tokens.count), with tokens \(tokens))")
        }
    }
}
