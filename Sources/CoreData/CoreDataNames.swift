import Foundation
import ModelContext

// Core Data's names for the object layer's types, where the type already behaves as Apple's:
// code written for Core Data compiles against them unchanged.

public typealias NSManagedObject = ManagedObject
public typealias NSManagedObjectContext = ManagedObjectContext
public typealias NSManagedObjectContextConcurrencyType = ManagedObjectContext.ConcurrencyType
public typealias NSManagedObjectID = ManagedObjectID
public typealias NSEntityDescription = EntityDescription
public typealias NSManagedObjectModel = ManagedObjectModel
public typealias NSPersistentStoreCoordinator = PersistentStoreCoordinator
public typealias NSPersistentStore = PersistentStore
public typealias NSFetchRequest<ResultType> = FetchRequest<ResultType>
public typealias NSFetchRequestResultType = FetchRequestResultType
public typealias NSPredicate = FetchPredicate
public typealias NSCompoundPredicate = FetchPredicate
public typealias NSSortDescriptor = FetchSortDescriptor
public typealias NSExpressionDescription = ExpressionDescription
public typealias NSMergePolicy = MergePolicy
public typealias NSMergePolicyType = MergePolicy.PolicyType
public typealias NSMergeConflict = MergeConflict
public typealias NSConstraintConflict = ConstraintConflict
public typealias NSPersistentStoreRequest = PersistentStoreRequest
public typealias NSPersistentStoreResult = PersistentStoreResult
public typealias NSBatchDeleteRequest = BatchDeleteRequest
public typealias NSBatchUpdateRequest = BatchUpdateRequest
public typealias NSBatchInsertRequest = BatchInsertRequest
public typealias NSBatchDeleteResult = BatchDeleteResult
public typealias NSBatchUpdateResult = BatchUpdateResult
public typealias NSBatchInsertResult = BatchInsertResult
public typealias NSBatchDeleteRequestResultType = BatchRequestResultType
public typealias NSBatchUpdateRequestResultType = BatchRequestResultType
public typealias NSBatchInsertRequestResultType = BatchRequestResultType
public typealias NSPersistentHistoryChangeRequest = HistoryChangeRequest
public typealias NSPersistentHistoryResult = HistoryResult
public typealias NSPersistentHistoryResultType = HistoryResultType
public typealias NSPersistentHistoryTransaction = HistoryTransaction
public typealias NSPersistentHistoryChange = HistoryChange
public typealias NSPersistentHistoryChangeType = HistoryChangeType
public typealias NSPersistentHistoryToken = HistoryToken
public typealias NSQueryGenerationToken = QueryGenerationToken

/// Core Data's five merge policies as the global constants apps assign to `mergePolicy`.
public let NSErrorMergePolicy = MergePolicy.error
public let NSMergeByPropertyStoreTrumpMergePolicy = MergePolicy.mergeByPropertyStoreTrump
public let NSMergeByPropertyObjectTrumpMergePolicy = MergePolicy.mergeByPropertyObjectTrump
public let NSOverwriteMergePolicy = MergePolicy.overwrite
public let NSRollbackMergePolicy = MergePolicy.rollback

/// The store types of `NSPersistentStoreDescription.type`, with Core Data's strings.
public let NSSQLiteStoreType = "SQLite"
public let NSInMemoryStoreType = "InMemory"

/// The case names Core Data gives the batch requests' result types, which share their values.
extension BatchRequestResultType {
    public static let resultTypeStatusOnly = statusOnly
    public static let resultTypeObjectIDs = objectIDs
    public static let resultTypeCount = count
    public static let statusOnlyResultType = statusOnly
    public static let updatedObjectIDsResultType = objectIDs
    public static let updatedObjectsCountResultType = count
}

/// The context's notifications under the names Swift gives Core Data's.
extension Notification.Name {
    public static let NSManagedObjectContextWillSave = ManagedObjectContext.willSaveObjectsNotification
    public static let NSManagedObjectContextDidSave = ManagedObjectContext.didSaveObjectsNotification
    public static let NSManagedObjectContextObjectsDidChange = ManagedObjectContext.didChangeObjectsNotification
    public static let NSManagedObjectContextDidSaveObjectIDs = ManagedObjectContext.didSaveObjectIDsNotification
    public static let NSManagedObjectContextDidMergeChangesObjectIDs = ManagedObjectContext.didMergeChangesObjectIDsNotification
}

/// The user-info keys of the context's notifications (`NSManagedObjectContext.NotificationKey`).
extension ManagedObjectContext {
    public struct NotificationKey: RawRepresentable, Hashable, Sendable {
        public var rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }

        public static let insertedObjects = NotificationKey(rawValue: NSInsertedObjectsKey)
        public static let updatedObjects = NotificationKey(rawValue: NSUpdatedObjectsKey)
        public static let deletedObjects = NotificationKey(rawValue: NSDeletedObjectsKey)
        public static let refreshedObjects = NotificationKey(rawValue: NSRefreshedObjectsKey)
        public static let invalidatedObjects = NotificationKey(rawValue: NSInvalidatedObjectsKey)
        public static let insertedObjectIDs = NotificationKey(rawValue: NSInsertedObjectIDsKey)
        public static let updatedObjectIDs = NotificationKey(rawValue: NSUpdatedObjectIDsKey)
        public static let deletedObjectIDs = NotificationKey(rawValue: NSDeletedObjectIDsKey)
        public static let refreshedObjectIDs = NotificationKey(rawValue: NSRefreshedObjectIDsKey)
    }
}

/// The fetched results controller under Core Data's names.
public typealias NSFetchedResultsController<ResultType> = FetchedResultsController<ResultType>
public typealias NSFetchedResultsControllerDelegate = FetchedResultsControllerDelegate
public typealias NSFetchedResultsChangeType = FetchedResultsChangeType
public typealias NSFetchedResultsSectionInfo = FetchedResultsSectionInfo
/// What a fetch can return, under Core Data's name.
public typealias NSFetchRequestResult = FetchRequestResult
