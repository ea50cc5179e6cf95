import Foundation
import GRDB
import ModelSchema
import ModelStore
import Synchronization

/// What contexts read and write through (`NSPersistentStoreCoordinator`): a model and the stores
/// holding its objects, each store those of its configuration, found when first used so that a
/// container's contexts can be made before its stores are loaded, as Core Data's can.
public final class PersistentStoreCoordinator: Sendable {
    /// The model whose objects the stores hold.
    public let managedObjectModel: ManagedObjectModel
    private let provider: @Sendable () -> [(database: any DatabaseWriter, configuration: String?)]
    private let opened = Mutex<OpenedStores?>(nil)
    /// For each store, in order, its file when its description asks for remote-change notifications.
    private let remoteChangeURLs: @Sendable () -> [URL?]
    /// The watchers of those files, by file, from the stores' opening to the coordinator's end.
    let remoteChangeWatchers = Mutex<[URL: RemoteChangeWatcher]>([:])
    /// The managed object class of each entity.
    let classes = ManagedObjectClasses()
    /// How many saves wrote through the coordinator: values read before the last one may be
    /// stale, as Core Data's row cache is kept up to date by its coordinator's saves (not by batch
    /// requests or other processes).
    let saveCount = Atomic<Int>(0)

    /// Records a save through the coordinator (one that wrote, or tried to).
    func countSave() {
        saveCount.add(1, ordering: .relaxed)
    }

    /// A loaded store: its database and the public object naming it.
    struct OpenedStore: Sendable {
        var database: any DatabaseWriter
        var persistentStore: PersistentStore
        /// The scopes the IDs of the store's rows share, by entity number.
        var scopes: IDScopes

        /// The store's `NSStoreUUID`.
        var identifier: String { persistentStore.identifier }
        /// The store's place among the coordinator's stores.
        var index: Int { persistentStore.index }
        /// How the store's primary keys are told from other stores' in the object layer.
        var keys: KeySpace { KeySpace(store: index) }

        /// The ID of the object `key` (of this store's key space) of the entity numbered `number`, named `entity`.
        func objectID(number: Int, _ entity: String, _ key: Int64) -> ManagedObjectID {
            ManagedObjectID(scope: scopes.scope(number) ?? .init(entityName: entity, storeIdentifier: identifier), primaryKey: key)
        }
    }

    /// The loaded stores in the order they were added, and the store of each entity: the first
    /// whose configuration holds it, as Core Data assigns a new object to "the first writable
    /// store supporting the entity" (`obtainPermanentIDs(for:)`).
    struct OpenedStores: Sendable {
        var all: [OpenedStore]
        /// The index in `all` of each entity's store, by entity number; -1 for none.
        var byNumber: [Int]
        /// The other stores whose configuration holds an entity too, by entity number: fetches
        /// read them as well, and a new object goes there when assigned to one.
        var alsoHeldBy: [Int: [Int]]
        /// One store holds every entity (the common case): nothing needs routing.
        var isSingle: Bool
        /// The key spaces of stores IDs name that the coordinator lacks.
        var foreign = ForeignKeySpaces()

        /// The store of the entity numbered `number`.
        func store(forNumber number: Int) throws -> OpenedStore {
            if isSingle { return all[0] }
            guard number >= 0, number < byNumber.count, byNumber[number] >= 0 else {
                throw ContextError.make(134020, "no store of this coordinator holds entity number \(number): its configuration is in none")
            }
            return all[byNumber[number]]
        }

        /// The store of the object `key` of the entity numbered `number`: the one its key space
        /// names, or for a new object's stand-in key the entity's.
        func store(of key: ObjectKey) throws -> OpenedStore {
            if key.key <= 0 { return try store(forNumber: key.number) }
            let index = KeySpace.store(of: key.key)
            guard index < all.count else { throw ContextError.make(134060, "the object is in a store this coordinator does not have") }
            return isSingle ? all[0] : all[index]
        }

        /// The stores whose configuration holds the entity numbered `number`, the first first.
        func stores(holding number: Int) -> [OpenedStore] {
            guard number >= 0, number < byNumber.count, byNumber[number] >= 0 else { return isSingle ? all : [] }
            return [all[byNumber[number]]] + (alsoHeldBy[number] ?? []).map { all[$0] }
        }

        /// `id` with its key in the key space of the store its store part names (see
        /// ``PersistentStoreCoordinator/normalized(_:)``).
        func normalized(_ id: ManagedObjectID) -> ManagedObjectID {
            if id.isTemporaryID { return id }
            // An ID of a store this coordinator lacks gets keys no store has (its store's own, among
            // such stores): it names no row here, nor another such store's object.
            return id.inKeySpace(store(of: id)?.keys ?? foreign.keys(of: id))
        }

        /// The store a permanent ID's store part names, if the coordinator has it.
        func store(of id: ManagedObjectID) -> OpenedStore? {
            let identifier = id.storeIdentifier
            return all.first { $0.identifier == identifier }
        }
    }

    /// A coordinator for `model` over the store `database` opened (read-only or for writing),
    /// with `CoreDataFunctions.registering(in:)` in its configuration so that fetches with string
    /// operators and saves of derived attributes find Core Data's SQL functions. Within this
    /// package only (the CLI, tests): apps get a coordinator from a container.
    package convenience init(model: ManagedObjectModel, database: any DatabaseWriter) {
        self.init(model: model) { [(database, nil)] }
    }

    /// A coordinator for `model` over several stores, each opened for the configuration named
    /// beside it (nil for the default one, every entity), in the order Core Data would have
    /// added them: an entity in several configurations lives in the first store holding it.
    /// Within this package only, as the initializer above.
    package convenience init(model: ManagedObjectModel, stores: [(database: any DatabaseWriter, configuration: String?)]) {
        self.init(model: model) { stores }
    }

    init(
        model: ManagedObjectModel, provider: @escaping @Sendable () -> [(database: any DatabaseWriter, configuration: String?)],
        remoteChangeURLs: @escaping @Sendable () -> [URL?] = { [] }
    ) {
        managedObjectModel = model
        self.provider = provider
        self.remoteChangeURLs = remoteChangeURLs
        ModelRegistry.shared.register(model, classes: classes)
    }

    /// The stores, opened on first use; throws Core Data's "no persistent stores" error before
    /// any is loaded.
    func stores() throws -> OpenedStores {
        if let known = opened.withLock({ $0 }) { return known }
        let sources = provider()
        guard !sources.isEmpty else {
            throw ContextError.make(134060, "this coordinator has no persistent stores: load them first")
        }
        var all = [OpenedStore]()
        let rows = managedObjectModel.rows
        var byNumber = Array(repeating: -1, count: (rows.layout.entities.map(\.number).max() ?? 0) + 1)
        var alsoHeldBy = [Int: [Int]]()
        for (index, source) in sources.enumerated() {
            let identifier = try ContextError.mappingStore(reading: true) { try source.database.read { try StoreMetadata.read(from: $0)?.uuid } } ?? ""
            all.append(OpenedStore(
                database: source.database,
                persistentStore: PersistentStore(identifier: identifier, database: source.database, configuration: source.configuration, index: index),
                scopes: IDScopes(rows.layout.entities.map { ($0.number, $0.name) }, storeIdentifier: identifier)))
            for name in managedObjectModel.version.entityNames(inConfiguration: source.configuration) ?? [] {
                guard let number = rows.shape(named: name)?.number else { continue }
                if byNumber[number] < 0 { byNumber[number] = index } else { alsoHeldBy[number, default: []].append(index) }
            }
        }
        let numbers = rows.layout.entities.map(\.number)
        let stores = OpenedStores(
            all: all, byNumber: byNumber, alsoHeldBy: alsoHeldBy, isSingle: all.count == 1 && numbers.allSatisfy { byNumber[$0] == 0 })
        opened.withLock { $0 = stores }
        // Remote changes are posted for each store whose description asks for them.
        for (index, url) in remoteChangeURLs().enumerated() where index < all.count {
            if let url { startPostingRemoteChanges(for: url, storeIdentifier: all[index].identifier) }
        }
        return stores
    }

    /// The first store, which holds every entity when it is the only one.
    func store() throws -> OpenedStore { try stores().all[0] }

    /// The store of the entity numbered `number`.
    func store(forNumber number: Int) throws -> OpenedStore { try stores().store(forNumber: number) }

    /// The first loaded store's `NSStoreUUID`, which permanent object IDs of its objects carry.
    public func storeIdentifier() throws -> String { try store().identifier }

    /// The `NSStoreUUID` of every loaded store, in the order they were added.
    public func storeIdentifiers() throws -> [String] { try stores().all.map(\.identifier) }
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
    /// model and its store is one of this coordinator's; nil otherwise, as Core Data answers.
    public func managedObjectID(forURIRepresentation uri: URL) -> ManagedObjectID? {
        guard let id = ManagedObjectID(uriRepresentation: uri), managedObjectModel.entitiesByName[id.entityName] != nil else { return nil }
        if id.isTemporaryID { return id }
        guard let store = (try? stores())?.store(of: id) else { return nil }
        return id.inKeySpace(store.keys)
    }

    /// `id` with its key in the key space of this coordinator's store that its store part names
    /// (an ID another coordinator made may number its stores otherwise); as it is when the
    /// coordinator has no such store.
    func normalized(_ id: ManagedObjectID) -> ManagedObjectID {
        (try? stores())?.normalized(id) ?? id
    }
}
