import Foundation
import GRDB
import ModelStore

/// Batch requests, run in the stores in one write transaction each, all committed only once every
/// store's part succeeded, leaving the context's objects as they are: the matching rows are read
/// with their versions and written at them, so a delete takes the row's links and external files
/// with it and an update raises `Z_OPT` as a save does, and objects other contexts hold see the
/// change as a conflict when they save.
extension ManagedObjectContext {
    /// Runs `request` where Core Data runs it: an insert in the store a new object of its entity
    /// goes to, an update or delete in every store holding its entity (by IDs: in each ID's
    /// store), of those its `affectedStores` name when it names some (none of them: nothing is
    /// changed); returns its result as the request's result type asks. A failure in any store
    /// changes none (SQLite's as 134030, a unique index's as 133021); only a commit failing after
    /// another store's is 134040, the stores that kept nothing in `NSAffectedStoresErrorKey`.
    public func execute(_ request: PersistentStoreRequest) throws -> PersistentStoreResult {
        try checkQueue()
        let rows = try rows()
        let coordinator = try coordinator()
        let stores = try coordinator.stores()
        let number = Self.entityName(of: request).flatMap { rows.shape(named: $0)?.number }
        let holding = number.map { stores.stores(holding: $0) } ?? [stores.all[0]]
        let targets = try stores.restricted(holding, to: request.affectedStores)
        do {
            switch request {
            case let delete as BatchDeleteRequest:
                // IDs (another coordinator's too) are given this one's keys once, for every store.
                let objectIDs = delete.objectIDs?.map(stores.normalized)
                let ids = try StoreTransactions.write(targets) { databases in
                    try zip(targets, databases).flatMap { store, db in try batchDelete(delete, objectIDs, db, rows, store) }
                }
                return BatchDeleteResult(Self.result(ids, delete.resultType))
            case let update as BatchUpdateRequest:
                let ids = try StoreTransactions.write(targets) { databases in
                    try zip(targets, databases).flatMap { store, db in try batchUpdate(update, db, rows, store) }
                }
                return BatchUpdateResult(Self.result(ids, update.resultType))
            case let insert as BatchInsertRequest:
                let first = Array(targets.prefix(1))
                let ids = try StoreTransactions.write(first) { databases in
                    try zip(first, databases).flatMap { store, db in try batchInsert(insert, db, rows, store) }
                }
                return BatchInsertResult(Self.result(ids, insert.resultType))
            default:
                throw ContextError.make(134091, "\(type(of: request)) is not a request the store runs")
            }
        } catch let incomplete as StoreTransactions.IncompleteCommit {
            throw incomplete.error
        }
    }

    /// The entity whose store a request runs in: its own, or its first object ID's.
    private static func entityName(of request: PersistentStoreRequest) -> String? {
        switch request {
        case let delete as BatchDeleteRequest: delete.entityName ?? delete.objectIDs?.first?.entityName
        case let update as BatchUpdateRequest: update.entityName
        case let insert as BatchInsertRequest: insert.entityName
        default: nil
        }
    }

    private static func result(_ ids: [ManagedObjectID], _ type: BatchRequestResultType) -> Any {
        switch type {
        case .statusOnly: true
        case .objectIDs: ids
        case .count: ids.count
        }
    }

    /// The rows of `entityName` (and its subentities) `predicate` matches, with their versions.
    private func matchingRows(_ entityName: String, _ predicate: FetchPredicate?, subentities: Bool, _ reader: ObjectRowReader) throws -> [(key: ObjectKey, version: Int64)] {
        guard try coordinator().managedObjectModel.entitiesByName[entityName] != nil else {
            throw ContextError.make(134060, "the model has no entity named '\(entityName)'")
        }
        var fetch = StoreFetch(entity: entityName)
        fetch.includesSubentities = subentities
        fetch.predicate = try predicate?.checkedNode()
        fetch.keys = reader.keys
        let statement = try Self.translating {
            try fetch.select(["t0.Z_PK", "t0.Z_ENT", "t0.Z_OPT"], layout: reader.rows.layout, entities: reader.rows.entities)
        }
        return try reader.versionedKeys(statement)
    }

    /// Deletes in `store` the rows of `request`: those of `objectIDs` (its IDs with this
    /// coordinator's keys) that are in this store, else those its fetch matches.
    private func batchDelete(
        _ request: BatchDeleteRequest, _ objectIDs: [ManagedObjectID]?, _ db: Database, _ rows: ObjectRowLayout,
        _ store: PersistentStoreCoordinator.OpenedStore
    ) throws -> [ManagedObjectID] {
        let reader = ObjectRowReader(db: db, rows: rows, keys: store.keys)
        let writer = ObjectRowWriter(db: db, rows: rows, keys: store.keys)
        let targets: [(key: ObjectKey, version: Int64)]
        if let ids = objectIDs {
            targets = try ids.compactMap { id in
                guard !id.isTemporaryID, store.identifier == id.storeIdentifier, let key = try objectKey(of: id), let stored = try reader.object(key) else { return nil }
                return (ObjectKey(number: stored.number, key: stored.key), stored.version)
            }
        } else {
            targets = try matchingRows(request.entityName ?? "", request.predicate, subentities: request.includesSubentities, reader)
        }
        var history = try BatchHistory(model: coordinator().managedObjectModel, db: db)
        var deleted = [ManagedObjectID]()
        for (key, version) in targets {
            guard let shape = rows.shape(number: key.number) else { continue }
            // The preserved values are read before the row goes.
            let tombstone = try history.tombstone(of: key, reader)
            guard try writer.delete(shape, key: key.key, version: version) else { continue }
            try writer.unlinkAll(key)
            try history.deleted(key, tombstone: tombstone)
            if let id = try objectID(of: key) { deleted.append(id) }
        }
        try recordTransaction(db, history.changes)
        return deleted
    }

    private func batchUpdate(
        _ request: BatchUpdateRequest, _ db: Database, _ rows: ObjectRowLayout, _ store: PersistentStoreCoordinator.OpenedStore
    ) throws -> [ManagedObjectID] {
        let reader = ObjectRowReader(db: db, rows: rows, keys: store.keys)
        let writer = ObjectRowWriter(db: db, rows: rows, keys: store.keys)
        let values = request.propertiesToUpdate ?? [:]
        var history = try BatchHistory(model: coordinator().managedObjectModel, db: db)
        var changesByNumber = [Int: [(slot: Int, value: DatabaseValue)]]()
        var updated = [ManagedObjectID]()
        for (key, version) in try matchingRows(request.entityName, request.predicate, subentities: request.includesSubentities, reader) {
            guard let shape = rows.shape(number: key.number) else { continue }
            if changesByNumber[key.number] == nil {
                changesByNumber[key.number] = try columnValues(values, of: shape)
            }
            guard try writer.update(shape, key: key.key, version: version, attributes: changesByNumber[key.number] ?? [], toOnes: []) else { continue }
            try history.updated(key, names: values.keys)
            if let id = try objectID(of: key) { updated.append(id) }
        }
        try recordTransaction(db, history.changes)
        return updated
    }

    /// Inserts the request's objects a chunk at a time (a handler's are asked for as they are
    /// written, not gathered first). An object whose uniqueness constraint values a stored row,
    /// or an earlier object of the batch, already has is settled by the context's merge policy,
    /// as a save settles it: the error policy fails with 133021 and writes nothing; object trump
    /// and overwrite write every attribute of the object into that row (its ID is the one
    /// returned), as apps upsert with batch inserts; store trump and rollback leave the row as it
    /// is (Documentation/MergePolicies.md).
    private func batchInsert(
        _ request: BatchInsertRequest, _ db: Database, _ rows: ObjectRowLayout, _ store: PersistentStoreCoordinator.OpenedStore
    ) throws -> [ManagedObjectID] {
        guard let entity = try coordinator().managedObjectModel.entitiesByName[request.entityName] else {
            throw ContextError.make(134060, "the model has no entity named '\(request.entityName)'")
        }
        let reader = ObjectRowReader(db: db, rows: rows, keys: store.keys)
        let writer = ObjectRowWriter(db: db, rows: rows, keys: store.keys)
        let shape = entity.shape
        let defaults = try entity.defaultValues.indices.map { slot in
            try StoredValue.databaseValue(entity.defaultValues, at: slot, as: shape.attributes[slot].type)
        }
        let objectWins = [.mergeByPropertyObjectTrumpMergePolicyType, .overwriteMergePolicyType].contains(mergePolicy.mergeType)
        var history = try BatchHistory(model: coordinator().managedObjectModel, db: db)
        let allNames = shape.attributes.map(\.name)
        let classes = try coordinator().classes
        if let fileID = request.callerFileID { classes.noteModule(ofFileID: fileID) }
        let type = classes.objectClass(for: entity)
        // A handler is never handed an object it may not cast to the entity's class.
        if request.managedObjectHandler != nil, type == ManagedObject.self, ManagedObjectClasses.namesOwnClass(entity) {
            throw ContextError.make(134030, "the class \(entity.managedObjectClassName ?? "") of \(entity.name) was not found: its batch insert handler cannot be given its objects")
        }
        var objects = request.objects { type.init(entity: entity, insertInto: nil) }
        var inserted = [ManagedObjectID]()
        while true {
            let chunk = objects.next(Self.insertChunk)
            guard !chunk.isEmpty else { break }
            // The rows this chunk adds, and which of them holds each constraint's values.
            var planned = [[DatabaseValue]]()
            var holders = [[DatabaseValue]: Int]()
            for values in chunk {
                var attributes = defaults
                for (slot, value) in try columnValues(values, of: shape, entity) { attributes[slot] = value }
                let marks = entity.constraints.compactMap { names, slots -> [DatabaseValue]? in
                    let shared = slots.map { attributes[$0] }
                    return shared.contains(where: \.isNull) ? nil : names.map(\.databaseValue) + shared
                }
                if let index = marks.lazy.compactMap({ holders[$0] }).first {
                    guard mergePolicy != .error else { throw Self.collision(entity, values, with: "another object of the batch") }
                    if objectWins { planned[index] = attributes }
                    continue
                }
                if let stored = try Self.storedRow(holding: attributes, of: entity, reader) {
                    guard mergePolicy != .error else { throw Self.collision(entity, values, with: "a stored row") }
                    let key = ObjectKey(number: stored.number, key: stored.key)
                    if objectWins {
                        guard try writer.update(shape, key: stored.key, version: stored.version, attributes: attributes.enumerated().map { (slot: $0, value: $1) }, toOnes: []) else { continue }
                        try history.updated(key, names: allNames)
                    }
                    if let id = try objectID(of: key) { inserted.append(id) }
                    continue
                }
                for mark in marks { holders[mark] = planned.count }
                planned.append(attributes)
            }
            guard !planned.isEmpty else { continue }
            let first = try writer.reserveKeys(rootNumber: shape.rootNumber, count: planned.count)
            for (offset, attributes) in planned.enumerated() {
                let key = ObjectKey(number: shape.number, key: first + Int64(offset))
                try writer.insert(shape, key: key.key, attribute: { attributes[$0] }, toOnes: shape.toOnes.map { _ in nil }, orders: shape.toOnes.map { _ in nil })
                history.inserted(key)
                if let id = try objectID(of: key) { inserted.append(id) }
            }
        }
        try recordTransaction(db, history.changes)
        return inserted
    }

    /// How many of a batch insert's objects are resolved and written at a time.
    private static let insertChunk = 1_000

    /// The stored row that already has one of `entity`'s uniqueness constraints' values in `attributes`.
    private static func storedRow(holding attributes: [DatabaseValue], of entity: EntityDescription, _ reader: ObjectRowReader) throws -> StoredObject? {
        for (_, slots) in entity.constraints {
            if let stored = try reader.object(in: entity.shape, attributes: slots, equalTo: slots.map { attributes[$0] }) { return stored }
        }
        return nil
    }

    /// 133021 for a batch insert's object that collides under the error policy.
    private static func collision(_ entity: EntityDescription, _ values: [String: Any], with other: String) -> NSError {
        let names = entity.constraints.map { $0.names.joined(separator: ", ") }.joined(separator: "; ")
        return ContextError.make(133021, "a batch insert's \(entity.name) has the uniqueness constraint values (\(names)) of \(other); under the error merge policy nothing was inserted")
    }

    /// The column values of attribute values by name (a transformable's through its transformer,
    /// when `entity` is given); a name `shape` has no stored attribute of, or a value its
    /// attribute cannot hold, is 134060 naming it.
    private func columnValues(_ values: [String: Any], of shape: EntityRowShape, _ entity: EntityDescription? = nil) throws -> [(slot: Int, value: DatabaseValue)] {
        try values.map { name, value in
            guard let slot = shape.attributes.firstIndex(where: { $0.name == name }) else {
                throw ContextError.make(134060, "\(shape.name) has no stored attribute '\(name)' a batch request can set")
            }
            let type = shape.attributes[slot].type
            do {
                if type == .transformable, let entity, !(value is NSNull) {
                    return (slot, try StoredValue.databaseValue(object: AttributeValueTransformer.data(for: value, of: entity.slotAttributes[slot]), as: type))
                }
                return (slot, try StoredValue.databaseValue(object: ManagedObject.normalized(value, as: type), as: type))
            } catch {
                throw ContextError.make(134060, "'\(name)' of \(shape.name) cannot hold this value: \(error)")
            }
        }
    }
}
