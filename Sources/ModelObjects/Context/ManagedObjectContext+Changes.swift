import Foundation

/// The context's notifications as async sequences of object IDs, for code that awaits changes
/// rather than observing NotificationCenter (Combine's `publisher(for:)` on Apple platforms).
/// Each sequence observes the context's notifications while its consumer iterates, and removes
/// its observer when the consumer's task ends or is cancelled, or the sequence is dropped.
extension ManagedObjectContext {
    /// The context's objects-did-change notifications (the end of each `perform` block with
    /// changes, a save, a merge, a reset), by object ID.
    public var changes: AsyncStream<ObjectsDidChange> {
        notifications(Self.didChangeObjectsNotification) { notification, continuation in
            continuation.yield(ObjectsDidChange(notification.userInfo ?? [:]))
        }
    }

    /// The context's saves, by object ID, as did-save lists them.
    public var saves: AsyncStream<SavedChanges> {
        notifications(Self.didSaveObjectIDsNotification) { notification, continuation in
            continuation.yield(SavedChanges(notification.userInfo ?? [:], coordinator: nil))
        }
    }

    /// The saves of this context as they happen, by object ID (``saves``).
    public func didSaveChanges() -> AsyncStream<SavedChanges> { saves }

    /// What happens to the object `id` in this context: updated, refreshed by a merge,
    /// invalidated by a reset, and deleted, after which the sequence ends. The per-object
    /// observation Core Data offers through key-value observing, by ID since objects stay on their queue.
    public func changes(for id: ManagedObjectID) -> AsyncStream<ObjectChange> {
        notifications(Self.didChangeObjectsNotification) { notification, continuation in
            guard let change = ObjectsDidChange(notification.userInfo ?? [:]).change(of: id) else { return }
            continuation.yield(change)
            if change == .deleted { continuation.finish() }
        }
    }

    /// A stream fed by the context's notifications `name` through `yield`, run on the posting
    /// queue (the context's), whose observer is removed when the stream terminates.
    private func notifications<Element>(
        _ name: Notification.Name, _ yield: @escaping @Sendable (Notification, AsyncStream<Element>.Continuation) -> Void
    ) -> AsyncStream<Element> {
        AsyncStream { continuation in
            let observer = NotificationCenter.default.addObserver(forName: name, object: self, queue: nil) { notification in
                yield(notification, continuation)
            }
            changeSequenceObservers.add(1, ordering: .relaxed)
            let token = ObserverToken(observer)
            continuation.onTermination = { [weak self] _ in
                NotificationCenter.default.removeObserver(token.observer)
                self?.changeSequenceObservers.subtract(1, ordering: .relaxed)
            }
        }
    }
}
