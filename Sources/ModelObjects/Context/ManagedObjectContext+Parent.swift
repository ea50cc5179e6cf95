import Foundation
import ModelSchema
import ModelStore

/// Child contexts (``ManagedObjectContext/parent``), as Core Data nests them: a child reads
/// objects as its parent holds them, unsaved changes included, and its save pushes its changes
/// into the parent as the parent's own unsaved changes, without touching the store; they reach
/// the store when the root context saves. A child asks its parent on the parent's queue, with
/// its own queue waiting, so that each context's objects are used on their queue only; the
/// parent announces what a child's save changed (objects-did-change) at the end of its next block.
extension ManagedObjectContext {
    // MARK: - What a parent gives its children (on the parent's queue)

    /// The row `id` would have if this context saved now; nil when it is deleted here or gone.
    func currentRow(of id: ManagedObjectID) -> StoredObject? {
        if let object = registeredObject(under: id) {
            guard !object.deleted else { return nil }
            fulfill(object)
            return currentRow(of: object)
        }
        if let parent { return parent.onQueue { parent.currentRow(of: id) } }
        guard let key = try? objectKey(of: id), key.key > 0 else { return nil }
        return (try? reading(key) { try $0.object(key) }) ?? nil
    }

    /// The members a to-many of `id` has here now, less those deleted here.
    func currentMembers(of relationship: Relationship, in id: ManagedObjectID) -> [ObjectKey] {
        let keys: [ObjectKey]
        if let object = registeredObject(under: id) {
            keys = contents(of: relationship, in: object).objects.map(\.rowKey)
        } else if let parent {
            keys = parent.onQueue { parent.currentMembers(of: relationship, in: id) }
        } else if let key = try? objectKey(of: id), key.key > 0 {
            keys = (try? reading(key) { try $0.related(relationship, of: key) }) ?? []
        } else {
            keys = []
        }
        return keys.filter { registered[ObjectRegistry.Key(number: $0.number, value: $0.key)]?.deleted != true }
    }

    /// The rows this context and its ancestors changed without saving, of objects a fetch of
    /// `entityName` may return: new and changed objects' rows as they are now, nil for deleted ones.
    func pendingRows(kindOf entityName: String) -> [ObjectKey: StoredObject?] {
        var rows = parent.map { parent in parent.onQueue { parent.pendingRows(kindOf: entityName) } } ?? [:]
        guard hasChanges, let entities = try? self.rows().entities else { return rows }
        for object in insertedList.objects + updatedList.objects where entities.isKind(object.entity.name, of: entityName) {
            fulfill(object)
            rows[object.rowKey] = currentRow(of: object)
        }
        for object in deletedList.objects where entities.isKind(object.entity.name, of: entityName) {
            rows[object.rowKey] = .some(nil)
        }
        return rows
    }

    /// The row of `object` with its unsaved changes: transformable values as their data, to-ones as keys.
    private func currentRow(of object: ManagedObject) -> StoredObject {
        StoredObject(
            key: object.objectID.rowKey, number: object.entity.shape.number, version: object.version,
            attributes: currentAttributes(of: object), toOnes: currentToOnes(of: object) { $0.rowKey })
    }

    /// The attribute values of `object` with its unsaved changes, as its row would hold them;
    /// `settling`, the object's saved values are used up making them (the caller sets them back).
    func currentAttributes(of object: ManagedObject, settling: Bool = false) -> AttributeValues {
        // What the values need of the entity, read before the closure: a class the closure
        // captured would be retained and released for every object a save settles.
        let transformable = object.entity.hasTransformableSlots
        let count = object.entity.shape.attributes.count
        return object.readingPending { pending in
            // A new object's values, every slot set: its row as they are.
            if object.committed == nil, !transformable, let all = pending.allAttributes { return all }
            // A save's new saved values: taken out of the object, so that they change in place, not
            // in a copy (and without the retain and release of one).
            var attributes = (settling ? object.committed.take() : object.committed) ?? AttributeValues(nils: 0)
            if attributes.count < count { attributes = AttributeValues(nils: count) }
            let changed = pending.attributes
            guard transformable else {
                // A value is copied as it is kept, a number as its bits, not through an `Any`.
                pending.changedAttributes.forEach { attributes.copySlot($0, from: changed) }
                return attributes
            }
            let entity = object.entity
            pending.changedAttributes.forEach { index in
                guard entity.slotKinds[index].type == .transformable else { return attributes.copySlot(index, from: changed) }
                attributes[index] = changed[index].map { AttributeValueTransformer.data(for: $0, of: entity.slotAttributes[index]) }
            }
            return attributes
        }
    }

    /// The to-one targets of `object` with its unsaved changes, each as `key` gives it.
    func currentToOnes(of object: ManagedObject, key: (ManagedObject) -> ObjectKey?) -> [ObjectKey?] {
        let count = object.entity.shape.toOnes.count
        if count == 0 { return [] }
        var toOnes = object.committedToOnes
        if toOnes.count != count { toOnes = Array(repeating: nil, count: count) }
        object.readingPending { pending in
            for index in 0..<count {
                guard let target = pending.toOne(index) else { continue }
                toOnes[index] = target.flatMap(key)
            }
        }
        return toOnes
    }

    // MARK: - Saving into the parent

    /// A child's save: its changes become the parent's unsaved changes, and its objects' saved
    /// state; the store is not touched.
    func save(into parent: ManagedObjectContext) throws {
        let (inserted, updated, deleted) = try beginSave()
        parent.onQueue { parent.absorb(inserted: inserted, updated: updated, deleted: deleted) }
        registered.reserve(inserted.count)
        for object in inserted {
            object.inserted = false
            registered.add(object)
        }
        var none = SaveKeys()
        for object in [inserted, updated].joined() { settle(object, keys: &none) }
        endChanges(deleting: deleted)
        didSave(inserted: inserted, updated: updated, deleted: deleted)
    }

    /// Takes a child's saved changes as this context's own: its new objects are new here under
    /// the same IDs, its changed properties are changed here (the child's values win), its deleted
    /// objects are deleted here.
    private func absorb(inserted: [ManagedObject], updated: [ManagedObject], deleted: [ManagedObject]) {
        // New objects are new here, kept in the inserted list as this context's own new ones are
        // (only one with a permanent ID already goes in the table).
        insertedList.reserve(inserted.count)
        let made = inserted.map { object in
            let mine = type(of: object).init(entity: object.entity, insertInto: nil)
            mine.attach(to: self, id: object.objectID)
            mine.inserted = true
            insertedList.add(mine)
            if !object.objectID.isTemporaryID { registered.add(mine) }
            return mine
        }
        /// This context's object for the child's `object`: the one registered or inserted here
        /// under its ID, else a fault.
        func counterpart(_ object: ManagedObject) -> ManagedObject {
            registeredObject(under: object.objectID) ?? makeObject(object.entity, id: object.objectID, of: type(of: object))
        }
        for (object, mine) in zip(inserted, made) { copyChanges(of: object, into: mine, counterpart) }
        for object in updated {
            let mine = counterpart(object)
            guard !mine.deleted else { continue }
            copyChanges(of: object, into: mine, counterpart)
            markUpdated(mine)
        }
        for object in deleted { delete(counterpart(object)) }
    }

    /// Sets on `mine` the properties the child's `object` changed, its related objects mapped to this context's.
    private func copyChanges(of object: ManagedObject, into mine: ManagedObject, _ counterpart: (ManagedObject) -> ManagedObject) {
        let shape = object.entity.shape
        let pending = object.pending
        if mine.inserted, mine.pending.isEmpty, let all = pending.allAttributes {
            mine.pending.startWith(all)
        } else {
            for slot in shape.attributes.indices {
                if let value = pending.attribute(slot) { mine.pending.setAttribute(value, slot: slot, of: shape.attributes.count) }
            }
        }
        for slot in shape.toOnes.indices {
            if let target = pending.toOne(slot) { mine.pending.setToOne(target.map(counterpart), slot: slot, of: shape.toOnes.count) }
        }
        for (name, value) in pending.transients {
            mine.pending.setTransient(value, name: name)
            mine.transients[name] = value
        }
        for name in object.changedToManys {
            guard case .toMany(let relationship)? = object.entity.properties[name] else { continue }
            // What the relationship holds here before the child's change, which the root's save compares with.
            contents(of: relationship, in: mine)
            mine.toManys[name] = RelatedObjects((object.toManys[name]?.objects ?? []).map(counterpart))
            mine.changedToManys.insert(name)
        }
    }
}

extension ManagedObject {
    /// The object's key in its context's tables (its row's, or a new object's stand-in).
    var rowKey: ObjectKey { ObjectKey(number: entity.shape.number, key: objectID.rowKey) }
}
