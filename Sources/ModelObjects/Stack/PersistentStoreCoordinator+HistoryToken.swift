import Foundation
import GRDB
import ModelStore

extension PersistentStoreCoordinator {
    /// The token of the store's history as it is now (`currentPersistentHistoryToken(fromStores:)`):
    /// a history fetch after it returns the transactions recorded from now on. It stands for the
    /// newest transaction, or for none yet (number 0, or the last number handed out when history
    /// was deleted), so a store that tracks history but recorded nothing has a token too (as
    /// Core Data's has: CoreDataPlus's `test_MergeHistoryAfterNilTokenWithoutAnyHistoryChanges`).
    ///
    /// `stores` nil or empty means every store, as in Core Data; stores of another coordinator are
    /// left out. A token is one store's here: with several stores that track history it is the
    /// first's. Nil when none of them tracks history or none can be read.
    public func currentPersistentHistoryToken(fromStores stores: [PersistentStore]?) -> HistoryToken? {
        guard let opened = try? self.stores().all else { return nil }
        let chosen = (stores ?? []).isEmpty ? opened : opened.filter { store in stores?.contains { $0 === store.persistentStore } ?? false }
        for store in chosen {
            if let number = try? Self.currentTransactionNumber(of: store) {
                return HistoryToken(storeIdentifier: store.identifier, transactionNumber: number)
            }
        }
        return nil
    }

    /// The number of `store`'s newest transaction, or the one before the next to be handed out
    /// when it keeps none; nil when the store does not track history.
    private static func currentTransactionNumber(of store: OpenedStore) throws -> Int64? {
        try store.database.read { db in
            guard try PersistentHistoryLayout.isPresent(in: db) else { return nil }
            let reader = HistoryReader(db: db)
            if let newest = try reader.newestTransactionNumber() { return newest }
            let next = try reader.oldestRetainedNumber()
            return next == .min ? next : next - 1
        }
    }
}
