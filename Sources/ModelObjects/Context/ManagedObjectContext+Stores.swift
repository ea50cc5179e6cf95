import Foundation
import GRDB
import ModelStore

/// Reading across a coordinator's stores, as Core Data's coordinator does with several stores
/// added: a fetch reads every store holding the requested entity or, when it includes them, its
/// subentities, and the results are merged (sorted and windowed over the union by the caller).
extension ManagedObjectContext {
    /// The stores a fetch of `entityName` reads, in the order they were added: the only store
    /// when it holds every entity, else each store that an entity of the fetch lives in (an
    /// entity in several stores' configurations, in each of them); of those, the ones
    /// `affected` names when it is given.
    func stores(holding entityName: String, subentities: Bool, affected: [PersistentStore]? = nil) throws -> [PersistentStoreCoordinator.OpenedStore] {
        let coordinator = try coordinator()
        let stores = try coordinator.stores()
        if stores.isSingle { return try stores.restricted(stores.all, to: affected) }
        let rows = coordinator.managedObjectModel.rows
        var indexes = Set<Int>()
        for entity in rows.layout.entities where subentities ? rows.entities.isKind(entity.name, of: entityName) : entity.name == entityName {
            for store in stores.stores(holding: entity.number) { indexes.insert(store.index) }
        }
        return try stores.restricted(stores.all.filter { indexes.contains($0.index) }, to: affected)
    }

    /// Whether `object` is in one of `stores` (a new object: will be, when saved), for a fetch
    /// restricted to some stores.
    func isStored(_ object: ManagedObject, in stores: [PersistentStoreCoordinator.OpenedStore], of all: PersistentStoreCoordinator.OpenedStores) -> Bool {
        guard let own = try? store(of: object, in: all) else { return false }
        return stores.contains { $0.index == own.index }
    }

    /// The rows `fetch` selects (every column of its entity's table) in each of `stores`, its
    /// predicate translated for each store's keys.
    func rows(of fetch: StoreFetch, in stores: [PersistentStoreCoordinator.OpenedStore]) throws -> [StoredObject] {
        var fetch = fetch
        return try readEach(stores) { reader in
            fetch.keys = reader.keys
            let statement = try Self.translating {
                try fetch.select(reader.rows.selectList(forTableOf: fetch.entity), layout: reader.rows.layout, entities: reader.rows.entities)
            }
            return try reader.objects(statement)
        }
    }

    /// What `body` reads from each of `stores` with a reader of that store's keys, one store
    /// after another (as of the pinned query generation, when there is one).
    func readEach<T>(_ stores: [PersistentStoreCoordinator.OpenedStore], _ body: (ObjectRowReader) throws -> [T]) throws -> [T] {
        // One store, the usual case: its rows as they are, not appended one by one to another array.
        if stores.count == 1 { return try reading(stores[0], body) }
        var result = [T]()
        for store in stores { result += try reading(store, body) }
        return result
    }

    /// Specifies the store in which a newly inserted object will be saved
    /// (`assign(_:to:)`): one of the stores whose configuration holds its entity. A saved
    /// object stays in its store. A store that does not hold the entity fails the save (134020).
    public func assign(_ object: ManagedObject, to store: PersistentStore) {
        if violatesQueue() { return onQueue { assign(object, to: store) } }
        guard object.managedObjectContext === self, object.objectID.isTemporaryID else { return }
        object.assignedStore = store
    }
}
