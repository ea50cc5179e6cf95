import Foundation
import GRDB
import ModelSchema
import ModelStore

/// Saving: delete rules are applied, every changed object is validated, then one write
/// transaction per store inserts, updates (with `Z_OPT` checked and incremented) and deletes the
/// rows and links as Core Data writes them, the transactions committed together once every store's
/// rows are written. A row that changed or went since it was read is a conflict, settled by the
/// merge policy (``ConflictResolution``). A save that fails changes neither the stores nor the
/// objects' saved state; only a commit failing after another store's committed leaves that
/// store's changes saved (134040).
extension ManagedObjectContext {
    /// Writes every unsaved change to the store (a child context's, into its parent); throws the validation error (1560 listing several),
    /// or, under the error merge policy, 133020 listing a ``MergeConflict`` per object whose row
    /// changed or went in the store since it was read.
    public func save() throws {
        try checkQueue()
        guard hasChanges else { return }
        if let parent { return try save(into: parent) }
        let coordinator = try coordinator()
        let rows = coordinator.managedObjectModel.rows
        let (inserted, changed, deleted) = try beginSave()
        // The sets objects-did-change just announced of the whole lists, if it did: did-save
        // announces the same objects, when the save writes them all as they are.
        let announced = (inserted: insertedList.announcedSet, updated: updatedList.announcedSet)
        let orders = orderValues()
        // Members whose order alone changed join the updated objects; without any, the list is
        // used as it is (joining an empty list copied it, retaining every object).
        let reordered = orders.values.map(\.object).filter { !$0.inserted && !$0.deleted && !updatedList.contains($0) }
        let updated = reordered.isEmpty ? changed : changed + reordered
        // A fault changed only through relationships (an inverse kept in step, a to-many set)
        // has not read its row: its version and saved to-ones are needed to update it.
        for object in updated where object.isFault { fulfill(object) }
        let stores = try coordinator.stores()
        try checkRelationshipsStayInContext(inserted, updated)
        try checkRelationshipsStayInStore(stores, inserted, updated)
        let tombstones = try preservedValues(of: deleted)
        let policy = mergePolicy
        // Each store's objects in a transaction of that store, all of them committed only once
        // every store's were written; keys, resolutions and rows taken over gathered from all.
        var allKeys = SaveKeys()
        var resolutions = [ObjectIdentifier: ConflictResolution]()
        var takenOver = [ObjectIdentifier: StoredObject]()
        // The token of the transaction the save recorded, for the did-save notification.
        var historyToken: HistoryToken?
        let parts = try changesByStore(stores, inserted: inserted, updated: updated, deleted: deleted)
        do {
            // Whether it commits or not, values read before now may be stale (see `saveCount`).
            defer { coordinator.countSave() }
            try StoreTransactions.write(parts.map(\.store)) { databases in
                for (part, db) in zip(parts, databases) {
                    let (inserted, updated, deleted) = (part.inserted, part.updated, part.deleted)
                    let writer = ObjectRowWriter(db: db, rows: rows, keys: part.store.keys)
                    let reader = ObjectRowReader(db: db, rows: rows, keys: part.store.keys)
                    var keys = try assignKeys(inserted, writer)
                    let collisions = try uniquenessCollisions(inserted, reader, policy: policy)
                    takenOver.merge(collisions) { own, _ in own }
                    for (identifier, stored) in collisions { keys[identifier] = ObjectKey(number: stored.number, key: stored.key) }
                    func key(_ object: ManagedObject) -> ObjectKey? {
                        keys[ObjectIdentifier(object)] ?? (object.objectID.isTemporaryID ? nil : object.rowKey)
                    }
                    var conflicts = [MergeConflict]()
                    /// Settles the conflict of `object`, whose row is at another version or gone: reported
                    /// under the error policy, else resolved by the policy.
                    func resolve(_ object: ManagedObject, _ own: ObjectKey) throws -> ConflictResolution {
                        let current = try reader.object(own)
                        if policy == .error { conflicts.append(conflict(object, current)) }
                        let resolution = ConflictResolution(policy, object: object, current: current)
                        resolutions[ObjectIdentifier(object)] = resolution
                        return resolution
                    }
                    for object in inserted {
                        let order = orders[ObjectIdentifier(object)]?.values ?? [:]
                        guard let stored = takenOver[ObjectIdentifier(object)] else {
                            try insertRow(object, writer, key: key, orders: order)
                            continue
                        }
                        // A new object whose constraint values a row has: the row becomes the object's, with
                        // the object's values under object trump and overwrite, as they are under the others.
                        if policy == .mergeByPropertyObjectTrump || policy == .overwrite, let own = key(object) {
                            guard try updateRow(object, own, writer, key: key, orders: order, version: stored.version, everything: true) else {
                                throw ContextError.make(133020, "\(object.objectID)'s row changed while its constraint conflict was resolved")
                            }
                        }
                    }
                    for object in updated {
                        guard let own = key(object) else { continue }
                        let order = orders[ObjectIdentifier(object)]?.values ?? [:]
                        if try updateRow(object, own, writer, key: key, orders: order, version: object.version) { continue }
                        guard case .write(let current, let attributes, let toOnes, let everything) = try resolve(object, own), policy != .error else { continue }
                        let written = try updateRow(
                            object, own, writer, key: key, orders: order, version: current.version, skippingAttributes: attributes, skippingToOnes: toOnes, everything: everything)
                        if !written { throw ContextError.make(133020, "\(object.objectID) changed in the store while its conflict was resolved") }
                    }
                    for object in deleted {
                        guard let own = key(object) else { continue }
                        // Its row went in the save merged here: nothing to write, no conflict.
                        if object.deletedElsewhere {
                            resolutions[ObjectIdentifier(object)] = .gone
                            continue
                        }
                        if try writer.delete(object.entity.shape, key: own.key, version: object.version) {
                            try writer.unlinkAll(own)
                            continue
                        }
                        guard case .write(let current, _, _, _) = try resolve(object, own), policy != .error else { continue }
                        _ = try writer.delete(object.entity.shape, key: own.key, version: current.version)
                        try writer.unlinkAll(own)
                    }
                    if !conflicts.isEmpty {
                        throw ContextError.make(133020, "\(conflicts.count) object(s) changed or were deleted in the store since they were read", [
                            NSPersistentStoreSaveConflictsErrorKey: conflicts, NSAffectedObjectsErrorKey: conflicts.map(\.sourceObject),
                        ])
                    }
                    let writtenOver = policy == .mergeByPropertyObjectTrump || policy == .overwrite
                    for list in [inserted, updated] {
                        for object in list where (resolutions[ObjectIdentifier(object)]?.writesObject ?? true) && (writtenOver || takenOver[ObjectIdentifier(object)] == nil) {
                            try writeLinks(of: object, writer, key: key)
                        }
                    }
                    // History records what was written: an object a policy kept from the store (or whose
                    // row was gone) is no change, and a new object that took over a colliding row updated that row.
                    let kept = { (object: ManagedObject) in resolutions[ObjectIdentifier(object)]?.writesObject == false }
                    if try PersistentHistoryLayout.isPresent(in: db), let number = try recordHistory(
                        db, inserted: inserted.filter { takenOver[ObjectIdentifier($0)] == nil },
                        updated: updated.filter { !kept($0) } + (writtenOver ? inserted.filter { takenOver[ObjectIdentifier($0)] != nil } : []),
                        deleted: deleted.filter { !kept($0) }, tombstones: tombstones, resolutions: resolutions, key: key)
                    {
                        historyToken = HistoryToken(storeIdentifier: part.store.identifier, transactionNumber: number)
                    }
                    // The first (usually the only) store's are taken as they are, not rehashed.
                    if allKeys.isEmpty { allKeys = keys } else { allKeys.merge(keys) }
                }
            }
        } catch let incomplete as StoreTransactions.IncompleteCommit {
            // The stores before the one whose commit failed committed: their objects are saved, the
            // others keep their changes, so that saving again writes only what did not reach a store.
            try settlePartialSave(
                parts[..<incomplete.committed], remaining: parts[incomplete.committed...], keys: allKeys, resolutions: resolutions, takenOver: takenOver,
                stores: stores)
            throw incomplete.error
        }
        let settled = try commit(
            inserted: inserted, updated: updated, deleted: deleted, keys: allKeys, resolutions: resolutions, takenOver: takenOver, stores: stores)
        // A pinned context's generation moves past its own save, as Core Data's does.
        if pinned != nil { pinned = Pin(generation: nil) }
        let unchanged = settled.updated.count == changed.count && updated.count == changed.count
        didSave(
            inserted: inserted, updated: settled.updated, deleted: settled.deleted, historyToken: historyToken,
            announced: (announced.inserted, unchanged ? announced.updated : nil))
    }

    /// The start of every save, into the store or a parent: will-save is posted, delete rules
    /// applied, each object's `willSave` called, and the new, changed and deleted objects
    /// validated (their `validateForInsert`, `validateForUpdate`, `validateForDelete`); returns them.
    func beginSave() throws -> (inserted: [ManagedObject], updated: [ManagedObject], deleted: [ManagedObject]) {
        NotificationCenter.default.post(name: Self.willSaveObjectsNotification, object: self)
        applyDeleteRules()
        try callWillSave()
        let (inserted, updated, deleted) = (insertedList.objects, updatedList.objects, deletedList.objects)
        if let error = ContextError.combined(ObjectValidator.errors(inserted: inserted, updated: updated, deleted: deleted)) {
            throw error
        }
        return (inserted, updated, deleted)
    }

    /// The new objects whose uniqueness constraint values a stored row already has, with that row.
    /// Under the error policy, any such collision, or two new objects sharing values, fails the
    /// save with 133021 (`NSManagedObjectConstraintMergeError`) and a ``ConstraintConflict`` each
    /// (`conflictList`); the other policies give the row to the object, and refuse only new
    /// objects that collide among themselves.
    private func uniquenessCollisions(_ inserted: [ManagedObject], _ reader: ObjectRowReader, policy: MergePolicy) throws -> [ObjectIdentifier: StoredObject] {
        var conflicts = [ConstraintConflict]()
        var takenOver = [ObjectIdentifier: StoredObject]()
        var claimed = [[DatabaseValue]: ManagedObject]()
        for object in inserted where !object.entity.constraints.isEmpty {
            let shape = object.entity.shape
            for (names, slots) in object.entity.constraints {
                let pending = object.pending
                let values = try slots.map { try columnValue(pending.attribute($0) ?? nil, slot: $0, of: object) }
                guard !values.contains(where: \.isNull) else { continue }
                var named = [String: Any]()
                for (name, slot) in zip(names, slots) { named[name] = (pending.attribute(slot) ?? nil) ?? NSNull() }
                let mark = [shape.table.databaseValue] + names.map(\.databaseValue) + values
                if let earlier = claimed[mark] {
                    conflicts.append(ConstraintConflict(constraint: names, constraintValues: named, databaseObject: nil, databaseSnapshot: nil, conflictingObjects: [earlier, object]))
                    continue
                }
                claimed[mark] = object
                guard takenOver[ObjectIdentifier(object)] == nil, let stored = try reader.object(in: shape, attributes: slots, equalTo: values) else { continue }
                if policy == .error {
                    let owner = registeredOrFault(ObjectKey(number: stored.number, key: stored.key))
                    conflicts.append(ConstraintConflict(
                        constraint: names, constraintValues: named, databaseObject: owner,
                        databaseSnapshot: owner.map { snapshot(of: $0.entity, stored.attributes, stored.toOnes) }, conflictingObjects: [object]))
                } else {
                    takenOver[ObjectIdentifier(object)] = stored
                }
            }
        }
        guard conflicts.isEmpty else {
            throw ContextError.make(133021, "\(conflicts.count) uniqueness constraint conflict(s)", [
                NSPersistentStoreSaveConflictsErrorKey: conflicts, NSAffectedObjectsErrorKey: conflicts.flatMap(\.conflictingObjects),
            ])
        }
        return takenOver
    }

    /// Gives new objects permanent IDs now (reserving their keys in the store); they stay inserted
    /// until saved. A store that cannot be written (locked past the busy timeout, read-only)
    /// fails with 134030 and SQLite's code in `NSSQLiteErrorDomain`, as a save does.
    public func obtainPermanentIDs(for objects: [ManagedObject]) throws {
        try checkQueue()
        let pending = objects.filter { $0.inserted && $0.objectID.isTemporaryID }
        guard !pending.isEmpty else { return }
        let stores = try coordinator().stores()
        let rows = try self.rows()
        for part in try changesByStore(stores, inserted: pending, updated: [], deleted: []) {
            var keys = try ContextError.mappingStore {
                try part.store.database.writeJoiningTransaction { try assignKeys(part.inserted, ObjectRowWriter(db: $0, rows: rows, keys: part.store.keys)) }
            }
            for object in part.inserted {
                guard let key = keys[ObjectIdentifier(object)] else { continue }
                rekey(object, part.store.objectID(number: key.number, object.entity.name, key.key))
            }
        }
    }

    // MARK: - Delete rules

    /// Processes the changes made so far, as Core Data's `processPendingChanges()`: applies the
    /// delete rules (see `applyDeleteRules()`), announces the changes (objects-did-change), and
    /// ends the event for undo: the undo group the undo manager opened by itself is closed, so
    /// that later changes are undone apart. A save applies the delete rules itself.
    public func processPendingChanges() {
        if violatesQueue() { return onQueue { processPendingChanges() } }
        applyDeleteRules()
        endUndoEvent()
    }

    /// Applies the delete rules of every deleted object's relationships: nullify takes it out of
    /// the inverse, cascade deletes the destinations too, deny is checked by validation, no action
    /// leaves the destinations as they are. Each deleted object's `prepareForDeletion` is called
    /// (once) before its rules apply; objects it deletes are processed too. What they change is
    /// recorded for undo as any change is.
    func applyDeleteRules() {
        defer { postObjectsDidChange() }
        var queue = deletedList.objects
        var done = Set<ObjectIdentifier>()
        while let object = queue.popLast() ?? deletedList.objects.last(where: { !done.contains(ObjectIdentifier($0)) }) {
            guard done.insert(ObjectIdentifier(object)).inserted else { continue }
            prepareForDeletion(object)
            for relationship in object.entity.relationships where !relationship.isTransient && relationship.deleteRule != .deny {
                let destinations = relationship.isToMany
                    ? contents(of: relationship, in: object).objects : [target(of: relationship, in: object)].compactMap { $0 }
                if relationship.deleteRule == .cascade {
                    for destination in destinations where !destination.deleted {
                        delete(destination)
                        if destination.deleted { queue.append(destination) }
                    }
                }
                guard relationship.deleteRule != .noAction, let inverse = inverse(of: relationship, in: object) else { continue }
                for destination in destinations {
                    if inverse.isToMany {
                        unlink(object, from: inverse, of: destination)
                    } else if target(of: inverse, in: destination) === object {
                        setToOne(inverse, of: destination, to: nil)
                    }
                }
            }
        }
    }

    // MARK: - Rows

    private func assignKeys(_ objects: [ManagedObject], _ writer: ObjectRowWriter) throws -> SaveKeys {
        var byRoot = [Int: [ManagedObject]]()
        var roots = [Int]()
        // The entity last checked, so that a run of objects of one entity is checked once.
        var checked: EntityDescription?
        for object in objects where object.objectID.isTemporaryID {
            if object.entity !== checked {
                try checkOwnModel(object, writer.rows)
                checked = object.entity
            }
            let root = object.entity.shape.rootNumber
            if byRoot[root] == nil { roots.append(root) }
            byRoot[root, default: []].append(object)
        }
        // Room for every new object at once: grown as it filled, the table was rehashed a dozen
        // times in a save of 50,000 new objects.
        var keys = SaveKeys(minimumCapacity: byRoot.values.reduce(0) { $0 + $1.count })
        for root in roots {
            let members = byRoot[root] ?? []
            let first = try writer.reserveKeys(rootNumber: root, count: members.count)
            for (offset, object) in members.enumerated() {
                keys[ObjectIdentifier(object)] = ObjectKey(number: object.entity.shape.number, key: first + Int64(offset))
            }
        }
        return keys
    }

    /// Refuses a new object whose entity is not of the coordinator's model (one made with
    /// `init()` from another model's entity of a different shape): its entity and key numbers
    /// are another model's, and its row would be written in the wrong table or over another row.
    private func checkOwnModel(_ object: ManagedObject, _ rows: ObjectRowLayout) throws {
        guard rows.shape(number: object.entity.shape.number) !== object.entity.shape else { return }
        throw ContextError.make(
            134020, "\(object.objectID) is an object of entity \(object.entity.name) of another model than this coordinator's, which lays that entity out otherwise",
            [NSAffectedObjectsErrorKey: [object]])
    }

    private func insertRow(_ object: ManagedObject, _ writer: ObjectRowWriter, key: (ManagedObject) -> ObjectKey?, orders: [String: Int64]) throws {
        guard let own = key(object) else { return }
        let shape = object.entity.shape
        // The unsaved values read in place, once for all columns; their parts are taken out as
        // constants, once per row: read from the values lent in place for each column, they were
        // copied (retained and released) for each, a tenth of an insert's save.
        try object.readingPending { pending in
            let targets = shape.toOnes.indices.map { index in (pending.toOne(index) ?? nil).flatMap(key) }
            let (values, changed) = (pending.attributes, pending.changedAttributes)
            try writer.insert(
                shape, key: own.key,
                attribute: { index in changed.contains(index) ? try columnValue(values, slot: index, of: object) : .null },
                toOnes: targets, orders: shape.toOnes.map { orders[$0.name] })
        }
    }

    /// Writes the changed attributes and to-ones of `object` (or, for `everything`, all of them as
    /// the object has them) over its row at `version`; false when the row is at another version or gone.
    private func updateRow(
        _ object: ManagedObject, _ own: ObjectKey, _ writer: ObjectRowWriter, key: (ManagedObject) -> ObjectKey?, orders: [String: Int64],
        version: Int64, skippingAttributes: Set<Int> = [], skippingToOnes: Set<Int> = [], everything: Bool = false
    ) throws -> Bool {
        let shape = object.entity.shape
        // The row's new values, gathered from the unsaved values lent in place, in the list the
        // writer keeps from row to row.
        var attributes = writer.takeSpareAttributes()
        defer { writer.keepSpareAttributes(&attributes) }
        let toOnes = try object.readingPending { pending in
            if everything {
                // The saved values read once, not copied out of the object for each slot.
                let committed = object.committed
                for index in shape.attributes.indices where !skippingAttributes.contains(index) {
                    let value = pending.attribute(index) ?? committed?[index] ?? nil
                    attributes.append((index, try columnValue(value, slot: index, of: object)))
                }
            } else {
                // The changed slots alone, found from the set's bits rather than by asking every
                // slot; the values taken out as a constant once, as ``insertRow(_:_:key:orders:)``
                // takes them (read from the values lent in place, they were copied for each slot).
                let (values, changed) = (pending.attributes, pending.changedAttributes)
                try changed.forEach { index in
                    guard !skippingAttributes.contains(index) else { return }
                    attributes.append((index, try columnValue(values, slot: index, of: object)))
                }
            }
            var toOnes = [(slot: Int, target: ObjectKey?, order: Int64?)]()
            for (index, slot) in shape.toOnes.enumerated() where !skippingToOnes.contains(index) {
                let changed = pending.toOne(index)
                guard changed != nil || orders[slot.name] != nil || everything else { continue }
                let target = changed.map { $0.flatMap(key) } ?? object.committedToOne(index)
                toOnes.append((index, target, orders[slot.name]))
            }
            return toOnes
        }
        return try writer.update(shape, key: own.key, version: version, attributes: attributes, toOnes: toOnes)
    }

    /// The column value of attribute `name`: transformable objects as their data, numbers in the
    /// attribute's type; a value of another kind is a validation error (1550).
    private func columnValue(_ value: Any?, slot: Int, of object: ManagedObject) throws -> DatabaseValue {
        // The slot's type, not the attribute's whole description, which would be copied for every value.
        let type = object.entity.slotKinds[slot].type
        do {
            guard type == .transformable, let value else { return try StoredValue.databaseValue(object: value, as: type) }
            return try StoredValue.databaseValue(object: AttributeValueTransformer.data(for: value, of: object.entity.slotAttributes[slot]), as: type)
        } catch {
            throw unstorable(value, slot: slot, of: object, error)
        }
    }

    /// The column value of slot `slot` of `values`, an attribute value of `object`, as
    /// ``columnValue(_:slot:of:)`` makes it, a number of the attribute's type from its bits.
    private func columnValue(_ values: AttributeValues, slot: Int, of object: ManagedObject) throws -> DatabaseValue {
        let type = object.entity.slotKinds[slot].type
        guard type != .transformable else { return try columnValue(values[slot], slot: slot, of: object) }
        do {
            return try StoredValue.databaseValue(values, at: slot, as: type)
        } catch {
            throw unstorable(values[slot], slot: slot, of: object, error)
        }
    }

    /// The validation error (1550) of `value`, which the attribute in `slot` cannot hold.
    private func unstorable(_ value: Any?, slot: Int, of object: ManagedObject, _ error: any Error) -> NSError {
        let name = object.entity.shape.attributes[slot].name
        return ContextError.validation(1550, "'\(name)' of \(object.entity.name) cannot hold this value: \(error)", object: object, key: name, value: value)
    }

    /// Join-table and hidden-column links added and removed since the last save.
    private func writeLinks(of object: ManagedObject, _ writer: ObjectRowWriter, key: (ManagedObject) -> ObjectKey?) throws {
        guard !object.changedToManys.isEmpty, let own = key(object) else { return }
        for name in object.changedToManys.sorted() {
            guard case .toMany(let relationship)? = object.entity.properties[name] else { continue }
            let now = object.toManys[name] ?? RelatedObjects()
            let before = RelatedObjects(object.committedToManys[name] ?? [])
            for member in before.objects where !now.contains(member) && !member.deleted {
                if let other = key(member) { try writer.setLinked(false, relationship, owner: own, member: other) }
            }
            for member in now.objects where !before.contains(member) {
                if let other = key(member) { try writer.setLinked(true, relationship, owner: own, member: other) }
            }
            if relationship.isOrdered { try writer.setOrder(relationship, owner: own, members: now.objects.compactMap(key)) }
        }
    }

    /// The order values of members of changed ordered to-manys stored through their inverse
    /// to-one: 1024 apart from 2048, as Core Data numbers a list it writes (wire's stores).
    private func orderValues() -> [ObjectIdentifier: (object: ManagedObject, values: [String: Int64])] {
        var result = [ObjectIdentifier: (object: ManagedObject, values: [String: Int64])]()
        for owner in insertedList.objects where !owner.changedToManys.isEmpty { addOrderValues(of: owner, to: &result) }
        for owner in updatedList.objects where !owner.changedToManys.isEmpty { addOrderValues(of: owner, to: &result) }
        return result
    }

    /// Adds the order values of the members of `owner`'s changed ordered to-manys to `result`.
    private func addOrderValues(of owner: ManagedObject, to result: inout [ObjectIdentifier: (object: ManagedObject, values: [String: Int64])]) {
        for name in owner.changedToManys {
            guard case .toMany(let relationship)? = owner.entity.properties[name], relationship.isOrdered,
                let inverse = inverse(of: relationship, in: owner), !inverse.isToMany
            else { continue }
            for (index, member) in (owner.toManys[name]?.objects ?? []).enumerated() {
                var entry = result[ObjectIdentifier(member)] ?? (member, [:])
                entry.values[inverse.name] = Int64(index + 2) * 1024
                result[ObjectIdentifier(member)] = entry
            }
        }
    }

    /// The conflict of `object`, whose row is `current` now (nil when gone).
    private func conflict(_ object: ManagedObject, _ current: StoredObject?) -> MergeConflict {
        MergeConflict(
            sourceObject: object, objectSnapshot: snapshot(of: object.entity, object.committed ?? [], object.committedToOnes),
            cachedSnapshot: current.map { snapshot(of: object.entity, $0.attributes, $0.toOnes) },
            newVersionNumber: Int(current?.version ?? 0), oldVersionNumber: Int(object.version))
    }

    /// A row's values by property name as Core Data's snapshots hold them: attributes, and to-ones as object IDs.
    private func snapshot(of entity: EntityDescription, _ attributes: AttributeValues, _ toOnes: [ObjectKey?]) -> [String: Any] {
        var result = [String: Any]()
        for (slot, value) in zip(entity.shape.attributes, attributes) { result[slot.name] = value ?? NSNull() }
        for (slot, target) in zip(entity.shape.toOnes, toOnes) { result[slot.name] = target.flatMap { try? objectID(of: $0) } ?? NSNull() }
        return result
    }

    // MARK: - After the transaction

    private func commit(
        inserted: [ManagedObject], updated: [ManagedObject], deleted: [ManagedObject], keys: SaveKeys,
        resolutions: [ObjectIdentifier: ConflictResolution], takenOver: [ObjectIdentifier: StoredObject], stores: PersistentStoreCoordinator.OpenedStores
    ) throws -> (updated: [ManagedObject], deleted: [ManagedObject]) {
        // Looked up in the order they were handed out, which moves the table's place to look first.
        var keys = keys
        var updated = updated
        var deleted = deleted
        if !resolutions.isEmpty {
            updated = updated.filter { apply(resolutions[ObjectIdentifier($0)], to: $0) }
            deleted = deleted.filter { apply(resolutions[ObjectIdentifier($0)], to: $0) }
        }
        registered.reserve(inserted.count)
        // What the save wrote is what the coordinator has now (Core Data's row cache takes it).
        let stamp = persistentStoreCoordinator.map(readStamp)
        // New objects that took over a row of an object the app holds here: that one stays the
        // context's object for the row.
        var displaced = [(object: ManagedObject, kept: ManagedObject)]()
        for object in inserted {
            if let key = keys[ObjectIdentifier(object)] {
                let kept = rekey(object, try stores.store(of: key).objectID(number: key.number, object.entity.name, key.key))
                if kept !== object { displaced.append((object, kept)) }
            }
            object.inserted = false
            object.version = 1
            if let stored = takenOver[ObjectIdentifier(object)] {
                // The stored row is the object's now: written over (one version more), or taken as it is.
                guard mergePolicy == .mergeByPropertyObjectTrump || mergePolicy == .overwrite else {
                    discardChanges(of: object)
                    var row = stored
                    fill(object, taking: &row, at: stamp)
                    continue
                }
                object.version = stored.version &+ 1
            }
            settle(object, keys: &keys)
            object.readStamp = stamp
        }
        for object in updated {
            object.version &+= 1
            settle(object, keys: &keys)
            object.readStamp = stamp
        }
        endChanges(deleting: deleted)
        for (object, kept) in displaced { keep(kept, over: object) }
        return (updated, deleted)
    }

    /// Keeps `kept`, the object registered for the row the new `object` took over in this save, as
    /// the context's one object for that row (a context never has two objects for one ID, as
    /// Core Data's uniquing promises): `kept` reads the row again, which now holds what the save
    /// wrote, related objects refer to it instead of `object`, and `object` leaves the context
    /// with its saved values and the row's ID. A `kept` this save deleted leaves the row to `object`.
    private func keep(_ kept: ManagedObject, over object: ManagedObject) {
        guard kept.managedObjectContext === self else {
            registered.add(object)
            return
        }
        refresh(kept, mergeChanges: true)
        for other in registered.objects + insertedList.objects {
            for name in Array(other.toManys.keys) { other.toManys[name]?.replace(object, with: kept) }
            for (name, objects) in other.committedToManys where objects.contains(where: { $0 === object }) {
                other.committedToManys[name] = objects.map { $0 === object ? kept : $0 }
            }
        }
        object.detach()
    }

    /// After a save that failed in a store after others committed (134040): the committed
    /// stores' objects get their saved state, and the rest stay unsaved changes.
    private func settlePartialSave(
        _ committed: ArraySlice<StoreChanges>, remaining: ArraySlice<StoreChanges>, keys: SaveKeys,
        resolutions: [ObjectIdentifier: ConflictResolution], takenOver: [ObjectIdentifier: StoredObject], stores: PersistentStoreCoordinator.OpenedStores
    ) throws {
        let settled = try commit(
            inserted: committed.flatMap(\.inserted), updated: committed.flatMap(\.updated), deleted: committed.flatMap(\.deleted), keys: keys,
            resolutions: resolutions, takenOver: takenOver, stores: stores)
        for part in remaining {
            for object in part.inserted { insertedList.add(object) }
            for object in part.updated { updatedList.add(object) }
            for object in part.deleted { deletedList.add(object) }
        }
        didSave(inserted: committed.flatMap(\.inserted), updated: settled.updated, deleted: settled.deleted)
    }

    /// Ends a save: its deleted objects leave the context, and the change lists start empty.
    func endChanges(deleting deleted: [ManagedObject]) {
        for object in deleted {
            registered.remove(object)
            object.detach()
        }
        insertedList.removeAll()
        updatedList.removeAll()
        deletedList.removeAll()
        noticed = (0, 0, 0)
    }

    /// Gives an object whose conflict was resolved the row's state; true when the save still
    /// settles it as written (updated, or deleted).
    private func apply(_ resolution: ConflictResolution?, to object: ManagedObject) -> Bool {
        switch resolution {
        case nil:
            return true
        case .write(let current, let attributes, let toOnes, let everything)?:
            if !everything, !object.deleted {
                object.replaceSaved(with: current.attributes)
                for slot in attributes { object.pending.discardAttribute(slot) }
                for slot in toOnes { object.pending.discardToOne(slot) }
            }
            object.version = current.version
            return true
        case .takeStore(let current)?:
            discardChanges(of: object)
            object.replaceSaved(with: current.attributes)
            object.version = current.version
            return false
        case .gone?:
            registered.remove(object)
            object.detach()
            return false
        }
    }

    /// Folds an object's saved changes into its saved state.
    func settle(_ object: ManagedObject, keys: inout SaveKeys) {
        // The to-ones first: the attributes are taken out of the object to be made.
        let toOnes = currentToOnes(of: object) { keys[ObjectIdentifier($0)] ?? $0.rowKey }
        // The objects held for to-ones the save kept stay held: compared before the saved values go.
        object.keepHeldToOnes(unchangedIn: toOnes)
        var values = currentAttributes(of: object, settling: true)
        values.setToOnes(toOnes)
        object.committed = values
        object.discardPendingValues()
        for name in object.changedToManys { object.committedToManys[name] = object.toManys[name]?.objects ?? [] }
        object.changedToManys = []
    }

    /// Gives `object` its permanent ID in the registry; returns the object registered under it:
    /// `object`, or another one the app holds for that ID, which stays (see ``keep(_:over:)``).
    @discardableResult
    func rekey(_ object: ManagedObject, _ id: ManagedObjectID) -> ManagedObject {
        registered.remove(object)
        object.objectID = id
        return registered.add(object)
    }
}
