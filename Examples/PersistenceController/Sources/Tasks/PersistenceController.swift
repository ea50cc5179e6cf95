import Foundation
import ModelObjects
import ModelStack

/// The app's Core Data stack, as Xcode's template writes it (`PersistenceController` with an
/// in-memory variant for tests and previews), on modelc's `PersistentContainer`, which loads,
/// migrates and recovers Core Data stores on Linux, and its object layer's contexts.
///
/// ```swift
/// let controller = try PersistenceController()
/// try await controller.load()
/// let tasks = try StoreTaskRepository(controller)
/// try await tasks.add(title: "Water the plants")
/// let open = try controller.container.viewContext.fetch(TaskItem.fetchRequest())   // on the main queue
/// ```
public final class PersistenceController: Sendable {
    /// The container holding the app's one store.
    public let container: PersistentContainer

    /// The build put no `Tasks.momd` in the bundle (the plugin did not run).
    public struct ModelMissing: Error {}

    /// The compiled `Tasks.momd` the build plugin put in this module's resource bundle.
    public static var modelURL: URL? { Bundle.module.url(forResource: "Tasks", withExtension: "momd") }

    /// Sets up the stack: the store at the container's default location
    /// (`<application support>/Tasks.sqlite`), or, with `inMemory`, an in-memory store with
    /// Core Data's layout that vanishes with the controller (the template's `/dev/null` URL).
    ///
    /// Nothing is opened until ``load()``.
    /// - Throws: ``ModelMissing`` or `PersistentContainer.ModelReadError` when the compiled model
    ///   is missing from the bundle or unreadable: a build problem, not a user's.
    public init(inMemory: Bool = false) throws {
        guard let url = Self.modelURL else { throw ModelMissing() }
        container = try PersistentContainer(name: "Tasks", model: url)
        var description = inMemory ? StoreDescription.inMemory : container.persistentStoreDescriptions[0]
        // History, so that ``TaskSync`` finds what other processes saved; remote-change
        // notifications, so that it hears when (a file store only: no other process sees memory).
        description.persistentHistoryTracking = true
        description.postsRemoteChangeNotifications = !inMemory
        container.persistentStoreDescriptions = [description]
        // As the template sets them: the view context takes in background saves, and in a
        // conflict keeps its own changes property by property.
        container.viewContext.automaticallyMergesChangesFromParent = true
        container.viewContext.mergePolicy = .mergeByPropertyObjectTrump
    }

    /// Loads the store off the caller's thread: creates it when missing, migrates an older one
    /// (lightweight, as Core Data does), quarantines a corrupted one and starts afresh.
    ///
    /// Where the template calls `fatalError`, this throws: switch on the error's `kind`
    /// (`.incompatibleVersion`, `.missingSourceModel`, `.locked`, `.permissionDenied`, …) to
    /// tell the user or retry; the store is never deleted.
    /// - Throws: `PersistentStoreLoadError`, with Core Data's domain and code.
    public func load() async throws {
        _ = try await container.loadPersistentStores()
    }
}
