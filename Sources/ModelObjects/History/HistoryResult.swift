import Foundation

/// What a ``HistoryChangeRequest`` gives (`NSPersistentHistoryResultType`, with Core Data's raw values).
public enum HistoryResultType: Int, Sendable {
    /// Whether the request succeeded.
    case statusOnly = 0
    /// The IDs of the objects changed in the range.
    case objectIDs = 1
    /// How many changes the range holds.
    case count = 2
    /// The transactions, without their changes.
    case transactionsOnly = 3
    /// The changes, oldest first, without their transactions.
    case changesOnly = 4
    /// The transactions with their changes (the default).
    case transactionsAndChanges = 5
}

/// What executing a ``HistoryChangeRequest`` gives (`NSPersistentHistoryResult`), in the form its
/// ``HistoryChangeRequest/resultType`` asks for.
public enum HistoryResult: Sendable {
    /// A fetch's transactions, oldest first (with their changes, or, for `.transactionsOnly`, none).
    case transactions([HistoryTransaction])
    /// A fetch's changes, oldest first (`.changesOnly`).
    case changes([HistoryChange])
    /// The objects a fetch's changes concern, each once, in the order first changed (`.objectIDs`).
    case objectIDs([ManagedObjectID])
    /// How many changes a fetch found (`.count`).
    case count(Int)
    /// Whether the request succeeded (`.statusOnly`): a request that fails throws instead.
    case status(Bool)
    /// How many transactions a deletion removed.
    case deleted(count: Int)

    /// The fetched transactions in the form `resultType` asks for.
    init(fetched transactions: [HistoryTransaction], as resultType: HistoryResultType) {
        switch resultType {
        case .transactionsAndChanges: self = .transactions(transactions)
        case .transactionsOnly: self = .transactions(transactions.map { $0.with(changes: []) })
        case .changesOnly: self = .changes(transactions.flatMap(\.changes))
        case .count: self = .count(transactions.reduce(0) { $0 + $1.changes.count })
        case .statusOnly: self = .status(true)
        case .objectIDs:
            var seen = Set<ManagedObjectID>()
            self = .objectIDs(transactions.flatMap(\.changes).map(\.changedObjectID).filter { seen.insert($0).inserted })
        }
    }

    /// A fetch's transactions; empty for any other result.
    public var transactions: [HistoryTransaction] {
        if case .transactions(let found) = self { return found }
        return []
    }

    /// The result as `NSPersistentHistoryResult.result` gives it, for code that casts it:
    /// `[HistoryTransaction]`, `[HistoryChange]`, `[ManagedObjectID]`, an `Int` count or a `Bool`
    /// status; a deletion's count as `Int`.
    public var result: Any? {
        switch self {
        case .transactions(let found): found
        case .changes(let found): found
        case .objectIDs(let found): found
        case .count(let count): count
        case .status(let succeeded): succeeded
        case .deleted(let count): count
        }
    }
}
