import Foundation
import ModelStack

/// Remote-change notifications, as Core Data posts them for a store loaded with
/// `NSPersistentStoreRemoteChangeNotificationPostOptionKey`
/// (ModelStack's `StoreDescription.postsRemoteChangeNotifications`): one after every batch of commits to
/// the store, by any coordinator of this process or any other process, this coordinator's own
/// saves included ("every write to the store"), posted on a private queue with the coordinator
/// as `object`.
///
/// ```swift
/// NotificationCenter.default.addObserver(forName: .NSPersistentStoreRemoteChange, object: container.persistentStoreCoordinator, queue: nil) { note in
///     let token = note.userInfo?[NSPersistentHistoryTokenKey] as? HistoryToken
///     // fetch the history after the last token processed, merge it, keep `token`
/// }
/// ```
extension Notification.Name {
    /// Posted after a commit to a store whose description asks for it (Core Data's
    /// `NSPersistentStoreRemoteChangeNotification`, whose name is that string).
    public static let NSPersistentStoreRemoteChange = Notification.Name("NSPersistentStoreRemoteChangeNotification")
}

/// The store's file URL in a remote-change notification; its string is Core Data's, as a
/// notification logged by an app on iOS prints it ("storeURL").
public let NSPersistentStoreURLKey = "storeURL"
/// The store's `NSStoreUUID` in a remote-change notification, Core Data's metadata key ("NSStoreUUID").
public let NSStoreUUIDKey = "NSStoreUUID"
/// The ``HistoryToken`` of the newest transaction in a remote-change notification, when the store
/// tracks persistent history; its string is Core Data's, as logged by an app ("historyToken").
public let NSPersistentHistoryTokenKey = "historyToken"

extension PersistentStoreCoordinator {
    /// A remote-change notification's content (`NSPersistentStoreCoordinator.RemoteChangeMessage`).
    public struct RemoteChangeMessage: Sendable {
        /// The store that changed.
        public var storeURL: URL
        /// Its `NSStoreUUID`.
        public var storeUUID: String
        /// The newest transaction after the change; nil when the store does not track history.
        public var historyToken: HistoryToken?
    }

    /// The remote changes of this coordinator's store as they are posted; empty unless the store
    /// was loaded with ModelStack's `StoreDescription.postsRemoteChangeNotifications`. Starts watching the
    /// store when it is loaded and not yet used.
    public func remoteChanges() -> AsyncStream<RemoteChangeMessage> {
        AsyncStream { continuation in
            let observer = NotificationCenter.default.addObserver(forName: .NSPersistentStoreRemoteChange, object: self, queue: nil) { notification in
                guard let info = notification.userInfo, let url = info[NSPersistentStoreURLKey] as? URL, let uuid = info[NSStoreUUIDKey] as? String else { return }
                continuation.yield(RemoteChangeMessage(storeURL: url, storeUUID: uuid, historyToken: info[NSPersistentHistoryTokenKey] as? HistoryToken))
            }
            let token = ObserverToken(observer)
            continuation.onTermination = { _ in NotificationCenter.default.removeObserver(token.observer) }
            _ = try? storeIdentifier()
        }
    }

    /// Starts the watcher of the store file at `url`, once; a store whose files cannot be watched
    /// posts nothing, as a store without the option.
    func startPostingRemoteChanges(for url: URL, storeIdentifier: String) {
        remoteChangeWatchers.withLock { watchers in
            guard watchers[url] == nil, let watcher = try? RemoteChangeWatcher(storeAt: url, report: { [weak self] newest in
                guard let self else { return }
                var info: [AnyHashable: Any] = [NSPersistentStoreURLKey: url, NSStoreUUIDKey: storeIdentifier]
                if let newest { info[NSPersistentHistoryTokenKey] = HistoryToken(storeIdentifier: storeIdentifier, transactionNumber: newest) }
                NotificationCenter.default.post(name: .NSPersistentStoreRemoteChange, object: self, userInfo: info)
            }) else { return }
            watchers[url] = watcher
        }
    }
}

extension StoreDescription {
    /// The file the object layer watches for this store: a SQLite store's, when it posts remote changes.
    var remoteChangeURL: URL? { postsRemoteChangeNotifications && type == .sqlite ? url : nil }
}
