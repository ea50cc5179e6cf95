import Foundation

/// One save's record in a store's persistent history (`NSPersistentHistoryTransaction`): when,
/// by whom and which objects it changed.
public struct HistoryTransaction: Sendable, CustomStringConvertible {
    /// The transaction's number (`ATRANSACTION.Z_PK`), increasing with each save.
    public let transactionNumber: Int64
    /// When the save committed.
    public let timestamp: Date
    /// The saving context's `transactionAuthor`.
    public let author: String?
    /// The saving context's `name`.
    public let contextName: String?
    /// The saving app's bundle identifier.
    public let bundleID: String?
    /// The saving process's name, as Core Data records it (`xctest`, an app's executable).
    public let processID: String?
    /// The store's `NSStoreUUID`.
    public let storeID: String
    /// The changes, in the order they were recorded.
    public let changes: [HistoryChange]

    /// The token that stands for this transaction: history after it begins with the next one.
    public var token: HistoryToken { HistoryToken(storeIdentifier: storeID, transactionNumber: transactionNumber) }

    /// The transaction's number and how many changes it holds.
    public var description: String { "transaction \(transactionNumber) (\(changes.count) changes)" }

    /// The name of Core Data's entity of transactions (`NSPersistentHistoryTransaction.entityDescription`),
    /// as `Z_PRIMARYKEY` of a store written by Core Data names it (entity 16002).
    public static let entityName = "TRANSACTION"

    /// A fetch request of transactions (`NSPersistentHistoryTransaction.fetchRequest`), to set a
    /// predicate on and give a history fetch as its ``HistoryChangeRequest/fetchRequest``:
    /// `fetchRequest.predicate = FetchPredicate(format: "author != %@", "app")`. Optional as
    /// Core Data's is; never nil here.
    public static var fetchRequest: FetchRequest<Any>? { FetchRequest(entityName: entityName) }

    /// The transaction with only `changes`, what a fetch tailored by changes keeps of it.
    func with(changes: [HistoryChange]) -> HistoryTransaction {
        HistoryTransaction(
            transactionNumber: transactionNumber, timestamp: timestamp, author: author, contextName: contextName, bundleID: bundleID,
            processID: processID, storeID: storeID, changes: changes)
    }
}

extension HistoryTransaction {
    /// The transaction's changes as a did-save notification of object IDs (Core Data's
    /// `objectIDNotification()`), the form `mergeChanges(fromContextDidSave:)` and, through its
    /// `userInfo`, `mergeChanges(fromRemoteContextSave:into:)` take: how history read after a
    /// remote change is brought into a context.
    public func objectIDNotification() -> Notification {
        func ids(_ type: HistoryChangeType) -> Set<ManagedObjectID> { Set(changes.filter { $0.changeType == type }.map(\.changedObjectID)) }
        return Notification(name: ManagedObjectContext.didSaveObjectIDsNotification, object: nil, userInfo: [
            NSInsertedObjectIDsKey: ids(.insert), NSUpdatedObjectIDsKey: ids(.update), NSDeletedObjectIDsKey: ids(.delete),
        ])
    }
}
