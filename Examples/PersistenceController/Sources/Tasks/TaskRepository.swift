import Foundation

/// A to-do item as the app sees it, whatever stores it.
public struct TaskItem: Sendable, Equatable, Identifiable {
    /// The row's primary key in the store (`Z_PK`).
    public var id: Int64
    public var title: String
    public var isDone: Bool
    public var createdAt: Date

    public init(id: Int64, title: String, isDone: Bool, createdAt: Date) {
        self.id = id
        self.title = title
        self.isDone = isDone
        self.createdAt = createdAt
    }
}

/// What the app's views and view models need from storage: they depend on this protocol, not
/// on the database, so that a test or a preview can hand them any implementation.
public protocol TaskRepository: Sendable {
    /// Adds an open task created now and returns it.
    @discardableResult
    func add(title: String) async throws -> TaskItem
    /// Every task, oldest first.
    func all() async throws -> [TaskItem]
    /// Marks the task done (or open again).
    func setDone(_ isDone: Bool, for id: TaskItem.ID) async throws
    /// Deletes the task; deleting one that is not there does nothing.
    func delete(_ id: TaskItem.ID) async throws
}
