import Foundation
import ModelStore

/// Saving into several stores: each object's changes go to its store (a new object's: the one it
/// was assigned to, else the first holding its entity), one write transaction per store, all of
/// them committed once every store's changes are written (``StoreTransactions``); a relationship
/// may not link objects of two stores (133010, `NSManagedObjectExternalRelationshipError`).
extension ManagedObjectContext {
    /// The changes of one store's objects.
    struct StoreChanges {
        var store: PersistentStoreCoordinator.OpenedStore
        var inserted: [ManagedObject]
        var updated: [ManagedObject]
        var deleted: [ManagedObject]
    }

    /// The changes grouped by store, stores in the order they were added; a single store holding
    /// every entity gets them all as they are, without looking at any object; an object whose
    /// entity no store holds fails the save (134020) before anything is written.
    func changesByStore(
        _ stores: PersistentStoreCoordinator.OpenedStores, inserted: [ManagedObject], updated: [ManagedObject], deleted: [ManagedObject]
    ) throws -> [StoreChanges] {
        if stores.isSingle { return [StoreChanges(store: stores.all[0], inserted: inserted, updated: updated, deleted: deleted)] }
        var parts = stores.all.map { StoreChanges(store: $0, inserted: [], updated: [], deleted: []) }
        for object in inserted { parts[try store(of: object, in: stores).index].inserted.append(object) }
        for object in updated { parts[try store(of: object, in: stores).index].updated.append(object) }
        for object in deleted { parts[try store(of: object, in: stores).index].deleted.append(object) }
        return parts.filter { !$0.inserted.isEmpty || !$0.updated.isEmpty || !$0.deleted.isEmpty }
    }

    /// The store `object` is in, or for a new object will be saved to: the one it was assigned to
    /// (134020 when that store's configuration lacks its entity), else the first holding its entity.
    func store(of object: ManagedObject, in stores: PersistentStoreCoordinator.OpenedStores) throws -> PersistentStoreCoordinator.OpenedStore {
        guard object.objectID.isTemporaryID else { return try stores.store(of: object.rowKey) }
        guard let assigned = object.assignedStore else { return try stores.store(forNumber: object.entity.shape.number) }
        guard let store = stores.stores(holding: object.entity.shape.number).first(where: { $0.persistentStore === assigned }) else {
            throw ContextError.make(
                134020, "\(object.entity.name) \(object.objectID) was assigned to \(assigned), whose configuration does not hold its entity",
                [NSAffectedObjectsErrorKey: [object]])
        }
        return store
    }

    /// Refuses, before anything is written, a save in which an object's relationship holds an
    /// object of another context, of none, or one deleted and gone from its context:
    /// - another context's, or a new object of none: Core Data raises "Illegal attempt to
    ///   establish a relationship between objects in different contexts" when it is set, which
    ///   Swift cannot catch, so it is thrown here with the code of the nearest error, 133010
    ///   (the row would otherwise be written with no link, or with the link of an object this
    ///   context does not hold);
    /// - a deleted object that left its context (inserted then deleted, or deleted and saved):
    ///   Core Data's validation error 1550, "Dangling reference to an invalid object", with the
    ///   relationship's name as the key and that object as the value; the row would otherwise
    ///   name a row that is gone, or none.
    ///
    /// Only the other object's context is read for an object of another context: its state
    /// belongs to that context's queue.
    func checkRelationshipsStayInContext(_ inserted: [ManagedObject], _ updated: [ManagedObject]) throws {
        // Each list walked as it is: a joined sequence of the two handed out each object
        // retained, and released, for every object saved.
        for object in inserted { try checkRelatedObjectsStayInContext(object) }
        for object in updated { try checkRelatedObjectsStayInContext(object) }
    }

    private func checkRelatedObjectsStayInContext(_ object: ManagedObject) throws {
        for other in relatedObjects(of: object) where other.managedObjectContext !== self {
            if other.managedObjectContext == nil, other.deleted {
                let name = relationshipName(of: object, holding: other)
                throw ContextError.validation(
                    NSManagedObjectValidationError, "Dangling reference to an invalid object: '\(name)' of \(object.entity.name) \(object.objectID) holds \(other.entity.name) \(other.objectID), which was deleted",
                    object: object, key: name, value: other)
            }
            throw ContextError.make(
                133010, "\(object.entity.name) \(object.objectID) is related to \(other.entity.name) \(other.objectID), which is in another context or in none",
                [NSAffectedObjectsErrorKey: [object, other]])
        }
    }

    /// The objects `object`'s changed to-ones and to-manys hold (nothing read for an entity
    /// without to-ones whose to-manys did not change).
    private func relatedObjects(of object: ManagedObject) -> [ManagedObject] {
        let toOnes = object.entity.shape.toOnes.indices
        let changedToManys = object.changedToManys
        if toOnes.isEmpty && changedToManys.isEmpty { return [] }
        let pending = object.pending
        var related = toOnes.compactMap { pending.toOne($0) ?? nil }
        for name in changedToManys { related += object.toManys[name]?.objects ?? [] }
        return related
    }

    /// The name of the changed relationship of `object` that holds `other`, for an error's key:
    /// looked up only when the error is thrown, so that a save's walk carries no names.
    private func relationshipName(of object: ManagedObject, holding other: ManagedObject) -> String {
        let toOnes = object.entity.shape.toOnes
        let pending = object.pending
        if let slot = toOnes.indices.first(where: { (pending.toOne($0) ?? nil) === other }) { return toOnes[slot].name }
        return object.changedToManys.first { object.toManys[$0]?.objects.contains { $0 === other } == true } ?? ""
    }

    /// Refuses, before anything is written, a save in which an object's relationship holds an
    /// object of another store: Core Data's 133010 ("an object being saved has a relationship
    /// containing an object from another store").
    func checkRelationshipsStayInStore(_ stores: PersistentStoreCoordinator.OpenedStores, _ inserted: [ManagedObject], _ updated: [ManagedObject]) throws {
        if stores.isSingle { return }
        for object in [inserted, updated].joined() {
            let own = try store(of: object, in: stores).index
            for other in relatedObjects(of: object) where !other.deleted {
                guard try store(of: other, in: stores).index != own else { continue }
                throw ContextError.make(
                    133010, "\(object.entity.name) \(object.objectID) is related to \(other.entity.name) \(other.objectID), which is in another store",
                    [NSAffectedObjectsErrorKey: [object, other]])
            }
        }
    }
}
