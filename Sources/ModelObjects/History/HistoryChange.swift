import Foundation

/// What happened to an object in a transaction (`NSPersistentHistoryChangeType`), with Core
/// Data's raw values, which `ACHANGE.ZCHANGETYPE` stores.
public enum HistoryChangeType: Int, Sendable, CustomStringConvertible {
    /// The object was inserted.
    case insert = 0
    /// The object's values changed.
    case update = 1
    /// The object was deleted.
    case delete = 2

    /// The change type's name.
    public var description: String {
        switch self {
        case .insert: "insert"
        case .update: "update"
        case .delete: "delete"
        }
    }
}

/// One object's change in a transaction of persistent history (`NSPersistentHistoryChange`).
public struct HistoryChange: @unchecked Sendable, CustomStringConvertible {
    /// The change's number (`ACHANGE.Z_PK`), in the order changes were recorded.
    public let changeID: Int64
    /// Whether the object was inserted, updated or deleted.
    public let changeType: HistoryChangeType
    /// The object changed, its own entity and primary key.
    public let changedObjectID: ManagedObjectID
    /// For an update, the names of the properties it changed, in name order; nil otherwise.
    public let updatedProperties: [String]?
    /// For a delete, the values of the deleted object's attributes marked to be preserved
    /// (`preservesValueInHistoryOnDeletion`) that were not nil, by name, as objects hold them
    /// (Foundation's immutable value types, hence `Sendable`); nil otherwise.
    public let tombstone: [String: Any]?
    /// The number of the transaction the change belongs to.
    public let transactionNumber: Int64

    /// The change type and the object's ID.
    public var description: String { "\(changeType) \(changedObjectID)" }

    /// The name of Core Data's entity of changes (`NSPersistentHistoryChange.entityDescription`),
    /// as `Z_PRIMARYKEY` of a store written by Core Data names it (entity 16001).
    public static let entityName = "CHANGE"

    /// A fetch request of changes (`NSPersistentHistoryChange.fetchRequest`), to set a predicate
    /// on (`changeType == %d`, `changedEntity == %@`) and give a history fetch as its
    /// ``HistoryChangeRequest/fetchRequest``. Optional as Core Data's is; never nil here.
    public static var fetchRequest: FetchRequest<Any>? { FetchRequest(entityName: entityName) }
}
