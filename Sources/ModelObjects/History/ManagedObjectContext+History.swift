import Foundation
import GRDB
import ModelStore

/// Persistent history through a context, as `-[NSManagedObjectContext executeRequest:]` runs an
/// `NSPersistentHistoryChangeRequest`: the store's `ATRANSACTION` and `ACHANGE` rows turned into
/// transactions and changes of this context's model.
extension ManagedObjectContext {
    /// Fetches or deletes the history `request` names. Throws 134091 for a store that does not
    /// track history, 134301 for a token older than the history still kept (it was deleted
    /// since), 134501 for a token of a store the coordinator does not have.
    ///
    /// With several stores, a token's request runs in the token's store (a token is one store's);
    /// one without a token, or with a date, runs in every store that tracks history, and their
    /// transactions come oldest first by timestamp, each with its own store's token. Either
    /// runs only in the request's `affectedStores` when it names some. A fetch's `fetchRequest`
    /// then keeps what its predicate matches (`HistoryFilter`).
    public func execute(_ request: HistoryChangeRequest) throws -> HistoryResult {
        try checkQueue()
        let coordinator = try coordinator()
        let opened = try coordinator.stores()
        let stores = try opened.restricted(Self.stores(for: request.anchor, in: opened.all), to: request.affectedStores)
        // A request whose stores are all left out by its affectedStores finds nothing.
        if stores.isEmpty { return request.operation == .fetch ? HistoryResult(fetched: [], as: request.resultType) : Self.deleted(0, as: request.resultType) }
        let bound = Self.bound(of: request.anchor)
        // Among several stores, those without history are left out; 134091 when none has any.
        let skipsUntracked = stores.count > 1
        var untracked = 0
        switch request.operation {
        case .fetch:
            var lists = HistoryPropertyLists(model: coordinator.managedObjectModel)
            var transactions = [HistoryTransaction]()
            for store in stores {
                let records = try read(in: store) { db -> [HistoryRecord]? in
                    guard let reader = try Self.historyReader(db, orNilWhen: skipsUntracked) else { return nil }
                    if case .token(let token) = request.anchor, try Self.hasExpired(token, oldest: reader.oldestRetainedNumber()) {
                        throw ContextError.make(134301, "the history after transaction \(token.transactionNumber) was deleted: the token has expired")
                    }
                    return try reader.transactions(after: bound)
                }
                guard let records else {
                    untracked += 1
                    continue
                }
                transactions += try records.map { try transaction($0, in: store, lists: &lists) }
            }
            try Self.requireHistory(untracked: untracked, of: stores.count)
            if stores.count - untracked > 1 {
                // A stable sort keeps each store's own order, and the stores' order on a tie.
                transactions = transactions.enumerated().sorted { ($0.element.timestamp, $0.offset) < ($1.element.timestamp, $1.offset) }.map(\.element)
            }
            if let tailoring = request.fetchRequest { transactions = try HistoryFilter(tailoring).apply(to: transactions) }
            return HistoryResult(fetched: transactions, as: request.resultType)
        case .delete:
            var count = 0
            for store in stores {
                let deleted = try ContextError.mappingStore {
                    try store.database.write { db in try Self.historyReader(db, orNilWhen: skipsUntracked)?.deleteTransactions(before: bound) }
                }
                if let deleted { count += deleted } else { untracked += 1 }
            }
            try Self.requireHistory(untracked: untracked, of: stores.count)
            return Self.deleted(count, as: request.resultType)
        }
    }

    /// A deletion's result: its status for `.statusOnly`, else how many transactions it removed.
    private static func deleted(_ count: Int, as resultType: HistoryResultType) -> HistoryResult {
        resultType == .statusOnly ? .status(true) : .deleted(count: count)
    }

    /// The stores `anchor` concerns: a token's own store (the first store for a token that names
    /// none), or every store; 134501 for a token of a store the coordinator does not have.
    private static func stores(
        for anchor: HistoryChangeRequest.Anchor, in all: [PersistentStoreCoordinator.OpenedStore]
    ) throws -> [PersistentStoreCoordinator.OpenedStore] {
        guard case .token(let token) = anchor else { return all }
        if token.storeIdentifier.isEmpty { return Array(all.prefix(1)) }
        guard let store = all.first(where: { $0.identifier == token.storeIdentifier }) else {
            throw ContextError.make(134501, "store \(all.map(\.identifier).joined(separator: ", ")) not found in token \(token)")
        }
        return [store]
    }

    /// A reader of `db`'s history; when the store has none, nil if `skipping`, else 134091.
    private static func historyReader(_ db: Database, orNilWhen skipping: Bool) throws -> HistoryReader? {
        guard try PersistentHistoryLayout.isPresent(in: db) else {
            if skipping { return nil }
            throw noHistory
        }
        return HistoryReader(db: db)
    }

    /// 134091 when none of the stores tracks history.
    private static func requireHistory(untracked: Int, of count: Int) throws {
        if untracked == count { throw noHistory }
    }

    private static var noHistory: NSError {
        ContextError.make(
            134091, "the store does not track persistent history: it has no ATRANSACTION table (open it with persistent history tracking on)")
    }

    /// Whether history lost transactions after `token`'s: the oldest kept is more than one past
    /// it. Compared without adding to the token's number, which may be any integer.
    private static func hasExpired(_ token: HistoryToken, oldest: Int64) -> Bool {
        oldest > token.transactionNumber && oldest - 1 > token.transactionNumber
    }

    /// The reader's bound for `anchor`.
    private static func bound(of anchor: HistoryChangeRequest.Anchor) -> HistoryReader.Bound {
        switch anchor {
        case .none: .all
        case .date(let date): .timestamp(date.timeIntervalSinceReferenceDate)
        case .token(let token): .number(token.transactionNumber)
        }
    }

    /// `record` as a transaction of this context's model.
    private func transaction(_ record: HistoryRecord, in store: PersistentStoreCoordinator.OpenedStore, lists: inout HistoryPropertyLists) throws -> HistoryTransaction {
        let changes = try record.changes.map { change in
            guard let type = HistoryChangeType(rawValue: change.type) else {
                throw ContextError.make(134060, "change \(change.number) has change type \(change.type), which is not insert (0), update (1) or delete (2)")
            }
            let entity = try lists.entity(number: change.entityNumber, change: change.number)
            return HistoryChange(
                changeID: change.number, changeType: type,
                changedObjectID: store.objectID(number: change.entityNumber, entity.name, store.keys.key(change.primaryKey)),
                updatedProperties: type == .update ? change.changedColumns.map { lists.names(in: $0, of: entity) } ?? [] : nil,
                tombstone: type == .delete ? lists.tombstone(change.tombstones, of: entity) : nil,
                transactionNumber: record.number)
        }
        return HistoryTransaction(
            transactionNumber: record.number, timestamp: Date(timeIntervalSinceReferenceDate: record.timestamp), author: record.author,
            contextName: record.contextName, bundleID: record.bundleID, processID: record.processID, storeID: store.identifier, changes: changes)
    }
}
