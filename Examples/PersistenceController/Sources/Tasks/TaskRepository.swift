import Foundation
import ModelObjects

/// A to-do item as the app's views see it: a copy of a ``TaskItem``'s values that crosses
/// queues and actors, which the managed object itself does not.
public struct TaskSnapshot: Sendable, Equatable, Identifiable {
    /// The object's ID, which finds it again in any context of the container.
    public var id: ManagedObjectID
    public var title: String
    public var isDone: Bool
    public var createdAt: Date

    public init(id: ManagedObjectID, title: String, isDone: Bool, createdAt: Date) {
        self.id = id
        self.title = title
        self.isDone = isDone
        self.createdAt = createdAt
    }

    /// The values of `task`, read on its context's queue.
    init(_ task: TaskItem) {
        self.init(id: task.objectID, title: task.title ?? "", isDone: task.isDone, createdAt: task.createdAt ?? .distantPast)
    }
}

/// What the app's views and view models need from storage: they depend on this protocol, not
/// on the object layer, so that a test or a preview can hand them any implementation.
public protocol TaskRepository: Sendable {
    /// Adds an open task created now and returns it.
    @discardableResult
    func add(title: String) async throws -> TaskSnapshot
    /// Every task, oldest first.
    func all() async throws -> [TaskSnapshot]
    /// The tasks not done yet, oldest first.
    func open() async throws -> [TaskSnapshot]
    /// Marks the task done (or open again); a task that is not there is left alone.
    func setDone(_ isDone: Bool, for id: TaskSnapshot.ID) async throws
    /// Deletes the task; deleting one that is not there does nothing.
    func delete(_ id: TaskSnapshot.ID) async throws
}
