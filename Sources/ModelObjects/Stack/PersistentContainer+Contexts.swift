import Foundation
import ModelSchema
import ModelStack

/// The contexts of a container, as `NSPersistentContainer` gives them: one view context on the
/// main queue, and background contexts on private queues, all on the container's store.
extension PersistentContainer {
    /// The coordinator of the container's current model version and its loaded stores.
    public var persistentStoreCoordinator: PersistentStoreCoordinator { contexts.coordinator }

    /// The main-queue context apps read from (and that the UI observes).
    public var viewContext: ManagedObjectContext { contexts.viewContext }

    /// A new private-queue context on the container's store.
    public func newBackgroundContext() -> ManagedObjectContext {
        ManagedObjectContext(concurrencyType: .privateQueueConcurrencyType, coordinator: persistentStoreCoordinator)
    }

    /// Runs `block` on a new background context's queue.
    public func performBackgroundTask(_ block: @escaping @Sendable (ManagedObjectContext) -> Void) {
        let context = newBackgroundContext()
        context.perform { block(context) }
    }

    /// Runs `block` on a new background context's queue and returns its result.
    public func performBackgroundTask<T: Sendable>(_ block: @escaping @Sendable (ManagedObjectContext) throws -> T) async throws -> T {
        let context = newBackgroundContext()
        return try await context.perform { try block(context) }
    }

    /// The container's coordinator and view context, which it holds from their first use to its end.
    private var contexts: ContainerContexts {
        let contexts = layerState { ContainerContexts(of: self) }
        // A store loaded to post remote changes is watched from the coordinator's first use.
        if loadedStores.contains(where: { $0.report.description.remoteChangeURL != nil }) { _ = try? contexts.coordinator.storeIdentifier() }
        return contexts
    }
}

/// The coordinator and view context of one container, kept by the container itself. The
/// coordinator reads the container's stores through a weak reference: the container holds it,
/// so a strong one would keep both alive forever.
final class ContainerContexts: Sendable {
    let coordinator: PersistentStoreCoordinator
    let viewContext: ManagedObjectContext

    init(of container: PersistentContainer) {
        let version = container.model.currentVersion ?? ModelVersion(name: container.name, path: container.model.path)
        coordinator = PersistentStoreCoordinator(
            model: ManagedObjectModel(version),
            provider: { [weak container] in container?.loadedStores.map { ($0.database, $0.report.description.configuration) } ?? [] },
            remoteChangeURLs: { [weak container] in container?.loadedStores.map(\.report.description.remoteChangeURL) ?? [] })
        viewContext = ManagedObjectContext(concurrencyType: .mainQueueConcurrencyType, coordinator: coordinator)
    }
}

extension PersistentStoreCoordinator {
    /// A coordinator of `model` over the stores `container` has loaded, and those it loads
    /// later (read when the coordinator is first used): what an `NSPersistentContainer` makes
    /// before its stores are loaded. The coordinator keeps the container, as Core Data's keeps
    /// its stores: a context outlives the container that made it.
    public convenience init(model: ManagedObjectModel, storesOf container: PersistentContainer) {
        self.init(
            model: model,
            provider: { container.loadedStores.map { ($0.database, $0.report.description.configuration) } },
            remoteChangeURLs: { container.loadedStores.map(\.report.description.remoteChangeURL) })
    }
}
