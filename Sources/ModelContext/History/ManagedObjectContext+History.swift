import Foundation
import GRDB
import ModelStore

/// Persistent history through a context, as `-[NSManagedObjectContext executeRequest:]` runs an
/// `NSPersistentHistoryChangeRequest`: the store's `ATRANSACTION` and `ACHANGE` rows turned into
/// transactions and changes of this context's model.
extension ManagedObjectContext {
    /// Fetches or deletes the history `request` names. Throws 134091 for a store that does not
    /// track history, 134301 for a token older than the history still kept (it was deleted
    /// since), 134501 for a token of another store.
    public func execute(_ request: HistoryChangeRequest) throws -> HistoryResult {
        let coordinator = try coordinator()
        let storeIdentifier = try coordinator.storeIdentifier()
        let bound = try Self.bound(of: request.anchor, store: storeIdentifier)
        switch request.operation {
        case .fetch:
            let records = try read { db in
                let reader = try Self.historyReader(db)
                if case .token(let token) = request.anchor, token.transactionNumber + 1 < (try reader.oldestRetainedNumber()) {
                    throw ContextError.make(134301, "the history after transaction \(token.transactionNumber) was deleted: the token has expired")
                }
                return try reader.transactions(after: bound)
            }
            var lists = HistoryPropertyLists(model: coordinator.managedObjectModel)
            return .transactions(try records.map { try transaction($0, storeIdentifier: storeIdentifier, lists: &lists) })
        case .delete:
            return .deleted(count: try write { try Self.historyReader($0).deleteTransactions(before: bound) })
        }
    }

    /// A reader of `db`'s history; 134091 when the store has none.
    private static func historyReader(_ db: Database) throws -> HistoryReader {
        guard try PersistentHistoryLayout.isPresent(in: db) else {
            throw ContextError.make(
                134091, "the store does not track persistent history: it has no ATRANSACTION table (open it with persistent history tracking on)")
        }
        return HistoryReader(db: db)
    }

    /// The reader's bound for `anchor`; 134501 for a token of another store.
    private static func bound(of anchor: HistoryChangeRequest.Anchor, store: String) throws -> HistoryReader.Bound {
        switch anchor {
        case .none:
            return .all
        case .date(let date):
            return .timestamp(date.timeIntervalSinceReferenceDate)
        case .token(let token):
            guard token.storeIdentifier.isEmpty || token.storeIdentifier == store else {
                throw ContextError.make(134501, "store \(store) not found in token \(token)")
            }
            return .number(token.transactionNumber)
        }
    }

    /// `record` as a transaction of this context's model.
    private func transaction(_ record: HistoryRecord, storeIdentifier: String, lists: inout HistoryPropertyLists) throws -> HistoryTransaction {
        let changes = try record.changes.map { change in
            guard let type = HistoryChangeType(rawValue: change.type) else {
                throw ContextError.make(134060, "change \(change.number) has change type \(change.type), which is not insert (0), update (1) or delete (2)")
            }
            let entity = try lists.entity(number: change.entityNumber, change: change.number)
            return HistoryChange(
                changeID: change.number, changeType: type,
                changedObjectID: ManagedObjectID(entityName: entity.name, storeIdentifier: storeIdentifier, primaryKey: change.primaryKey),
                updatedProperties: type == .update ? change.updatedPositions.map { lists.names(at: $0, in: entity) } ?? [] : nil,
                tombstone: type == .delete ? lists.tombstone(change.tombstones, of: entity) : nil,
                transactionNumber: record.number)
        }
        return HistoryTransaction(
            transactionNumber: record.number, timestamp: Date(timeIntervalSinceReferenceDate: record.timestamp), author: record.author,
            contextName: record.contextName, bundleID: record.bundleID, processID: record.processID, storeID: storeIdentifier, changes: changes)
    }
}
