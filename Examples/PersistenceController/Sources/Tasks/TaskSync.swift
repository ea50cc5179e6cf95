import Foundation
import ModelObjects
import ModelStack

/// The documents' background-sync pattern: a background context imports tasks (from a server, a
/// file) under its own transaction author; the view context takes in its saves as they happen
/// (``PersistenceController`` sets `automaticallyMergesChangesFromParent`); and persistent
/// history, read after the last token processed, brings in what other processes and batch
/// writes changed, which no did-save notification of this process announces.
///
/// ```swift
/// let sync = TaskSync(controller)
/// try await sync.importTasks(titles: downloaded)
/// for await _ in controller.container.persistentStoreCoordinator.remoteChanges() {
///     try await sync.processHistory()
/// }
/// ```
public final class TaskSync: Sendable {
    /// The transaction author of the importer's saves, so history can tell them from the app's.
    public static let importAuthor = "importer"

    private let container: PersistentContainer
    private let lastToken = TokenBox()

    /// A sync of the store `controller` loaded, starting from `token` (the last one processed by
    /// an earlier run, as ``token`` returned it), or from the beginning of history.
    public init(_ controller: PersistenceController, after token: HistoryToken? = nil) {
        container = controller.container
        lastToken.set(token)
    }

    /// The token of the last transaction processed: keep it (it is `Codable`) to resume there.
    public var token: HistoryToken? { lastToken.get() }

    /// Imports open tasks titled `titles` in one save of a background context.
    public func importTasks(titles: [String]) async throws {
        try await container.performBackgroundTask { context in
            context.transactionAuthor = Self.importAuthor
            context.name = "import"
            for title in titles {
                let task = TaskItem(context: context)
                task.title = title
                task.createdAt = Date()
            }
            try context.save()
        }
    }

    /// Merges into the view context the transactions recorded since the last token, except the
    /// importer's (the view context took those in when they were saved), and advances the token;
    /// returns how many transactions were merged.
    @discardableResult
    public func processHistory() async throws -> Int {
        let after = lastToken.get()
        let transactions = try await container.performBackgroundTask { context in
            try context.execute(HistoryChangeRequest.fetchHistory(after: after)).transactions
        }
        let foreign = transactions.filter { $0.author != Self.importAuthor }
        for transaction in foreign {
            ManagedObjectContext.mergeChanges(fromRemoteContextSave: transaction.objectIDNotification().userInfo ?? [:], into: [container.viewContext])
        }
        if let newest = transactions.last?.token { lastToken.set(newest) }
        return foreign.count
    }
}

/// The last token processed, shared between the queues that process history.
private final class TokenBox: @unchecked Sendable {
    private let lock = NSLock()
    private var token: HistoryToken?

    func get() -> HistoryToken? { lock.withLock { token } }
    func set(_ token: HistoryToken?) { lock.withLock { self.token = token } }
}
