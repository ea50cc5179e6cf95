import Foundation

/// A read or a pruning of a store's persistent history (`NSPersistentHistoryChangeRequest`),
/// executed through a context with ``ManagedObjectContext/execute(_:)->HistoryResult``. Anchors are exclusive,
/// as in Core Data: a fetch returns the transactions strictly after its anchor, a deletion
/// removes those strictly before it and keeps the anchor.
public final class HistoryChangeRequest: Sendable, CustomStringConvertible {
    /// Fetch or delete.
    enum Operation: Sendable {
        case fetch
        case delete
    }

    /// Where the request's range of transactions ends.
    enum Anchor: Sendable {
        /// No anchor: every transaction.
        case none
        case token(HistoryToken)
        case date(Date)
    }

    let operation: Operation
    let anchor: Anchor
    private let affected = Mutex<[PersistentStore]?>(nil)
    private let tailoring = Mutex<FetchRequest<Any>?>(nil)
    private let kind = Mutex(HistoryResultType.transactionsAndChanges)

    /// The stores the request runs in (of its context's coordinator); every store when nil.
    public var affectedStores: [PersistentStore]? {
        get { affected.withLock { $0 } }
        set { affected.withLock { $0 = newValue } }
    }

    /// What the request gives (`resultType`); transactions with their changes by default, as in
    /// Core Data.
    public var resultType: HistoryResultType {
        get { kind.withLock { $0 } }
        set { kind.withLock { $0 = newValue } }
    }

    /// A fetch's tailoring (`fetchRequest`): a request of ``HistoryTransaction/fetchRequest``
    /// whose predicate picks transactions, or of ``HistoryChange/fetchRequest`` picking changes
    /// (and the transactions that have any), within the request's range.
    public var fetchRequest: FetchRequest<Any>? {
        get { tailoring.withLock { $0 } }
        set { tailoring.withLock { $0 = newValue } }
    }

    /// The token a request after or before a token names (`token`); nil for the others.
    public var token: HistoryToken? {
        if case .token(let token) = anchor { return token }
        return nil
    }

    private init(_ operation: Operation, _ anchor: Anchor) {
        self.operation = operation
        self.anchor = anchor
    }

    // MARK: - Fetching

    /// The transactions after `token`, or every transaction when it is nil.
    public static func fetchHistory(after token: HistoryToken?) -> HistoryChangeRequest {
        HistoryChangeRequest(.fetch, token.map(Anchor.token) ?? .none)
    }

    /// The transactions recorded after `date`.
    public static func fetchHistory(after date: Date) -> HistoryChangeRequest {
        HistoryChangeRequest(.fetch, .date(date))
    }

    /// The transactions after `transaction`, or every transaction when it is nil.
    public static func fetchHistory(after transaction: HistoryTransaction?) -> HistoryChangeRequest {
        fetchHistory(after: transaction?.token)
    }

    /// The transactions `fetchRequest` picks among every transaction (`fetchHistory(withFetch:)`).
    public static func fetchHistory(withFetch fetchRequest: FetchRequest<Any>) -> HistoryChangeRequest {
        let request = HistoryChangeRequest(.fetch, .none)
        request.fetchRequest = fetchRequest
        return request
    }

    // MARK: - Deleting

    /// Deletes the transactions before `token`, or every transaction when it is nil.
    public static func deleteHistory(before token: HistoryToken?) -> HistoryChangeRequest {
        HistoryChangeRequest(.delete, token.map(Anchor.token) ?? .none)
    }

    /// Deletes the transactions recorded before `date`.
    public static func deleteHistory(before date: Date) -> HistoryChangeRequest {
        HistoryChangeRequest(.delete, .date(date))
    }

    /// Deletes the transactions before `transaction`, or every transaction when it is nil.
    public static func deleteHistory(before transaction: HistoryTransaction?) -> HistoryChangeRequest {
        deleteHistory(before: transaction?.token)
    }

    /// What the request does and from which anchor.
    public var description: String {
        let anchor = switch anchor {
        case .none: "all"
        case .token(let token): "\(operation == .fetch ? "after" : "before") \(token)"
        case .date(let date): "\(operation == .fetch ? "after" : "before") \(date)"
        }
        return "HistoryChangeRequest \(operation == .fetch ? "fetch" : "delete") \(anchor)"
    }
}
