import Foundation
import GRDB
import ModelStore

/// Reading across a coordinator's stores, as Core Data's coordinator does with several stores
/// added: a fetch reads every store holding the requested entity or, when it includes them, its
/// subentities, and the results are merged (sorted and windowed over the union by the caller).
extension ManagedObjectContext {
    /// The stores a fetch of `entityName` reads, in the order they were added: the only store
    /// when it holds every entity, else each store that an entity of the fetch lives in.
    func stores(holding entityName: String, subentities: Bool) throws -> [PersistentStoreCoordinator.OpenedStore] {
        let coordinator = try coordinator()
        let stores = try coordinator.stores()
        if stores.isSingle { return stores.all }
        let rows = coordinator.managedObjectModel.rows
        var indexes = Set<Int>()
        for entity in rows.layout.entities where subentities ? rows.entities.isKind(entity.name, of: entityName) : entity.name == entityName {
            if entity.number < stores.byNumber.count, stores.byNumber[entity.number] >= 0 { indexes.insert(stores.byNumber[entity.number]) }
        }
        return stores.all.filter { indexes.contains($0.index) }
    }

    /// What `body` reads from each of `stores`, one store after another (the first store as of
    /// the pinned query generation, when there is one).
    func readEach<T>(_ stores: [PersistentStoreCoordinator.OpenedStore], _ body: (Database) throws -> [T]) throws -> [T] {
        if stores.count == 1, stores[0].index == 0 { return try read(body) }
        var result = [T]()
        for store in stores { result += try store.index == 0 ? read(body) : store.database.read(body) }
        return result
    }
}
