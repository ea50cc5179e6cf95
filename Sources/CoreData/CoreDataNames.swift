import Foundation
import ModelObjects

// Core Data's names for the object layer's types, where the type already behaves as Apple's:
// code written for Core Data compiles against them unchanged.

/// Core Data's `NSManagedObject`: the object layer's `ManagedObject`.
public typealias NSManagedObject = ManagedObject
/// Core Data's `NSManagedObjectContext`: the object layer's `ManagedObjectContext`.
public typealias NSManagedObjectContext = ManagedObjectContext
/// Core Data's `NSManagedObjectContextConcurrencyType`: the object layer's `ManagedObjectContext.ConcurrencyType`.
public typealias NSManagedObjectContextConcurrencyType = ManagedObjectContext.ConcurrencyType
/// Core Data's `NSManagedObjectID`: the object layer's `ManagedObjectID`.
public typealias NSManagedObjectID = ManagedObjectID
/// Core Data's `NSEntityDescription`: the object layer's `EntityDescription`.
public typealias NSEntityDescription = EntityDescription
/// Core Data's `NSManagedObjectModel`: the object layer's `ManagedObjectModel`.
public typealias NSManagedObjectModel = ManagedObjectModel
/// Core Data's `NSPersistentStoreCoordinator`: the object layer's `PersistentStoreCoordinator`.
public typealias NSPersistentStoreCoordinator = PersistentStoreCoordinator
/// Core Data's `NSPersistentStore`: the object layer's `PersistentStore`.
public typealias NSPersistentStore = PersistentStore
/// Core Data's `NSFetchRequest`: the object layer's `FetchRequest`.
public typealias NSFetchRequest<ResultType> = FetchRequest<ResultType>
/// Core Data's `NSFetchRequestResultType`: the object layer's `FetchRequestResultType`.
public typealias NSFetchRequestResultType = FetchRequestResultType
/// Core Data's `NSPredicate`: the object layer's `FetchPredicate`.
public typealias NSPredicate = FetchPredicate
/// Core Data's `NSCompoundPredicate`: the object layer's `FetchPredicate`.
public typealias NSCompoundPredicate = FetchPredicate
/// Core Data's `NSSortDescriptor`: the object layer's `FetchSortDescriptor`.
public typealias NSSortDescriptor = FetchSortDescriptor
/// Core Data's `NSExpressionDescription`: the object layer's `ExpressionDescription`.
public typealias NSExpressionDescription = ExpressionDescription
/// Core Data's `NSMergePolicy`: the object layer's `MergePolicy`.
public typealias NSMergePolicy = MergePolicy
/// Core Data's `NSMergePolicyType`: the object layer's `MergePolicy.PolicyType`.
public typealias NSMergePolicyType = MergePolicy.PolicyType
/// Core Data's `NSMergeConflict`: the object layer's `MergeConflict`.
public typealias NSMergeConflict = MergeConflict
/// Core Data's `NSConstraintConflict`: the object layer's `ConstraintConflict`.
public typealias NSConstraintConflict = ConstraintConflict
/// Core Data's `NSPersistentStoreRequest`: the object layer's `PersistentStoreRequest`.
public typealias NSPersistentStoreRequest = PersistentStoreRequest
/// Core Data's `NSPersistentStoreResult`: the object layer's `PersistentStoreResult`.
public typealias NSPersistentStoreResult = PersistentStoreResult
/// Core Data's `NSBatchDeleteRequest`: the object layer's `BatchDeleteRequest`.
public typealias NSBatchDeleteRequest = BatchDeleteRequest
/// Core Data's `NSBatchUpdateRequest`: the object layer's `BatchUpdateRequest`.
public typealias NSBatchUpdateRequest = BatchUpdateRequest
/// Core Data's `NSBatchInsertRequest`: the object layer's `BatchInsertRequest`.
public typealias NSBatchInsertRequest = BatchInsertRequest
/// Core Data's `NSBatchDeleteResult`: the object layer's `BatchDeleteResult`.
public typealias NSBatchDeleteResult = BatchDeleteResult
/// Core Data's `NSBatchUpdateResult`: the object layer's `BatchUpdateResult`.
public typealias NSBatchUpdateResult = BatchUpdateResult
/// Core Data's `NSBatchInsertResult`: the object layer's `BatchInsertResult`.
public typealias NSBatchInsertResult = BatchInsertResult
/// Core Data's `NSBatchDeleteRequestResultType`: the object layer's `BatchRequestResultType`.
public typealias NSBatchDeleteRequestResultType = BatchRequestResultType
/// Core Data's `NSBatchUpdateRequestResultType`: the object layer's `BatchRequestResultType`.
public typealias NSBatchUpdateRequestResultType = BatchRequestResultType
/// Core Data's `NSBatchInsertRequestResultType`: the object layer's `BatchRequestResultType`.
public typealias NSBatchInsertRequestResultType = BatchRequestResultType
/// Core Data's `NSPersistentHistoryChangeRequest`: the object layer's `HistoryChangeRequest`.
public typealias NSPersistentHistoryChangeRequest = HistoryChangeRequest
/// Core Data's `NSPersistentHistoryResult`: the object layer's `HistoryResult`.
public typealias NSPersistentHistoryResult = HistoryResult
/// Core Data's `NSPersistentHistoryResultType`: the object layer's `HistoryResultType`.
public typealias NSPersistentHistoryResultType = HistoryResultType
/// Core Data's `NSPersistentHistoryTransaction`: the object layer's `HistoryTransaction`.
public typealias NSPersistentHistoryTransaction = HistoryTransaction
/// Core Data's `NSPersistentHistoryChange`: the object layer's `HistoryChange`.
public typealias NSPersistentHistoryChange = HistoryChange
/// Core Data's `NSPersistentHistoryChangeType`: the object layer's `HistoryChangeType`.
public typealias NSPersistentHistoryChangeType = HistoryChangeType
/// Core Data's `NSPersistentHistoryToken`: the object layer's `HistoryToken`.
public typealias NSPersistentHistoryToken = HistoryToken
/// Core Data's `NSQueryGenerationToken`: the object layer's `QueryGenerationToken`.
public typealias NSQueryGenerationToken = QueryGenerationToken

/// Core Data's five merge policies as the global constants apps assign to `mergePolicy`.
public let NSErrorMergePolicy = MergePolicy.error
/// The store's changed values win, property by property.
public let NSMergeByPropertyStoreTrumpMergePolicy = MergePolicy.mergeByPropertyStoreTrump
/// The context's changed values win, property by property.
public let NSMergeByPropertyObjectTrumpMergePolicy = MergePolicy.mergeByPropertyObjectTrump
/// The context's objects overwrite the store's rows.
public let NSOverwriteMergePolicy = MergePolicy.overwrite
/// The store's rows win over the context's changes.
public let NSRollbackMergePolicy = MergePolicy.rollback

/// The store types of `NSPersistentStoreDescription.type`, with Core Data's strings.
public let NSSQLiteStoreType = "SQLite"
/// An in-memory store, gone with its container.
public let NSInMemoryStoreType = "InMemory"

/// The case names Core Data gives the batch requests' result types, which share their values.
extension BatchRequestResultType {
    /// Whether the request succeeded (a batch insert's name).
    public static let resultTypeStatusOnly = statusOnly
    /// The IDs of the objects inserted (a batch insert's name).
    public static let resultTypeObjectIDs = objectIDs
    /// How many objects were inserted (a batch insert's name).
    public static let resultTypeCount = count
    /// Whether the request succeeded (a batch update's name).
    public static let statusOnlyResultType = statusOnly
    /// The IDs of the objects updated (a batch update's name).
    public static let updatedObjectIDsResultType = objectIDs
    /// How many objects were updated (a batch update's name).
    public static let updatedObjectsCountResultType = count
}

/// The context's notifications under the names Swift gives Core Data's.
extension Notification.Name {
    /// Posted before a context saves.
    public static let NSManagedObjectContextWillSave = ManagedObjectContext.willSaveObjectsNotification
    /// Posted after a context saved, with its objects.
    public static let NSManagedObjectContextDidSave = ManagedObjectContext.didSaveObjectsNotification
    /// Posted when a context's objects changed.
    public static let NSManagedObjectContextObjectsDidChange = ManagedObjectContext.didChangeObjectsNotification
    /// Posted after a context saved, with its objects.
    public static let NSManagedObjectContextDidSaveObjectIDs = ManagedObjectContext.didSaveObjectIDsNotification
    /// Posted after a context merged changes, with the IDs merged.
    public static let NSManagedObjectContextDidMergeChangesObjectIDs = ManagedObjectContext.didMergeChangesObjectIDsNotification
}

/// The user-info keys of the context's notifications (`NSManagedObjectContext.NotificationKey`).
extension ManagedObjectContext {
    /// A key of a context notification's user info.
    public struct NotificationKey: RawRepresentable, Hashable, Sendable {
        /// The key as the user info spells it.
        public var rawValue: String
        /// The key spelled `rawValue`.
        public init(rawValue: String) { self.rawValue = rawValue }

        /// The objects inserted.
        public static let insertedObjects = NotificationKey(rawValue: NSInsertedObjectsKey)
        /// The objects updated.
        public static let updatedObjects = NotificationKey(rawValue: NSUpdatedObjectsKey)
        /// The objects deleted.
        public static let deletedObjects = NotificationKey(rawValue: NSDeletedObjectsKey)
        /// The objects refreshed.
        public static let refreshedObjects = NotificationKey(rawValue: NSRefreshedObjectsKey)
        /// The objects the context let go.
        public static let invalidatedObjects = NotificationKey(rawValue: NSInvalidatedObjectsKey)
        /// The IDs of the objects inserted.
        public static let insertedObjectIDs = NotificationKey(rawValue: NSInsertedObjectIDsKey)
        /// The IDs of the objects updated.
        public static let updatedObjectIDs = NotificationKey(rawValue: NSUpdatedObjectIDsKey)
        /// The IDs of the objects deleted.
        public static let deletedObjectIDs = NotificationKey(rawValue: NSDeletedObjectIDsKey)
        /// The IDs of the objects refreshed.
        public static let refreshedObjectIDs = NotificationKey(rawValue: NSRefreshedObjectIDsKey)
    }
}

/// The fetched results controller under Core Data's names.
public typealias NSFetchedResultsController<ResultType> = FetchedResultsController<ResultType>
/// Core Data's `NSFetchedResultsControllerDelegate`: the object layer's `FetchedResultsControllerDelegate`.
public typealias NSFetchedResultsControllerDelegate = FetchedResultsControllerDelegate
/// Core Data's `NSFetchedResultsChangeType`: the object layer's `FetchedResultsChangeType`.
public typealias NSFetchedResultsChangeType = FetchedResultsChangeType
/// Core Data's `NSFetchedResultsSectionInfo`: the object layer's `FetchedResultsSectionInfo`.
public typealias NSFetchedResultsSectionInfo = FetchedResultsSectionInfo
/// What a fetch can return, under Core Data's name.
public typealias NSFetchRequestResult = FetchRequestResult
