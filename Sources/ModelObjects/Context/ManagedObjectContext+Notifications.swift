import Foundation

/// Core Data's notification names and user-info keys, with their values, so that code observing
/// `NSManagedObjectContext`'s notifications ports by renaming.
extension ManagedObjectContext {
    /// Posted at the start of a save, by the context (no user info).
    public static let willSaveObjectsNotification = Notification.Name("NSManagedObjectContextWillSaveNotification")
    /// Posted after a save, by the context: the objects it inserted, updated and deleted.
    public static let didSaveObjectsNotification = Notification.Name("NSManagedObjectContextDidSaveNotification")
    /// Posted after a save, by the context: the IDs of the objects it inserted, updated and deleted.
    public static let didSaveObjectIDsNotification = Notification.Name("NSManagedObjectContextDidSaveObjectIDsNotification")
    /// Posted when the context processes its pending changes (at the end of each `perform` block
    /// and before a save), and after it merges another save: the objects changed since.
    public static let didChangeObjectsNotification = Notification.Name("NSManagedObjectContextObjectsDidChangeNotification")
    /// Posted after the context merged changes, by the context: the IDs merged.
    public static let didMergeChangesObjectIDsNotification = Notification.Name("NSManagedObjectContextDidMergeChangesObjectIDsNotification")
}

/// The user-info key of the objects inserted, in a context's change and save notifications.
public let NSInsertedObjectsKey = "inserted"
/// The user-info key of the objects updated, in a context's change and save notifications.
public let NSUpdatedObjectsKey = "updated"
/// The user-info key of the objects deleted, in a context's change and save notifications.
public let NSDeletedObjectsKey = "deleted"
/// The user-info key of the objects refreshed, in a context's change and save notifications.
public let NSRefreshedObjectsKey = "refreshed"
/// The user-info key of the objects the context let go, in a context's change and save notifications.
public let NSInvalidatedObjectsKey = "invalidated"
/// The user-info key of the mark that a reset let every object go, in a context's change and save notifications.
public let NSInvalidatedAllObjectsKey = "invalidatedAll"
/// The user-info key of the IDs of the objects inserted, in the notifications that carry IDs.
public let NSInsertedObjectIDsKey = "inserted_objectIDs"
/// The user-info key of the IDs of the objects updated, in the notifications that carry IDs.
public let NSUpdatedObjectIDsKey = "updated_objectIDs"
/// The user-info key of the IDs of the objects deleted, in the notifications that carry IDs.
public let NSDeletedObjectIDsKey = "deleted_objectIDs"
/// The user-info key of the IDs of the objects refreshed, in the notifications that carry IDs.
public let NSRefreshedObjectIDsKey = "refreshed_objectIDs"
/// The key of the ``HistoryToken`` of the transaction a save recorded, in did-save's user info when
/// the store tracks history: Core Data's undocumented "newChangeToken", which apps read by that
/// string (CoreDataPlus's `historyToken` of a did-save, tested on Apple platforms; FB6840421).
let newChangeTokenKey = "newChangeToken"

/// What a save changed, by object ID: what crosses queues of the notifications' contents, and
/// what ``ManagedObjectContext/didSaveChanges()`` yields.
public struct SavedChanges: Sendable, Hashable {
    /// The IDs of the objects the save inserted.
    public var inserted: Set<ManagedObjectID>
    /// The IDs of the objects the save updated.
    public var updated: Set<ManagedObjectID>
    /// The IDs of the objects the save deleted.
    public var deleted: Set<ManagedObjectID>

    /// A save's changes from the IDs of its inserted, updated and deleted objects.
    public init(inserted: Set<ManagedObjectID> = [], updated: Set<ManagedObjectID> = [], deleted: Set<ManagedObjectID> = []) {
        self.inserted = inserted
        self.updated = updated
        self.deleted = deleted
    }

    /// The changes a did-save (or did-change) notification's user info lists, as objects or as IDs
    /// (or, as `mergeChanges(fromRemoteContextSave:into:)` takes them, as ID URIs).
    init(_ userInfo: [AnyHashable: Any], coordinator: PersistentStoreCoordinator?) {
        // IDs another coordinator made are given this one's keys of their stores.
        let stores = try? coordinator?.stores()
        func ids(_ keys: String...) -> Set<ManagedObjectID> {
            var result = Set<ManagedObjectID>()
            for key in keys {
                let values: [Any] = switch userInfo[key] {
                case let set as Set<ManagedObject>: Array(set)
                case let set as Set<ManagedObjectID>: Array(set)
                case let array as [Any]: array
                case let set as NSSet: set.allObjects
                default: []
                }
                for value in values {
                    switch value {
                    case let object as ManagedObject: result.insert(stores?.normalized(object.objectID) ?? object.objectID)
                    case let id as ManagedObjectID: result.insert(stores?.normalized(id) ?? id)
                    case let uri as URL: coordinator?.managedObjectID(forURIRepresentation: uri).map { _ = result.insert($0) }
                    default: continue
                    }
                }
            }
            return result
        }
        self.init(
            inserted: ids(NSInsertedObjectsKey, NSInsertedObjectIDsKey), updated: ids(NSUpdatedObjectsKey, NSUpdatedObjectIDsKey),
            deleted: ids(NSDeletedObjectsKey, NSDeletedObjectIDsKey))
    }

    var isEmpty: Bool { inserted.isEmpty && updated.isEmpty && deleted.isEmpty }
}

/// Merging: another context's save is folded into this one's objects, as
/// `mergeChanges(fromContextDidSave:)` does ("refreshes any objects which have been updated in the
/// other context, faults in any newly-inserted objects, and invokes delete(_:) on those which have
/// been deleted"): updated objects registered here are refreshed from the store (their unsaved
/// changes kept on top), inserted ones are registered as faults, deleted ones are deleted here
/// (a later save writes nothing for them). With ``automaticallyMergesChangesFromParent``, saves of
/// the other contexts on the same coordinator are merged on this context's queue as they happen.
extension ManagedObjectContext {
    /// Merges the changes a did-save notification of another context lists.
    public func mergeChanges(fromContextDidSave notification: Notification) {
        if violatesQueue() { return onQueue { mergeChanges(fromContextDidSave: notification) } }
        merge(SavedChanges(notification.userInfo ?? [:], coordinator: persistentStoreCoordinator))
    }

    /// Merges changes saved elsewhere (another process, a batch request) into `contexts`: the
    /// dictionary holds, under the did-save keys, object IDs or their URIs.
    public static func mergeChanges(fromRemoteContextSave changeNotificationData: [AnyHashable: Any], into contexts: [ManagedObjectContext]) {
        for context in contexts {
            let changes = SavedChanges(changeNotificationData, coordinator: context.persistentStoreCoordinator)
            context.performAndWait { context.merge(changes) }
        }
    }

    /// Merges `changes`, then posts objects-did-change (the objects faulted in as inserted, the
    /// ones refreshed, the ones deleted) and did-merge-changes-object-IDs (the IDs merged, and
    /// those refreshed), as Core Data's merge does.
    func merge(_ changes: SavedChanges) {
        guard !changes.isEmpty else { return }
        // Local changes not announced yet are announced first, apart from the merge's.
        postObjectsDidChange()
        var refreshed = Set<ManagedObject>()
        for id in changes.updated {
            guard let object = registeredObject(under: id) else { continue }
            refresh(object, mergeChanges: true, usingCache: false)
            refreshed.insert(object)
        }
        var inserted = Set<ManagedObject>()
        if let model = persistentStoreCoordinator?.managedObjectModel {
            for id in changes.inserted {
                guard let entity = model.entitiesByName[id.entityName], !id.isTemporaryID || parent != nil else { continue }
                inserted.insert(registeredObject(under: id) ?? makeObject(entity, id: id))
            }
        }
        var deleted = Set<ManagedObject>()
        for id in changes.deleted {
            guard let object = registeredObject(under: id), !object.inserted else { continue }
            object.deleted = true
            object.deletedElsewhere = true
            updatedList.remove(object)
            deletedList.add(object)
            deleted.insert(object)
        }
        noticed = (insertedList.objects.count, updatedList.objects.count, deletedList.objects.count)
        // To-manys read before may now miss new members or hold deleted ones: read them again when next used.
        if !changes.inserted.isEmpty || !changes.deleted.isEmpty {
            for object in registered.objects where !object.toManys.isEmpty {
                for name in Array(object.toManys.keys) where !object.changedToManys.contains(name) {
                    object.toManys[name] = nil
                    object.committedToManys[name] = nil
                }
            }
        }
        NotificationCenter.default.post(name: Self.didChangeObjectsNotification, object: self, userInfo: [
            NSInsertedObjectsKey: inserted, NSUpdatedObjectsKey: Set<ManagedObject>(), NSDeletedObjectsKey: deleted, NSRefreshedObjectsKey: refreshed,
        ])
        NotificationCenter.default.post(name: Self.didMergeChangesObjectIDsNotification, object: self, userInfo: [
            NSInsertedObjectIDsKey: changes.inserted, NSUpdatedObjectIDsKey: changes.updated, NSDeletedObjectIDsKey: changes.deleted,
            NSRefreshedObjectIDsKey: Set(refreshed.map(\.objectID)),
        ])
    }

    /// Starts or stops merging the saves of the other root contexts on this context's
    /// coordinator (of its parent, for a child).
    func observeSaves(_ merging: Bool) {
        if let observer = saveObserver {
            NotificationCenter.default.removeObserver(observer.observer)
            saveObserver = nil
        }
        guard merging else { return }
        let observer = NotificationCenter.default.addObserver(forName: Self.didSaveObjectIDsNotification, object: nil, queue: nil) { [weak self] notification in
            guard let self, let saver = notification.object as? ManagedObjectContext, saver !== self else { return }
            // A child's save reached its parent only; a root's reached the store.
            if let parent = self.parent {
                guard saver === parent else { return }
            } else {
                guard saver.parent == nil, saver.persistentStoreCoordinator === self.persistentStoreCoordinator else { return }
            }
            let changes = SavedChanges(notification.userInfo ?? [:], coordinator: nil)
            self.perform { [weak self] in self?.merge(changes) }
        }
        saveObserver = ObserverToken(observer)
    }

    /// Posts the notifications of a save that wrote `inserted`, `updated` and `deleted`; did-save
    /// carries the token of the history transaction it recorded, if any (``newChangeTokenKey``).
    /// `announced` holds the sets of those objects objects-did-change made already, if it did.
    func postDidSave(
        inserted: [ManagedObject], updated: [ManagedObject], deleted: [ManagedObject], historyToken: HistoryToken? = nil,
        announced: (inserted: Set<ManagedObject>?, updated: Set<ManagedObject>?) = (nil, nil)
    ) {
        func set(_ objects: [ManagedObject], _ made: Set<ManagedObject>?) -> Set<ManagedObject> {
            guard let made, made.count == objects.count else { return Set(halfFull: objects) }
            return made
        }
        var info: [AnyHashable: Any] = [
            NSInsertedObjectsKey: set(inserted, announced.inserted), NSUpdatedObjectsKey: set(updated, announced.updated),
            NSDeletedObjectsKey: Set(halfFull: deleted),
        ]
        if let historyToken { info[newChangeTokenKey] = historyToken }
        NotificationCenter.default.post(name: Self.didSaveObjectsNotification, object: self, userInfo: info)
        NotificationCenter.default.post(name: Self.didSaveObjectIDsNotification, object: self, userInfo: [
            NSInsertedObjectIDsKey: Self.ids(of: inserted), NSUpdatedObjectIDsKey: Self.ids(of: updated), NSDeletedObjectIDsKey: Self.ids(of: deleted),
        ])
    }

    /// The IDs of `objects`, gathered into a half-full set (`Set(halfFull:)`).
    private static func ids(of objects: [ManagedObject]) -> Set<ManagedObjectID> {
        Set(halfFull: objects.lazy.map(\.objectID))
    }
}

/// An observer of NotificationCenter, to remove from any thread.
final class ObserverToken: @unchecked Sendable {
    let observer: NSObjectProtocol

    init(_ observer: NSObjectProtocol) { self.observer = observer }
}
