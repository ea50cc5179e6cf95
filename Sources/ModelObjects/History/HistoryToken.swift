import Foundation

/// A place in a store's persistent history (`NSPersistentHistoryToken`): the store and the number
/// of the last transaction seen. Apps keep the token of the last transaction they processed
/// (it is `Codable`, so it archives with `PropertyListEncoder` or `JSONEncoder`) and fetch the
/// history after it next time. Tokens of one store compare by transaction number.
public struct HistoryToken: Sendable, Hashable, Codable, Comparable, CustomStringConvertible {
    /// The store's `NSStoreUUID`.
    public let storeIdentifier: String
    /// The transaction's number (`ATRANSACTION.Z_PK`).
    public let transactionNumber: Int64

    /// The token of transaction `transactionNumber` of the store whose `NSStoreUUID` is `storeIdentifier`.
    public init(storeIdentifier: String, transactionNumber: Int64) {
        self.storeIdentifier = storeIdentifier
        self.transactionNumber = transactionNumber
    }

    /// Whether `lhs` comes before `rhs`: by transaction number, then by store.
    public static func < (lhs: Self, rhs: Self) -> Bool {
        (lhs.transactionNumber, lhs.storeIdentifier) < (rhs.transactionNumber, rhs.storeIdentifier)
    }

    /// Core Data's spelling: `{ "<NSStoreUUID>" = <number>; }`.
    public var description: String { "<HistoryToken - { \"\(storeIdentifier)\" = \(transactionNumber); }>" }
}
