import Foundation
import GRDB
import ModelStore

/// Reading across a coordinator's stores, as Core Data's coordinator does with several stores
/// added: a fetch reads every store holding the requested entity or, when it includes them, its
/// subentities, and the results are merged (sorted and windowed over the union by the caller).
extension ManagedObjectContext {
    /// The stores a fetch of `entityName` reads, in the order they were added: the only store
    /// when it holds every entity, else each store that an entity of the fetch lives in; of
    /// those, the ones `affected` names when it is given.
    func stores(holding entityName: String, subentities: Bool, affected: [PersistentStore]? = nil) throws -> [PersistentStoreCoordinator.OpenedStore] {
        let coordinator = try coordinator()
        let stores = try coordinator.stores()
        if stores.isSingle { return try coordinator.restricted(stores.all, to: affected) }
        let rows = coordinator.managedObjectModel.rows
        var indexes = Set<Int>()
        for entity in rows.layout.entities where subentities ? rows.entities.isKind(entity.name, of: entityName) : entity.name == entityName {
            if entity.number < stores.byNumber.count, stores.byNumber[entity.number] >= 0 { indexes.insert(stores.byNumber[entity.number]) }
            try Self.refuseUnreadStores(of: entity.name, number: entity.number, in: stores, affected: affected)
        }
        return try coordinator.restricted(stores.all.filter { indexes.contains($0.index) }, to: affected)
    }

    /// 134091 when a request would have to read the rows of entity `number` in a store other
    /// than its first: Core Data reads every store holding the entity, modelc only the first,
    /// and a silently partial answer is worse than none. A request whose `affectedStores` leave
    /// those other stores out runs.
    static func refuseUnreadStores(
        of entity: String, number: Int, in stores: PersistentStoreCoordinator.OpenedStores, affected: [PersistentStore]?
    ) throws {
        let others = stores.alsoHeldBy[number] ?? []
        let unread = others.map { stores.all[$0].persistentStore }.filter { store in affected?.contains { $0 === store } ?? true }
        guard !unread.isEmpty else { return }
        let first = stores.all[stores.byNumber[number]].persistentStore
        throw ContextError.make(
            134091,
            "'\(entity)' is in the configurations of several loaded stores (\(([first] + unread).map(\.configurationName).joined(separator: ", "))), "
                + "and modelc keeps an entity's objects in the first of them only (\(first.url?.lastPathComponent ?? first.identifier)): "
                + "name that store alone in the request's affectedStores, or give each store a configuration of its own")
    }

    /// Whether `object` is in one of `stores` (a new object: will be, when saved), for a fetch
    /// restricted to some stores.
    func isStored(_ object: ManagedObject, in stores: [PersistentStoreCoordinator.OpenedStore]) -> Bool {
        if !object.objectID.isTemporaryID { return stores.contains { $0.identifier == object.objectID.storeIdentifier } }
        guard let home = try? coordinator().store(forNumber: object.entity.shape.number) else { return false }
        return stores.contains { $0.index == home.index }
    }

    /// What `body` reads from each of `stores`, one store after another (as of the pinned query
    /// generation, when there is one).
    func readEach<T>(_ stores: [PersistentStoreCoordinator.OpenedStore], _ body: (Database) throws -> [T]) throws -> [T] {
        var result = [T]()
        for store in stores { result += try read(in: store, body) }
        return result
    }
}
