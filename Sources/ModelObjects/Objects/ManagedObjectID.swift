import Foundation
import ModelStore
import Synchronization

/// The identity of a managed object (`NSManagedObjectID`), which crosses queues where objects do
/// not: a permanent ID names the row (`x-coredata://<NSStoreUUID>/<Entity>/p<Z_PK>`); a new
/// object's temporary ID (`x-coredata:///<Entity>/t<UUID><n>`) lasts until it is saved or
/// given a permanent ID.
public struct ManagedObjectID: Sendable, Hashable, CustomStringConvertible {
    /// The ID's entity and store, shared by the IDs of one entity in one store.
    let scope: Scope
    /// The object's key in its context's tables: the row's primary key in its store's key space
    /// (``KeySpace``), or for a temporary ID the negated number of the new object, which no row
    /// has (keys start at 1). A child context refers to its parent's unsaved objects by it.
    let rowKey: Int64

    /// The entity and store an ID names, one object shared by the IDs of an entity's rows in a
    /// store (a store keeps one per entity, an entity description one for its new objects): an ID
    /// is then two words, and the sets of IDs a save posts, and every object, are smaller.
    final class Scope: Sendable {
        let entityName: String
        /// The store's `NSStoreUUID`; empty for a temporary ID.
        let storeIdentifier: String

        init(entityName: String, storeIdentifier: String) {
            self.entityName = entityName
            self.storeIdentifier = storeIdentifier
        }

        /// Whether `other` names the same entity and store: the same object, as the IDs of one
        /// context's rows share, or equal names.
        func names(sameAs other: Scope) -> Bool {
            self === other || (entityName == other.entityName && storeIdentifier == other.storeIdentifier)
        }
    }

    /// The object's own entity.
    public var entityName: String { scope.entityName }

    /// The store's `NSStoreUUID`; empty for a temporary ID.
    public var storeIdentifier: String { scope.storeIdentifier }

    /// The ID of row `primaryKey` (in its store's key space) of the entity and store `scope` names.
    init(scope: Scope, primaryKey: Int64) {
        self.scope = scope
        rowKey = primaryKey
    }

    init(entityName: String, storeIdentifier: String, primaryKey: Int64) {
        self.init(scope: Scope(entityName: entityName, storeIdentifier: storeIdentifier), primaryKey: primaryKey)
    }

    /// The temporary ID of new object `number`, of the entity `scope` names, whose store part is empty.
    init(temporaryIn scope: Scope, number: Int64) {
        self.scope = scope
        rowKey = -number
    }

    /// Hashes the key alone: IDs of one context rarely share a key across entities and stores,
    /// and a registry of a million objects hashes it a million times on each fetch.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(rowKey)
    }

    /// Compares the keys first: IDs in one table differ there, and strings cost more to compare.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.rowKey == rhs.rowKey && lhs.scope.names(sameAs: rhs.scope)
    }

    /// Whether the object has not been saved or given a permanent ID yet.
    public var isTemporaryID: Bool { rowKey < 0 }

    /// The row's primary key (`Z_PK`); nil for a temporary ID.
    public var primaryKey: Int64? {
        rowKey >= 0 ? KeySpace.primaryKey(of: rowKey) : nil
    }

    /// The same ID with its key in the key space `keys` (of the store its store part names).
    func inKeySpace(_ keys: KeySpace) -> ManagedObjectID {
        guard rowKey >= 0, KeySpace(containing: rowKey) != keys else { return self }
        return ManagedObjectID(scope: scope, primaryKey: keys.key(KeySpace.primaryKey(of: rowKey)))
    }

    /// The ID as Core Data writes it in a URI.
    public func uriRepresentation() -> URL {
        URL(string: description) ?? URL(fileURLWithPath: "/")
    }

    /// The ID's URI text: `x-coredata://<store UUID>/<Entity>/p<Z_PK>`, or `x-coredata:///<Entity>/t<UUID><n>` while temporary.
    public var description: String {
        let entity = entityName.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? entityName
        if rowKey < 0 { return "x-coredata:///\(entity)/t\(TemporaryNumbers.processIdentifier)\(-rowKey)" }
        return "x-coredata://\(storeIdentifier)/\(entity)/p\(KeySpace.primaryKey(of: rowKey))"
    }

    /// The ID a URI names, whatever its entity; the coordinator checks the entity and store.
    init?(uriRepresentation uri: URL) {
        let text = uri.absoluteString
        guard text.hasPrefix("x-coredata://") else { return nil }
        let parts = text.dropFirst("x-coredata://".count).split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 3, let entity = parts[1].removingPercentEncoding, let last = parts[2].first else { return nil }
        let rest = String(parts[2].dropFirst())
        if last == "p", !parts[0].isEmpty, let key = Int64(rest), key >= 0 {
            self.init(entityName: entity, storeIdentifier: String(parts[0]), primaryKey: key)
        } else if last == "t", parts[0].isEmpty, rest.hasPrefix(TemporaryNumbers.processIdentifier),
            let number = Int64(rest.dropFirst(TemporaryNumbers.processIdentifier.count))
        {
            self.init(temporaryIn: Scope(entityName: entity, storeIdentifier: ""), number: number)
        } else {
            return nil
        }
    }
}

/// Numbers handed to new objects, unique in the process.
enum TemporaryNumbers {
    private static let counter = Atomic<Int64>(0)
    /// The UUID temporary IDs of this process start with, as Core Data's do.
    static let processIdentifier = UUID().uuidString

    static func next() -> Int64 {
        counter.add(1, ordering: .relaxed).newValue
    }
}
