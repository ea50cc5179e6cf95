import Foundation
import GRDB
import ModelStore

/// How a context reaches its store and turns rows into registered objects: each object once per
/// context, a fault until its row is read, its class the entity's generated one when known.
extension ManagedObjectContext {
    func coordinator() throws -> PersistentStoreCoordinator {
        guard let coordinator = persistentStoreCoordinator else {
            throw ContextError.make(134060, "the context has no persistent store coordinator")
        }
        return coordinator
    }

    func rows() throws -> ObjectRowLayout { try coordinator().managedObjectModel.rows }

    /// Reads the first store, as of the pinned query generation when there is one.
    func read<T>(_ body: (Database) throws -> T) throws -> T {
        try read(in: coordinator().store(), body)
    }

    /// Reads the store of the object `key` with a reader of that store's keys, as of the pinned
    /// generation when there is one.
    func reading<T>(_ key: ObjectKey, _ body: (ObjectRowReader) throws -> T) throws -> T {
        let coordinator = try coordinator()
        return try reading(coordinator.stores().store(of: key), body)
    }

    /// Reads `store` with a reader of its keys, as of the pinned generation when there is one.
    func reading<T>(_ store: PersistentStoreCoordinator.OpenedStore, _ body: (ObjectRowReader) throws -> T) throws -> T {
        let rows = try rows()
        return try read(in: store) { db in try body(ObjectRowReader(db: db, rows: rows, keys: store.keys)) }
    }

    /// Reads `store`, as of the pinned generation when there is one.
    func read<T>(in store: PersistentStoreCoordinator.OpenedStore, _ body: (Database) throws -> T) throws -> T {
        try ContextError.mappingStore(reading: true) {
            if pinned != nil, let result = try readPinned(in: store.index, body) { return result }
            return try store.database.read(body)
        }
    }

    /// Writes the first store in one transaction.
    func write<T>(_ body: (Database) throws -> T) throws -> T {
        try ContextError.mappingStore { try coordinator().store().database.write(body) }
    }

    /// The key of an ID in the context's tables: its row, or the stand-in key of a new object.
    func objectKey(of id: ManagedObjectID) throws -> ObjectKey? {
        guard let shape = try rows().shape(named: id.entityName) else { return nil }
        return ObjectKey(number: shape.number, key: id.rowKey)
    }

    /// The ID of the row `key` (a temporary ID for a new object's stand-in key).
    func objectID(of key: ObjectKey) throws -> ManagedObjectID? {
        guard let shape = try rows().shape(number: key.number) else { return nil }
        if key.key < 0 {
            return ManagedObjectID(temporaryIn: .init(entityName: shape.name, storeIdentifier: ""), number: -key.key)
        }
        return try coordinator().stores().store(of: key).objectID(number: key.number, shape.name, key.key)
    }

    /// The registered object of the row `key`, or a new fault for it; for a new object's key, the
    /// object inserted here, else (only in a child context, whose parent has it) a fault.
    func registeredOrFault(_ key: ObjectKey) -> ManagedObject? {
        if let known = registered[ObjectRegistry.Key(number: key.number, value: key.key)] { return known }
        guard let id = try? objectID(of: key) else { return nil }
        if key.key < 0, let new = insertedList.object(with: id) { return new }
        guard key.key > 0 || parent != nil else { return nil }
        guard let entity = persistentStoreCoordinator?.managedObjectModel.entitiesByName[id.entityName] else { return nil }
        return makeObject(entity, id: id)
    }

    /// A registered fault of `entity`'s class (`type`, when the caller knows it already) for `id`;
    /// `absentKey`, when given, is its registry key, where a lookup just found nothing.
    func makeObject(
        _ entity: EntityDescription, id: consuming ManagedObjectID, of type: ManagedObject.Type? = nil, absentKey: ObjectRegistry.Key? = nil
    ) -> ManagedObject {
        let type = type ?? persistentStoreCoordinator?.classes.objectClass(for: entity) ?? ManagedObject.self
        let object = type.init(entity: entity, insertInto: nil)
        object.attach(to: self, id: id)
        guard let absentKey else { return registered.add(object) }
        return registered.insertNew(object, at: absentKey)
    }

    /// The object registered under `id`, if any (an ID of another store names none).
    func registeredObject(under id: ManagedObjectID) -> ManagedObject? {
        if let shape = try? rows().shape(named: id.entityName),
            let object = registered[ObjectRegistry.Key(number: shape.number, value: id.rowKey)], object.objectID == id
        {
            return object
        }
        return id.isTemporaryID ? insertedList.object(with: id) : nil
    }

    /// The registered object of a row just read, its saved values set from the row unless it
    /// had them already (the context's view of an object does not change under it).
    func materialize(_ stored: StoredObject) throws -> ManagedObject {
        try materialize([stored])[0]
    }

    /// The registered objects of rows read together, in their order: each entity's description
    /// and class are found once for all its rows, not once a row. The rows' values move into the
    /// objects (``fill(_:taking:at:)``), so the rows are taken, not copied.
    func materialize(_ rows: consuming [StoredObject]) throws -> [ManagedObject] {
        let coordinator = try coordinator()
        let model = coordinator.managedObjectModel
        let stores = try coordinator.stores()
        // Each store's ID scopes, which the rows' IDs share, found by the key's store bits.
        let scopes = stores.all.map(\.scopes)
        var kinds = [Int: (entity: EntityDescription, type: ManagedObject.Type)]()
        func kind(_ number: Int) throws -> (entity: EntityDescription, type: ManagedObject.Type) {
            if let known = kinds[number] { return known }
            guard let shape = model.rows.shape(number: number), let entity = model.entitiesByName[shape.name] else {
                throw ContextError.make(134060, "the store has a row of an entity the model lacks")
            }
            let kind = (entity, coordinator.classes.objectClass(for: entity))
            kinds[number] = kind
            return kind
        }
        // Rows of one entity, the usual case, share its description and class, found before the
        // loop: each row borrows them instead of retaining and releasing them.
        let first = rows.first?.number
        let shared = try rows.allSatisfy({ $0.number == first }) ? first.map(kind) : nil
        registered.reserve(rows.count)
        let stamp = readStamp(coordinator)
        var objects = [ManagedObject]()
        objects.reserveCapacity(rows.count)
        // Takes its row and returns the object, changing no array of the caller's: arrays a nested
        // function changes are checked for exclusivity at run time, on every row.
        func make(_ row: inout StoredObject, key: ObjectRegistry.Key, _ entity: EntityDescription, _ type: ManagedObject.Type) throws -> ManagedObject {
            let rowKey = key.value
            let id: ManagedObjectID
            if rowKey > 0 {
                let store = stores.isSingle ? 0 : KeySpace.store(of: rowKey)
                guard store < scopes.count, let scope = scopes[store].scope(key.number) else {
                    throw ContextError.make(134060, "the object is in a store this coordinator does not have")
                }
                id = ManagedObjectID(scope: scope, primaryKey: rowKey)
            } else {
                id = ManagedObjectID(temporaryIn: entity.temporaryIDScope, number: -rowKey)
            }
            let object = makeObject(entity, id: id, of: type, absentKey: key)
            // A key the fetch gave twice keeps its first object, as a lookup would have found it.
            if object.committed == nil, !object.inserted {
                fill(object, taking: &row, at: stamp)
                awakeFromFetch(object)
            }
            return object
        }
        // A context holding no object yet (a fresh one, as a background task's) has none to find
        // for these rows: each is registered with one hash, without a lookup before it.
        let fresh = registered.isEmpty
        for index in rows.indices {
            let number = rows[index].number
            let key = ObjectRegistry.Key(number: number, value: rows[index].key)
            if !fresh, let known = registered[key] {
                if known.committed == nil, !known.inserted {
                    fill(known, taking: &rows[index], at: stamp)
                    awakeFromFetch(known)
                }
                objects.append(known)
            } else if let shared {
                objects.append(try make(&rows[index], key: key, shared.entity, shared.type))
            } else {
                let kind = try kind(number)
                objects.append(try make(&rows[index], key: key, kind.entity, kind.type))
            }
        }
        return objects
    }

    /// Gives `object` the saved values of `stored`, read at `stamp` (its cached row, if it had one,
    /// is older). The values move into the object, without the retain and release a copy of them
    /// costs, and the row is left without them.
    func fill(_ object: ManagedObject, taking stored: inout StoredObject, at stamp: ReadStamp?) {
        var attributes = AttributeValues(nils: 0)
        swap(&attributes, &stored.attributes)
        object.replaceSaved(with: consume attributes)
        object.version = stored.version
        object.readStamp = stamp
        object.cachedRow = nil
    }

    /// Reads a fault's row (in a child context, the object as its parent has it), or takes its
    /// cached row while that is fresh enough; a row that is gone leaves the object empty (Core Data raises there).
    func fulfill(_ object: ManagedObject) {
        guard object.committed == nil, !object.inserted, let key = try? objectKey(of: object.objectID) else { return }
        if let cached = object.cachedRow {
            object.cachedRow = nil
            if parent == nil, isFresh(cached.stamp) {
                object.replaceSaved(with: cached.attributes)
                object.version = cached.version
                object.readStamp = cached.stamp
                return
            }
        }
        let stamp = persistentStoreCoordinator.map(readStamp)
        let stored: StoredObject? = if let parent {
            parent.onQueue { parent.currentRow(of: object.objectID) }
        } else {
            (try? reading(key) { try $0.object(key) }) ?? nil
        }
        if var stored {
            fill(object, taking: &stored, at: stamp)
            awakeFromFetch(object)
        } else {
            object.replaceSaved(with: AttributeValues(nils: object.entity.shape.attributes.count, toOnes: object.entity.shape.toOnes.count))
        }
    }

    /// Makes `type` its entity's class when the model has an entity of that class, so that a
    /// fetch of `FetchRequest<Item>` gives `Item`s before any `Item` was made.
    func learnClass(_ type: ManagedObject.Type) {
        guard type != ManagedObject.self, let coordinator = persistentStoreCoordinator,
            let entity = coordinator.managedObjectModel.entity(forClassNamed: String(describing: type))
        else { return }
        coordinator.classes.register(type, for: entity)
    }

    /// Gives an object made without a context (`init()`, whose entity is that of the newest model
    /// naming its class) this context's model's entity of the same name, when the two lay out and
    /// store objects alike (two loads of one model, as tests with many containers make): its row
    /// is then written with this model's numbers. An entity of another shape is left as it is, and
    /// a save of the object fails (134020) before anything is written.
    func adoptModelEntity(_ object: ManagedObject) {
        guard let model = persistentStoreCoordinator?.managedObjectModel, object.entity.modelSerial != model.serial,
            let own = model.entitiesByName[object.entity.name], own.isInterchangeable(with: object.entity)
        else { return }
        object.entity = own
    }

    /// The entity of a managed object class: the one whose class name (or, failing that, whose
    /// name) is the class's.
    func entity(for type: ManagedObject.Type) -> EntityDescription {
        guard let coordinator = persistentStoreCoordinator else {
            preconditionFailure("\(type) cannot be made in a context without a persistent store coordinator")
        }
        // The context's own memory of the last class, used on its queue only: a call from another
        // queue, which checked mode reports when the object is inserted, asks the locked table.
        let onQueue = !ConcurrencyDebug.isEnabled || isOnQueue
        if onQueue, let last = lastMadeClass, last.type == ObjectIdentifier(type) { return last.entity }
        guard let entity = coordinator.classes.entity(of: type, in: coordinator.managedObjectModel) else {
            preconditionFailure("the model has no entity whose class is \(type)")
        }
        if onQueue { lastMadeClass = (ObjectIdentifier(type), entity) }
        return entity
    }
}
