import Foundation

/// A request a context passes to its store without touching its objects
/// (`NSPersistentStoreRequest`): the batch requests.
public protocol PersistentStoreRequest: AnyObject {
    /// The stores the request runs in (of its context's coordinator); every store it concerns when nil.
    var affectedStores: [PersistentStore]? { get set }
}

/// What a batch request gives back (`NSPersistentStoreResult`); its `result` is, by the request's
/// result type, `true`, the IDs of the objects it touched, or their count.
public class PersistentStoreResult: @unchecked Sendable {
    /// `true`, the IDs of the objects touched, or their count, by the request's result type.
    public let result: Any?

    init(_ result: Any?) { self.result = result }
}

/// What a ``BatchDeleteRequest`` gives back (`NSBatchDeleteResult`).
public final class BatchDeleteResult: PersistentStoreResult, @unchecked Sendable {}
/// What a ``BatchUpdateRequest`` gives back (`NSBatchUpdateResult`).
public final class BatchUpdateResult: PersistentStoreResult, @unchecked Sendable {}
/// What a ``BatchInsertRequest`` gives back (`NSBatchInsertResult`).
public final class BatchInsertResult: PersistentStoreResult, @unchecked Sendable {}

/// What a batch request returns (`NSBatchDeleteRequestResultType` and its siblings share the values).
public enum BatchRequestResultType: Int, Sendable {
    /// Whether the request succeeded.
    case statusOnly = 0
    /// The IDs of the objects the request touched.
    case objectIDs = 1
    /// How many objects the request touched.
    case count = 2
}

/// Deletes the rows a fetch request matches, or the objects of some IDs, in the store itself
/// (`NSBatchDeleteRequest`): no object is read, no validation or delete rule runs, contexts are
/// not told (merge the result's IDs with `mergeChanges(fromRemoteContextSave:into:)`).
public final class BatchDeleteRequest: PersistentStoreRequest {
    let entityName: String?
    let predicate: FetchPredicate?
    let includesSubentities: Bool
    let objectIDs: [ManagedObjectID]?
    /// What the result holds: a status (the default), the IDs touched, or their count.
    public var resultType = BatchRequestResultType.statusOnly
    /// The stores the request runs in; every store holding the entity when nil.
    public var affectedStores: [PersistentStore]?

    /// Deletes the objects `fetchRequest` matches: its entity, predicate and subentities.
    public init<T>(fetchRequest: FetchRequest<T>) {
        entityName = fetchRequest.entityName
        predicate = fetchRequest.predicate
        includesSubentities = fetchRequest.includesSubentities
        objectIDs = nil
    }

    /// Deletes the objects of `objectIDs`.
    public init(objectIDs: [ManagedObjectID]) {
        entityName = nil
        predicate = nil
        includesSubentities = true
        self.objectIDs = objectIDs
    }
}

/// Sets attributes of the rows a predicate matches in the store itself (`NSBatchUpdateRequest`):
/// no object is read or validated, each row's `Z_OPT` goes up by one, contexts are not told.
public final class BatchUpdateRequest: PersistentStoreRequest {
    /// The name of the entity whose rows the request writes.
    public let entityName: String
    /// Which rows are updated; every row of the entity when nil.
    public var predicate: FetchPredicate?
    /// Whether rows of the entity's subentities are updated too.
    public var includesSubentities = true
    /// The new values, by attribute name (`nil` or `NSNull` to clear one).
    public var propertiesToUpdate: [String: Any]?
    /// What the result holds: a status (the default), the IDs touched, or their count.
    public var resultType = BatchRequestResultType.statusOnly
    /// The stores the request runs in; every store holding the entity when nil.
    public var affectedStores: [PersistentStore]?

    /// Updates the objects of `entityName`; set ``predicate`` and ``propertiesToUpdate``.
    public init(entityName: String) {
        self.entityName = entityName
    }
}

/// Inserts rows, one per dictionary of attribute values, in the store itself
/// (`NSBatchInsertRequest`): keys from `Z_PRIMARYKEY`, `Z_OPT` 1, defaults for the attributes a
/// dictionary leaves out; no object is made, contexts are not told. The dictionaries are given
/// at once (`objectsToInsert`) or one at a time by a handler, filling a dictionary or an object
/// of the entity's class, so that a large import need not hold them all. A collision on a
/// uniqueness constraint is settled by the executing context's merge policy.
public final class BatchInsertRequest: PersistentStoreRequest {
    /// The name of the entity whose rows the request writes.
    public let entityName: String
    /// The attribute values of the objects to insert, one dictionary each.
    public var objectsToInsert: [[String: Any]]
    /// Fills the dictionary it is given with the next object's values and returns false, or
    /// returns true when there are no more (that call's dictionary is not inserted).
    public var dictionaryHandler: ((inout [String: Any]) -> Bool)?
    /// Sets the next object's attributes on the object it is given (a new one each call, of the
    /// entity's class, in no context) and returns false, or returns true when there are no more
    /// (that call's object is not inserted). Relationships are not inserted, as in Core Data.
    public var managedObjectHandler: ((ManagedObject) -> Bool)?
    /// What the result holds: a status (the default), the IDs touched, or their count.
    public var resultType = BatchRequestResultType.statusOnly
    /// The stores the request runs in; every store holding the entity when nil.
    public var affectedStores: [PersistentStore]?
    /// The `#fileID` of the code that made a handler's request.
    var callerFileID: String?

    /// Inserts one object of `entityName` per dictionary of `objects`.
    public init(entityName: String, objects: [[String: Any]]) {
        self.entityName = entityName
        objectsToInsert = objects
    }

    /// A request whose handler fills dictionaries; `fileID` as for a managed-object handler's, so
    /// that a closure whose parameter type is not written is as ambiguous between the two as with
    /// Core Data's initializers, not silently taken as a dictionary handler.
    public init(entityName: String, dictionaryHandler: @escaping (inout [String: Any]) -> Bool, fileID: String = #fileID) {
        self.entityName = entityName
        objectsToInsert = []
        self.dictionaryHandler = dictionaryHandler
        callerFileID = fileID
    }

    /// A request whose handler fills objects of the entity's class; `fileID` tells the module of
    /// the caller, where that class is looked for when nothing has used it yet (Swift on Linux has
    /// no runtime to find a class by its unqualified name, as Core Data does).
    public init(entityName: String, managedObjectHandler: @escaping (ManagedObject) -> Bool, fileID: String = #fileID) {
        self.entityName = entityName
        objectsToInsert = []
        self.managedObjectHandler = managedObjectHandler
        callerFileID = fileID
    }

    /// The objects to insert, from a handler when there is one; `make` makes the object a
    /// managed-object handler fills.
    func objects(making make: @escaping () -> ManagedObject) -> Objects { Objects(request: self, make: make) }

    /// The request's objects' values, taken a few at a time.
    struct Objects {
        let request: BatchInsertRequest
        let make: () -> ManagedObject
        private var offset = 0
        private var ended = false

        init(request: BatchInsertRequest, make: @escaping () -> ManagedObject) {
            self.request = request
            self.make = make
        }

        /// Up to `count` more objects' values; none once they are all taken.
        mutating func next(_ count: Int) -> [[String: Any]] {
            var taken = [[String: Any]]()
            if let handler = request.managedObjectHandler {
                while !ended, taken.count < count {
                    let object = make()
                    if handler(object) { ended = true } else { taken.append(object.setAttributeValues()) }
                }
            } else if let handler = request.dictionaryHandler {
                while !ended, taken.count < count {
                    var values = [String: Any]()
                    if handler(&values) { ended = true } else { taken.append(values) }
                }
            } else {
                taken = Array(request.objectsToInsert[min(offset, request.objectsToInsert.count)..<min(offset + count, request.objectsToInsert.count)])
                offset += taken.count
            }
            return taken
        }
    }
}
