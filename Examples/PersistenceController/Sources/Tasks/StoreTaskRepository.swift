import Foundation
import ModelObjects
import ModelStack

/// The ``TaskRepository`` over the controller's loaded store, through the object layer as a
/// Core Data app writes it: `TaskItem` objects (the class the build plugin generates from the
/// model), fetch requests, and writes on background contexts whose saves the view context
/// picks up. The store is Core Data's own layout, so the same file opens in the app's Core
/// Data stack on Apple platforms.
public struct StoreTaskRepository: TaskRepository {
    /// Why a repository cannot be made.
    public enum RepositoryError: Error {
        /// The controller's store is not loaded yet.
        case notLoaded
    }

    private let container: PersistentContainer

    /// A repository on the store `controller` loaded.
    /// - Throws: ``RepositoryError/notLoaded`` before ``PersistenceController/load()``.
    public init(_ controller: PersistenceController) throws {
        guard !controller.container.loadedStores.isEmpty else { throw RepositoryError.notLoaded }
        container = controller.container
    }

    // MARK: - TaskRepository

    @discardableResult
    public func add(title: String) async throws -> TaskSnapshot {
        try await container.performBackgroundTask { context in
            let task = TaskItem(context: context)
            task.title = title
            task.createdAt = Date()
            try context.save()
            return TaskSnapshot(task)
        }
    }

    public func all() async throws -> [TaskSnapshot] {
        try await fetch(nil)
    }

    public func open() async throws -> [TaskSnapshot] {
        try await fetch(FetchPredicate(format: "isDone == NO"))
    }

    public func setDone(_ isDone: Bool, for id: TaskSnapshot.ID) async throws {
        try await container.performBackgroundTask { context in
            guard let task = Self.task(id, in: context) else { return }
            task.isDone = isDone
            try context.save()
        }
    }

    public func delete(_ id: TaskSnapshot.ID) async throws {
        try await container.performBackgroundTask { context in
            guard let task = Self.task(id, in: context) else { return }
            context.delete(task)
            try context.save()
        }
    }

    // MARK: - Reading

    /// The tasks `predicate` matches (all with none), oldest first.
    private func fetch(_ predicate: FetchPredicate?) async throws -> [TaskSnapshot] {
        try await container.performBackgroundTask { context in
            let request = TaskItem.fetchRequest()
            request.predicate = predicate
            request.sortDescriptors = [FetchSortDescriptor(key: "createdAt")]
            return try context.fetch(request).map(TaskSnapshot.init)
        }
    }

    /// The task `id` names, read from the store; nil when it is gone (or is no task).
    private static func task(_ id: ManagedObjectID, in context: ManagedObjectContext) -> TaskItem? {
        try? context.existingObject(with: id) as? TaskItem
    }
}
