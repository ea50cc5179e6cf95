import Foundation
import GRDB
import ModelSchema
import ModelStore

/// What contexts read and write through (`NSPersistentStoreCoordinator`): a model and the store
/// holding its objects, found when first used so that a container's contexts can be made before
/// its store is loaded, as Core Data's can.
public final class PersistentStoreCoordinator: Sendable {
    public let managedObjectModel: ManagedObjectModel
    private let provider: @Sendable () -> (any DatabaseWriter)?
    private let opened = Mutex<OpenedStore?>(nil)
    /// The store file to post remote-change notifications for, when its description asks.
    private let remoteChangeURL: @Sendable () -> URL?
    /// The watcher of that file, from the store's opening to the coordinator's end.
    let remoteChangeWatcher = Mutex<RemoteChangeWatcher?>(nil)
    /// The managed object class of each entity.
    let classes = ManagedObjectClasses()

    /// A loaded store: its database and its `NSStoreUUID`.
    struct OpenedStore: Sendable {
        var database: any DatabaseWriter
        var identifier: String
        /// An ID of the store, whose store part every other ID of it copies.
        var anyID: ManagedObjectID

        /// The ID of row `key` of `entity`.
        func objectID(_ entity: String, _ key: Int64) -> ManagedObjectID {
            ManagedObjectID(entityName: entity, storeOf: anyID, primaryKey: key)
        }
    }

    /// A coordinator for `model` over the store `database` opened (read-only or for writing),
    /// with `CoreDataFunctions.registering(in:)` in its configuration so that fetches with string
    /// operators and saves of derived attributes find Core Data's SQL functions.
    public convenience init(model: ManagedObjectModel, database: any DatabaseWriter) {
        self.init(model: model) { database }
    }

    init(
        model: ManagedObjectModel, provider: @escaping @Sendable () -> (any DatabaseWriter)?,
        remoteChangeURL: @escaping @Sendable () -> URL? = { nil }
    ) {
        managedObjectModel = model
        self.provider = provider
        self.remoteChangeURL = remoteChangeURL
    }

    /// The store, opened on first use; throws Core Data's "no persistent stores" error before any
    /// is loaded.
    func store() throws -> OpenedStore {
        if let known = opened.withLock({ $0 }) { return known }
        guard let database = provider() else {
            throw ContextError.make(134060, "this coordinator has no persistent stores: load them first")
        }
        let identifier = try database.read { try StoreMetadata.read(from: $0)?.uuid } ?? ""
        let store = OpenedStore(database: database, identifier: identifier, anyID: ManagedObjectID(entityName: "", storeIdentifier: identifier, primaryKey: 0))
        opened.withLock { $0 = store }
        if let url = remoteChangeURL() { startPostingRemoteChanges(for: url, storeIdentifier: identifier) }
        return store
    }

    /// The loaded store's `NSStoreUUID`, which permanent object IDs carry.
    public func storeIdentifier() throws -> String { try store().identifier }
}

/// A value guarded by a lock.
final class Mutex<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) { self.value = value }

    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}

extension PersistentStoreCoordinator {
    /// The ID a URI names (`x-coredata://<NSStoreUUID>/<Entity>/p<key>`) when its entity is in the
    /// model and its store is this one; nil otherwise, as Core Data answers.
    public func managedObjectID(forURIRepresentation uri: URL) -> ManagedObjectID? {
        guard let id = ManagedObjectID(uriRepresentation: uri), managedObjectModel.entitiesByName[id.entityName] != nil else { return nil }
        guard id.isTemporaryID || (try? storeIdentifier()) == id.storeIdentifier else { return nil }
        return id
    }
}
