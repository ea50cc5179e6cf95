import Foundation
import ModelStore
import Synchronization

/// The identity of a managed object (`NSManagedObjectID`), which crosses queues where objects do
/// not: a permanent ID names the row (`x-coredata://<NSStoreUUID>/<Entity>/p<Z_PK>`); a new
/// object's temporary ID (`x-coredata:///<Entity>/t<UUID><n>`) lasts until it is saved or
/// given a permanent ID.
public struct ManagedObjectID: Sendable, Hashable, CustomStringConvertible {
    /// The object's own entity.
    public let entityName: String
    let store: Store
    let reference: Reference

    /// The store's `NSStoreUUID`; empty for a temporary ID.
    public var storeIdentifier: String {
        switch store {
        case .none: ""
        case .uuid(let uuid): uuid.uuidString
        case .text(let text): text
        }
    }

    /// The store an ID names: its UUID kept as 16 bytes when its text is a UUID's canonical form,
    /// so that copying and comparing IDs, which fetches and saves do by the million, touches no
    /// reference count.
    enum Store: Sendable, Hashable {
        case none
        case uuid(UUID)
        case text(String)

        init(_ text: String) {
            if text.isEmpty {
                self = .none
            } else if let uuid = UUID(uuidString: text), uuid.uuidString == text {
                self = .uuid(uuid)
            } else {
                self = .text(text)
            }
        }
    }

    enum Reference: Sendable, Hashable {
        case permanent(Int64)
        /// A new object's number in this process.
        case temporary(Int64)
    }

    init(entityName: String, storeIdentifier: String, primaryKey: Int64) {
        self.entityName = entityName
        store = Store(storeIdentifier)
        reference = .permanent(primaryKey)
    }

    /// The ID of row `primaryKey` of `entityName` in the store `other` names (its identifier parsed once).
    init(entityName: String, storeOf other: ManagedObjectID, primaryKey: Int64) {
        self.entityName = entityName
        store = other.store
        reference = .permanent(primaryKey)
    }

    init(temporaryFor entityName: String, reference: Int64) {
        self.entityName = entityName
        store = .none
        self.reference = .temporary(reference)
    }

    /// Hashes the key alone: IDs of one context rarely share a key across entities and stores,
    /// and a registry of a million objects hashes it a million times on each fetch.
    public func hash(into hasher: inout Hasher) {
        switch reference {
        case .permanent(let key): hasher.combine(key)
        case .temporary(let number): hasher.combine(~number)
        }
    }

    /// Compares the keys first: IDs in one table differ there, and strings cost more to compare.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.reference == rhs.reference && lhs.entityName == rhs.entityName && lhs.store == rhs.store
    }

    /// Whether the object has not been saved or given a permanent ID yet.
    public var isTemporaryID: Bool {
        if case .temporary = reference { return true }
        return false
    }

    /// The row's primary key (`Z_PK`); nil for a temporary ID.
    public var primaryKey: Int64? {
        if case .permanent(let key) = reference { return KeySpace.primaryKey(of: key) }
        return nil
    }

    /// Whether `other` names the same store.
    func isOfSameStore(as other: ManagedObjectID) -> Bool { store == other.store }

    /// The same ID with its key in the key space `keys` (of the store its store part names).
    func inKeySpace(_ keys: KeySpace) -> ManagedObjectID {
        guard case .permanent(let key) = reference, KeySpace(containing: key) != keys else { return self }
        return ManagedObjectID(entityName: entityName, storeOf: self, primaryKey: keys.key(KeySpace.primaryKey(of: key)))
    }

    /// The object's key in its context's tables: the row's primary key in its store's key space
    /// (``KeySpace``), or for a temporary ID the negated number of the new object, which no row
    /// has (keys start at 1). A child context refers to its parent's unsaved objects by it.
    var rowKey: Int64 {
        switch reference {
        case .permanent(let key): key
        case .temporary(let number): -number
        }
    }

    /// The ID as Core Data writes it in a URI.
    public func uriRepresentation() -> URL {
        URL(string: description) ?? URL(fileURLWithPath: "/")
    }

    /// The ID's URI text: `x-coredata://<store UUID>/<Entity>/p<Z_PK>`, or `x-coredata:///<Entity>/t<UUID><n>` while temporary.
    public var description: String {
        let entity = entityName.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? entityName
        switch reference {
        case .permanent(let key): return "x-coredata://\(storeIdentifier)/\(entity)/p\(KeySpace.primaryKey(of: key))"
        case .temporary(let number): return "x-coredata:///\(entity)/t\(TemporaryNumbers.processIdentifier)\(number)"
        }
    }

    /// The ID a URI names, whatever its entity; the coordinator checks the entity and store.
    init?(uriRepresentation uri: URL) {
        let text = uri.absoluteString
        guard text.hasPrefix("x-coredata://") else { return nil }
        let parts = text.dropFirst("x-coredata://".count).split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 3, let entity = parts[1].removingPercentEncoding, let last = parts[2].first else { return nil }
        let rest = String(parts[2].dropFirst())
        if last == "p", !parts[0].isEmpty, let key = Int64(rest) {
            self.init(entityName: entity, storeIdentifier: String(parts[0]), primaryKey: key)
        } else if last == "t", parts[0].isEmpty, rest.hasPrefix(TemporaryNumbers.processIdentifier),
            let number = Int64(rest.dropFirst(TemporaryNumbers.processIdentifier.count))
        {
            self.init(temporaryFor: entity, reference: number)
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
