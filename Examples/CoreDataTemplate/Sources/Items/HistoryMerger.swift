import CoreData

/// Brings other authors' saves into the view context through persistent history, as the guides
/// do after a remote-change notification: fetch the transactions after the last token seen,
/// leave out the app's own, merge each, and remember the newest token.
final class HistoryMerger {
    private let container: NSPersistentContainer
    private(set) var lastToken: NSPersistentHistoryToken?

    init(container: NSPersistentContainer) {
        self.container = container
    }

    /// Merges every transaction of another author since the last call; returns how many.
    @discardableResult
    func mergeNewTransactions() throws -> Int {
        let context = container.newBackgroundContext()
        let transactions: [NSPersistentHistoryTransaction] = try context.performAndWait {
            let request = NSPersistentHistoryChangeRequest.fetchHistory(after: lastToken)
            if let fetchRequest = NSPersistentHistoryTransaction.fetchRequest {
                fetchRequest.predicate = NSPredicate(format: "%K != %@", "author", ItemsContainer.appAuthor)
                request.fetchRequest = fetchRequest
            }
            let result = try context.execute(request) as? NSPersistentHistoryResult
            return result?.result as? [NSPersistentHistoryTransaction] ?? []
        }
        let viewContext = container.viewContext
        viewContext.performAndWait {
            for transaction in transactions {
                viewContext.mergeChanges(fromContextDidSave: transaction.objectIDNotification())
                lastToken = transaction.token
            }
        }
        return transactions.count
    }
}
