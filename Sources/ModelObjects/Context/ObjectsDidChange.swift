import Foundation

/// What one objects-did-change notification of a context lists, by object ID: the element of
/// ``ManagedObjectContext/changes``, which crosses queues where the objects themselves may not.
public struct ObjectsDidChange: Sendable, Hashable {
    /// Objects inserted since the last notification.
    public var inserted: Set<ManagedObjectID> = []
    /// Objects whose values changed since the last notification.
    public var updated: Set<ManagedObjectID> = []
    /// Objects deleted since the last notification.
    public var deleted: Set<ManagedObjectID> = []
    /// Objects refreshed by a merge of another context's save.
    public var refreshed: Set<ManagedObjectID> = []
    /// Objects the context let go (`NSInvalidatedObjectsKey`, `NSInvalidatedAllObjectsKey` of a reset).
    public var invalidated: Set<ManagedObjectID> = []

    /// A notification's contents from the IDs of each kind of change.
    public init(
        inserted: Set<ManagedObjectID> = [], updated: Set<ManagedObjectID> = [], deleted: Set<ManagedObjectID> = [],
        refreshed: Set<ManagedObjectID> = [], invalidated: Set<ManagedObjectID> = []
    ) {
        self.inserted = inserted
        self.updated = updated
        self.deleted = deleted
        self.refreshed = refreshed
        self.invalidated = invalidated
    }

    /// The IDs an objects-did-change notification's user info lists; read on the posting
    /// context's queue, where its objects may be read.
    init(_ userInfo: [AnyHashable: Any]) {
        func ids(_ key: String) -> Set<ManagedObjectID> {
            let values: [Any] = switch userInfo[key] {
            case let set as Set<ManagedObject>: Array(set)
            case let array as [Any]: array
            case let set as NSSet: set.allObjects
            default: []
            }
            var result = Set<ManagedObjectID>(minimumCapacity: values.count)
            for value in values {
                switch value {
                case let object as ManagedObject: result.insert(object.objectID)
                case let id as ManagedObjectID: result.insert(id)
                default: continue
                }
            }
            return result
        }
        self.init(
            inserted: ids(NSInsertedObjectsKey), updated: ids(NSUpdatedObjectsKey), deleted: ids(NSDeletedObjectsKey),
            refreshed: ids(NSRefreshedObjectsKey), invalidated: ids(NSInvalidatedObjectsKey).union(ids(NSInvalidatedAllObjectsKey)))
    }

    /// What the notification says of the object `id`, nil when it does not list it.
    func change(of id: ManagedObjectID) -> ObjectChange? {
        if deleted.contains(id) { return .deleted }
        if invalidated.contains(id) { return .invalidated }
        if refreshed.contains(id) { return .refreshed }
        if updated.contains(id) { return .updated }
        return nil
    }
}

/// What happened to one object, the element of ``ManagedObjectContext/changes(for:)``.
public enum ObjectChange: Sendable, Hashable {
    /// The object's values were changed in the context.
    case updated
    /// The object was refreshed from another context's save merged into this one.
    case refreshed
    /// The context let the object go (a reset); it is read again when fetched.
    case invalidated
    /// The object was deleted (here, or by a merged save): the sequence ends after it.
    case deleted
}
