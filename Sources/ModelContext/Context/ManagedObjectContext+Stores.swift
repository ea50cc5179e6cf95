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
        }
        return try coordinator.restricted(stores.all.filter { indexes.contains($0.index) }, to: affected)
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
