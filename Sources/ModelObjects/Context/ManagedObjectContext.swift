import Dispatch
import Foundation
import ModelStore
import Synchronization

/// A scratch pad of managed objects on one queue (`NSManagedObjectContext`): it reads objects
/// from its coordinator's store, keeps their changes in memory and writes them in one
/// transaction on ``save()``. A context and its objects are used on its queue only (inside
/// ``perform(_:)->()`` or ``performAndWait(_:)``, or on the main thread for a main-queue context),
/// which modelc's checked mode (``ConcurrencyDebug``) enforces; object IDs cross queues. Its
/// configuration (name, merge policy, parent...) may be set before it is used, from anywhere.
public final class ManagedObjectContext: @unchecked Sendable {
    /// The queue a context runs on (`NSManagedObjectContextConcurrencyType`).
    public enum ConcurrencyType: Int, Sendable {
        /// A context of its own private queue, used inside `perform` and `performAndWait`.
        case privateQueueConcurrencyType = 1
        /// A context of the main queue, used on the main thread.
        case mainQueueConcurrencyType = 2
    }

    /// The queue the context and its objects are used on.
    public let concurrencyType: ConcurrencyType
    /// Where the context reads and saves; a child context's is its root's.
    public var persistentStoreCoordinator: PersistentStoreCoordinator? {
        didSet { lastMadeClass = nil }
    }
    /// The context a child context reads through and saves into (`parentContext`), instead of
    /// the store; set it before the context is used. The child keeps its parent alive.
    public var parent: ManagedObjectContext? {
        didSet { persistentStoreCoordinator = parent?.persistentStoreCoordinator }
    }
    /// A name for debugging, recorded in persistent history as the context name.
    public var name: String?
    /// The author recorded in persistent history for this context's saves.
    public var transactionAuthor: String?
    /// How conflicts with the store are resolved when saving; see ``MergePolicy``.
    public var mergePolicy: MergePolicy = .error
    /// Whether saves are merged into this context, on its queue, as they happen: a root
    /// context's, saves of the other root contexts on its coordinator; a child's, its parent's.
    public var automaticallyMergesChangesFromParent = false {
        didSet { if automaticallyMergesChangesFromParent != oldValue { observeSaves(automaticallyMergesChangesFromParent) } }
    }
    /// Where the context records its changes for undo and redo (`undoManager`): nil, the
    /// default, for none, as in Core Data; see ``undo()``. Set it on the context's queue.
    public var undoManager: ContextUndoManager? {
        didSet {
            if (oldValue == nil) != (undoManager == nil) { Self.undoingContexts.add(undoManager == nil ? -1 : 1, ordering: .relaxed) }
            undoManager?.attach(self)
        }
    }
    /// The objects an undo or redo in progress changed, to announce when it ends.
    var undone: UndoneChanges?
    /// The observer of other contexts' saves, while merging them.
    var saveObserver: ObserverToken?
    /// How many of the context's change sequences (``changes``, ``saves``, ``changes(for:)``) are
    /// observing its notifications now: each stops when its consumer does.
    let changeSequenceObservers = Atomic<Int>(0)
    /// The fetched results controllers following this context's changes, by identity.
    var changeHandlers: [ObjectIdentifier: WeakChangeHandler] = [:]
    /// The query generation the context reads, when pinned.
    var pinned: Pin?
    /// How old, in seconds, the saved values a fault kept from before it was refreshed may be to
    /// fulfill it instead of reading the store (`stalenessInterval`): negative (the default) for
    /// any age, 0 for none. Saves through the coordinator make older values stale whatever their
    /// age, as they update Core Data's row cache; batch requests and other processes do not.
    public var stalenessInterval: TimeInterval = -1
    /// Whether the context keeps every registered object alive; by default it keeps only those
    /// with unsaved changes, and the others live as long as the app holds them, as in Core Data.
    public var retainsRegisteredObjects: Bool {
        get { registered.retainsObjects }
        set {
            if violatesQueue() { return onQueue { self.retainsRegisteredObjects = newValue } }
            registered.retainsObjects = newValue
        }
    }

    let queue: DispatchQueue
    private let queueKey = DispatchSpecificKey<ObjectIdentifier>()
    /// The thread running a block of the context's queue while one runs (0 otherwise): the code
    /// that block calls is on the queue even inside another queue's `sync` (another context's
    /// `performAndWait`, a database transaction), where `getSpecific` sees only the inner queue.
    private let holder = Atomic<UInt>(0)

    /// Every object of the context by ID; inserted, updated and deleted ones in the order they changed.
    var registered = ObjectRegistry()
    var insertedList = ChangeList(.inserted)
    var updatedList = ChangeList(.updated)
    var deletedList = ChangeList(.deleted)
    /// How many of each list's objects the last objects-did-change notification covered (the
    /// lists only grow between saves; a removal at worst leaves an object unannounced).
    var noticed = (inserted: 0, updated: 0, deleted: 0)
    /// Objects changed since the last objects-did-change, those already announced as inserted or
    /// updated included (a second change before the save is announced again, as updated), and new
    /// objects deleted after their insertion was announced (announced as deleted).
    var changedSinceNotice: [ManagedObject] = []
    var discardedSinceNotice: [ManagedObject] = []
    /// Objects the app refreshed (`refresh(_:mergeChanges:)`, `refreshAllObjects()`) since the
    /// last objects-did-change, announced under `NSRefreshedObjectsKey`.
    var refreshedSinceNotice: [ManagedObject] = []
    /// The class whose objects ``entity(for:)`` last found the entity of, and the entity, until
    /// the coordinator changes: `init(context:)` in a loop then asks the coordinator's locked
    /// table once.
    var lastMadeClass: (type: ObjectIdentifier, entity: EntityDescription)?

    /// A context of a queue of `concurrencyType`, without a coordinator or parent yet.
    public init(concurrencyType: ConcurrencyType) {
        self.concurrencyType = concurrencyType
        queue = concurrencyType == .mainQueueConcurrencyType ? .main : DispatchQueue(label: "modelc.ManagedObjectContext")
        queue.setSpecific(key: queueKey, value: ObjectIdentifier(self))
    }

    /// A context of `concurrencyType` on `coordinator`'s stores: what a container hands out as its
    /// view context and its background contexts.
    public convenience init(concurrencyType: ConcurrencyType, coordinator: PersistentStoreCoordinator) {
        self.init(concurrencyType: concurrencyType)
        persistentStoreCoordinator = coordinator
    }

    deinit {
        // Objects do not keep their context alive, as in Core Data; those still held see it gone
        // (their reference to it is weak), and those only the table held go with it, the cycles
        // of objects holding one another through their to-ones broken first.
        if let saveObserver { NotificationCenter.default.removeObserver(saveObserver.observer) }
        if undoManager != nil { Self.undoingContexts.subtract(1, ordering: .relaxed) }
        registered.forEachObject { object in
            if !object.heldToOnes.isEmpty { object.heldToOnes = .none }
        }
        // Objects the app still holds leave the lists with their bits cleared (``ChangeList``).
        insertedList.removeAll()
        updatedList.removeAll()
        deletedList.removeAll()
    }

    // MARK: - Queues

    /// Whether the caller runs on the context's queue (for a main-queue context, also code on the
    /// main thread itself, whichever thread drains the main queue: on Linux `dispatchMain()` hands
    /// it to a worker thread).
    var isOnQueue: Bool {
        holder.load(ordering: .relaxed) == Self.currentThread || DispatchQueue.getSpecific(key: queueKey) == ObjectIdentifier(self)
            || (concurrencyType == .mainQueueConcurrencyType && Thread.isMainThread)
    }

    /// The calling thread, as a number.
    private static var currentThread: UInt {
        #if canImport(Darwin)
            UInt(bitPattern: pthread_self())
        #else
            pthread_self()
        #endif
    }

    /// Runs `body`, on the queue, as the block the queue runs now (see `holder`).
    private func holding<T>(_ body: () throws -> T) rethrows -> T {
        let previous = holder.exchange(Self.currentThread, ordering: .relaxed)
        defer { holder.store(previous, ordering: .relaxed) }
        return try body()
    }

    /// Runs `block` on the context's queue, later; the changes it made are then announced
    /// (objects-did-change) and their undo group closed, as Core Data's `perform` ends with
    /// processing pending changes.
    public func perform(_ block: @escaping @Sendable () -> Void) {
        queue.async {
            self.holding {
                block()
                self.endUndoEvent()
                self.postObjectsDidChange()
            }
        }
    }

    /// Runs `block` on the context's queue and returns its result.
    public func perform<T: Sendable>(_ block: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            queue.async {
                let result = self.holding {
                    let result = Result(catching: block)
                    self.endUndoEvent()
                    self.postObjectsDidChange()
                    return result
                }
                continuation.resume(with: result)
            }
        }
    }

    /// Runs `block` on the context's queue and waits for it; called on the queue, it runs at once
    /// (reentrant, as Core Data's).
    public func performAndWait<T>(_ block: () throws -> T) rethrows -> T {
        if isOnQueue { return try block() }
        return try queue.sync {
            try holding {
                defer {
                    endUndoEvent()
                    postObjectsDidChange()
                }
                return try block()
            }
        }
    }

    /// Runs `body` on the context's queue and waits for it, without processing its changes (no
    /// objects-did-change): how a child reads from and saves into its parent, whose changes are
    /// announced at the end of its own blocks.
    func onQueue<T>(_ body: () throws -> T) rethrows -> T {
        if isOnQueue { return try body() }
        return try queue.sync { try holding(body) }
    }

    /// Posts objects-did-change for the objects inserted, updated and deleted since the last one.
    func postObjectsDidChange() {
        let newlyInserted = insertedList.objects.dropFirst(noticed.inserted)
        let inserted = noticed.inserted == 0 ? insertedList.asSet() : Set(halfFull: newlyInserted)
        var deleted = Set(halfFull: deletedList.objects.dropFirst(noticed.deleted))
        // Objects announced before and changed again since are updated again. Those listed
        // already, as new or as updated, are marked noticed first, so that the changed objects
        // still awaiting notice after that are the ones to add: told apart by the object's flag,
        // without a set of the listed objects' identities (as many as the objects saved).
        var updatedObjects = Array(updatedList.objects.dropFirst(noticed.updated))
        if !changedSinceNotice.isEmpty {
            for object in newlyInserted { object.awaitsNotice = false }
            for object in updatedObjects { object.awaitsNotice = false }
            for object in changedSinceNotice where object.awaitsNotice {
                object.awaitsNotice = false
                if object.managedObjectContext === self, !object.deleted { updatedObjects.append(object) }
            }
        }
        let updated = noticed.updated == 0 && updatedObjects.count == updatedList.objects.count ? updatedList.asSet() : Set(halfFull: updatedObjects)
        changedSinceNotice = []
        deleted.formUnion(discardedSinceNotice)
        discardedSinceNotice = []
        let refreshed = Set(refreshedSinceNotice).filter {
            $0.managedObjectContext === self && !inserted.contains($0) && !updated.contains($0) && !deleted.contains($0)
        }
        refreshedSinceNotice = []
        guard !inserted.isEmpty || !updated.isEmpty || !deleted.isEmpty || !refreshed.isEmpty else { return }
        noticed = (insertedList.objects.count, updatedList.objects.count, deletedList.objects.count)
        var info: [AnyHashable: Any] = [NSInsertedObjectsKey: inserted, NSUpdatedObjectsKey: updated, NSDeletedObjectsKey: deleted]
        if !refreshed.isEmpty { info[NSRefreshedObjectsKey] = refreshed }
        NotificationCenter.default.post(name: Self.didChangeObjectsNotification, object: self, userInfo: info)
    }

    /// Forgets what awaited the next objects-did-change (a rollback, a reset).
    func forgetUnnoticedChanges() {
        for object in changedSinceNotice { object.awaitsNotice = false }
        changedSinceNotice = []
        discardedSinceNotice = []
        refreshedSinceNotice = []
    }

    // MARK: - Objects

    /// The objects changed since the last save.
    public var insertedObjects: Set<ManagedObject> {
        if violatesQueue() { return onQueue { self.insertedObjects } }
        return Set(insertedList.objects)
    }
    /// The objects whose values changed since the last save.
    public var updatedObjects: Set<ManagedObject> {
        if violatesQueue() { return onQueue { self.updatedObjects } }
        return Set(updatedList.objects)
    }
    /// The objects deleted since the last save.
    public var deletedObjects: Set<ManagedObject> {
        if violatesQueue() { return onQueue { self.deletedObjects } }
        return Set(deletedList.objects)
    }
    /// The objects the context knows that the app (or the context's changes) still holds.
    public var registeredObjects: Set<ManagedObject> {
        if violatesQueue() { return onQueue { self.registeredObjects } }
        return Set(registered.heldObjects() + insertedList.objects)
    }

    /// Whether anything was inserted, changed or deleted since the last save.
    public var hasChanges: Bool {
        if violatesQueue() { return onQueue { self.hasChanges } }
        return !insertedList.isEmpty || !updatedList.isEmpty || !deletedList.isEmpty
    }

    /// Inserts a new object: it gets a temporary ID and its attributes' default values. An object
    /// this context holds is left as it is, but for one it deleted, whose deletion is taken back.
    /// An object that left its context deleted is inserted anew, with the values it had and,
    /// when its deletion was saved, a new temporary ID: its old row is gone, and its key may be
    /// another store's.
    public func insert(_ object: ManagedObject) {
        if violatesQueue() { return onQueue { insert(object) } }
        if object.managedObjectContext === self {
            if object.deleted, !object.inserted { takeBackDeletion(of: object) }
            return
        }
        guard object.managedObjectContext == nil, !object.inserted else { return }
        adoptModelEntity(object)
        if object.deleted {
            object.deleted = false
            if !object.objectID.isTemporaryID {
                object.objectID = ManagedObjectID(temporaryIn: object.entity.temporaryIDScope, number: TemporaryNumbers.next())
            }
        }
        object.attach(to: self, id: object.objectID)
        object.inserted = true
        // A saved object's values become the new one's.
        let saved = object.committed
        object.committed = nil
        let defaults = object.entity.defaultValues
        object.changePending { values in
            if let saved { values.startWith(saved) }
            values.startWith(defaults)
        }
        for (name, value) in object.entity.transientDefaults where object.pending.transient(name) == nil {
            object.pending.setTransient(value, name: name)
            object.transients[name] = value
        }
        insertedList.add(object)
        if undoManager != nil { registerInsertUndo(object) }
        awakeFromInsert(object)
    }

    /// Marks `object` deleted; its relationships' delete rules apply when changes are processed
    /// (on save). Deleting a new object forgets it, and it reads as deleted (`isDeleted`), as Core
    /// Data's does.
    public func delete(_ object: ManagedObject) {
        if violatesQueue() { return onQueue { delete(object) } }
        guard object.managedObjectContext === self, !object.deleted else { return }
        if object.inserted {
            prepareForDeletion(object)
            unlinkEverything(object)
            // A new object announced as inserted is announced as deleted.
            if let index = insertedList.objects.firstIndex(where: { $0 === object }), index < noticed.inserted {
                noticed.inserted -= 1
                discardedSinceNotice.append(object)
            }
            insertedList.remove(object)
            registered.remove(object)
            object.inserted = false
            object.deleted = true
            object.detach()
            if undoManager != nil { registerDeleteUndo(object, wasInserted: true) }
            return
        }
        object.deleted = true
        updatedList.remove(object)
        deletedList.add(object)
        if undoManager != nil { registerDeleteUndo(object, wasInserted: false) }
    }

    /// Takes back the unsaved deletion of a saved object (`insert` of an object this context
    /// deleted): it is held as before, updated if it has changes. A deletion already announced by
    /// objects-did-change stays announced.
    private func takeBackDeletion(of object: ManagedObject) {
        if let index = deletedList.objects.firstIndex(where: { $0 === object }), index < noticed.deleted { noticed.deleted -= 1 }
        object.deleted = false
        deletedList.remove(object)
        if object.hasChanges { updatedList.add(object) }
        if undoManager != nil { registerInsertUndo(object) }
    }

    func markUpdated(_ object: ManagedObject) {
        object.lifecycle[.changedSinceWillSave] = true
        guard !object.deleted else { return }
        if !object.awaitsNotice {
            object.awaitsNotice = true
            changedSinceNotice.append(object)
        }
        guard !object.inserted else { return }
        updatedList.add(object)
    }

    /// `id` with this coordinator's key of its store (an ID another coordinator made may number
    /// its stores otherwise).
    func normalized(_ id: ManagedObjectID) -> ManagedObjectID {
        persistentStoreCoordinator?.normalized(id) ?? id
    }

    /// The object registered for `id`, without reading anything; nil when there is none, or when
    /// nothing but the context held it.
    public func registeredObject(for id: ManagedObjectID) -> ManagedObject? {
        if violatesQueue() { return onQueue { registeredObject(for: id) } }
        return registeredObject(under: normalized(id))
    }

    /// The object for `id`: the registered one, else a fault that reads its row when first touched.
    public func object(with id: ManagedObjectID) -> ManagedObject {
        if violatesQueue() { return onQueue { object(with: id) } }
        let id = normalized(id)
        if let known = registeredObject(under: id) { return known }
        guard let entity = persistentStoreCoordinator?.managedObjectModel.entitiesByName[id.entityName] else {
            preconditionFailure("object(with:) needs an ID of this context's model; \(id) is not one")
        }
        return makeObject(entity, id: id)
    }

    /// The object for `id`, read from the store when needed; throws 133000 when its row is gone.
    public func existingObject(with id: ManagedObjectID) throws -> ManagedObject {
        try checkQueue()
        let id = normalized(id)
        if let known = registeredObject(under: id), !known.isFault { return known }
        let stores = try coordinator().stores()
        guard let key = try objectKey(of: id), id.isTemporaryID || stores.store(of: id) != nil else {
            throw ContextError.make(133000, "no object with ID \(id) in this coordinator's stores")
        }
        let stored = try reading(key) { try $0.object(key) }
        guard let stored else { throw ContextError.make(133000, "no object with ID \(id) in the store") }
        return try materialize(stored)
    }

    // MARK: - Discarding changes

    /// Discards every unsaved change: new objects are forgotten, deleted and changed ones get their
    /// saved values back, and the undo manager's stacks are emptied, as Core Data's rollback does.
    public func rollback() {
        if violatesQueue() { return onQueue { rollback() } }
        undoManager?.removeAllActions()
        for object in insertedList.objects {
            registered.remove(object)
            object.inserted = false
            object.detach()
        }
        for object in updatedList.objects + deletedList.objects { discardChanges(of: object) }
        insertedList.removeAll()
        updatedList.removeAll()
        deletedList.removeAll()
        noticed = (0, 0, 0)
        forgetUnnoticedChanges()
    }

    /// Forgets every object: each turns into a fault (its transient values cleared) and leaves the
    /// context, and objects-did-change lists their IDs under `NSInvalidatedAllObjectsKey`, as Core
    /// Data's reset does; the undo manager's stacks are emptied.
    public func reset() {
        if violatesQueue() { return onQueue { reset() } }
        undoManager?.removeAllActions()
        let objects = registered.heldObjects() + insertedList.objects
        for object in objects {
            object.observingValuesReplaced {
                discardChanges(of: object)
                object.inserted = false
                object.turnIntoFault(keepingRow: false)
            }
            object.detach()
        }
        registered.removeAll()
        insertedList.removeAll()
        updatedList.removeAll()
        deletedList.removeAll()
        noticed = (0, 0, 0)
        forgetUnnoticedChanges()
        NotificationCenter.default.post(name: Self.didChangeObjectsNotification, object: self, userInfo: [
            NSInvalidatedAllObjectsKey: objects.map(\.objectID)
        ])
    }

    /// Updates `object` to the saved values, as Core Data's `refresh(_:mergeChanges:)`: without
    /// `mergeChanges`, its changes are discarded and it turns into a fault; with it, an object with
    /// changes stays one, its saved values reloaded and its changes kept on top, and an object
    /// without turns into a fault. A fault reloads from the saved values it had while they are
    /// fresh enough (``stalenessInterval``), else from the store. A new object is left as it is.
    public func refresh(_ object: ManagedObject, mergeChanges: Bool) {
        if violatesQueue() { return onQueue { refresh(object, mergeChanges: mergeChanges) } }
        refresh(object, mergeChanges: mergeChanges, usingCache: true)
        if object.managedObjectContext === self, !object.isInserted { refreshedSinceNotice.append(object) }
    }

    /// Refreshes every registered object, keeping unsaved changes (`refreshAllObjects`).
    public func refreshAllObjects() {
        if violatesQueue() { return onQueue { refreshAllObjects() } }
        refreshedSinceNotice.append(contentsOf: registered.heldObjects())
        refreshAll(usingCache: true)
    }

    /// Refreshes every registered object, keeping unsaved changes; without `usingCache`, every
    /// value is read again from the store (another query generation, a merged save).
    func refreshAll(usingCache: Bool) {
        for object in registered.heldObjects() { refresh(object, mergeChanges: true, usingCache: usingCache) }
    }

    /// Refreshes `object`; without `usingCache`, its saved values are read from the store whatever their age.
    func refresh(_ object: ManagedObject, mergeChanges: Bool, usingCache: Bool) {
        guard object.managedObjectContext === self, !object.inserted else { return }
        object.observingValuesReplaced { replaceValues(of: object, mergeChanges: mergeChanges, usingCache: usingCache) }
    }

    /// The values `refresh(_:mergeChanges:usingCache:)` gives `object`.
    private func replaceValues(of object: ManagedObject, mergeChanges: Bool, usingCache: Bool) {
        if mergeChanges, object.hasChanges {
            if !usingCache || !isFresh(object.readStamp) {
                object.committed = nil
                object.cachedRow = nil
            }
            fulfill(object)
            object.committedToManys = [:]
            for name in Array(object.toManys.keys) where !object.changedToManys.contains(name) { object.toManys[name] = nil }
            return
        }
        if !mergeChanges {
            discardChanges(of: object)
            updatedList.remove(object)
            deletedList.remove(object)
        }
        object.turnIntoFault(keepingRow: usingCache)
    }

    /// When values read now are read, for the staleness of a fault's cached row.
    func readStamp(_ coordinator: PersistentStoreCoordinator) -> ReadStamp {
        ReadStamp(saves: coordinator.saveCount.load(ordering: .relaxed), time: DispatchTime.now().uptimeNanoseconds)
    }

    /// Whether values read at `stamp` may stand for the store's: no save through the coordinator
    /// since, and younger than ``stalenessInterval``.
    func isFresh(_ stamp: ReadStamp?) -> Bool {
        guard let stamp, let coordinator = persistentStoreCoordinator, stamp.saves == coordinator.saveCount.load(ordering: .relaxed) else { return false }
        if stalenessInterval < 0 { return true }
        let age = DispatchTime.now().uptimeNanoseconds &- stamp.time
        return Double(age) < stalenessInterval * 1e9
    }

    func discardChanges(of object: ManagedObject) {
        object.deleted = false
        object.deletedElsewhere = false
        object.discardPendingValues()
        object.changedToManys = []
        object.toManys = [:]
        object.committedToManys = [:]
    }
}

/// Objects in the order they were added, each once. Whether an object is in a list is a bit of
/// the object's own (``ManagedObject/listed``), not an identity hashed into a set: an object is
/// in the lists of its own context only, and hashing each changed object into a set took 3 % of
/// a save of updates, fetch and changes included.
struct ChangeList {
    /// The context's three lists, each the bit its objects carry.
    enum Kind: UInt8 {
        case inserted = 1, updated = 2, deleted = 4
    }

    private let bit: UInt8
    private(set) var objects: [ManagedObject] = []
    /// The objects by ID, made when first looked up and dropped when the list changes.
    private var byID: [ManagedObjectID: ManagedObject]?
    /// All the objects as a set, as an objects-did-change announcing the whole list made it, and
    /// dropped when the list changes: the save that follows announces the same set in did-save.
    private(set) var announcedSet: Set<ManagedObject>?

    init(_ kind: Kind) { bit = kind.rawValue }

    /// All the objects as a set, made once until the list changes (``announcedSet``).
    mutating func asSet() -> Set<ManagedObject> {
        if let announcedSet { return announcedSet }
        let set = Set(halfFull: objects)
        announcedSet = set
        return set
    }

    var isEmpty: Bool { objects.isEmpty }

    func contains(_ object: ManagedObject) -> Bool { object.listed & bit != 0 }

    /// The object whose ID is `id`, found through a table made once for many lookups.
    mutating func object(with id: ManagedObjectID) -> ManagedObject? {
        if byID == nil { byID = Dictionary(objects.map { ($0.objectID, $0) }, uniquingKeysWith: { first, _ in first }) }
        guard let object = byID?[id], object.objectID == id else { return nil }
        return object
    }

    mutating func add(_ object: ManagedObject) {
        guard object.listed & bit == 0 else { return }
        object.listed |= bit
        objects.append(object)
        byID = nil
        announcedSet = nil
    }

    /// Makes room for `count` more objects at once.
    mutating func reserve(_ count: Int) {
        objects.reserveCapacity(objects.count + count)
    }

    mutating func remove(_ object: ManagedObject) {
        guard object.listed & bit != 0 else { return }
        object.listed &= ~bit
        objects.removeAll { $0 === object }
        byID = nil
        announcedSet = nil
    }

    /// Empties the list, its objects' bits cleared.
    mutating func removeAll() {
        for object in objects { object.listed &= ~bit }
        objects = []
        byID = nil
        announcedSet = nil
    }
}
