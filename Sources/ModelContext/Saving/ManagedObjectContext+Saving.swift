import Foundation
import GRDB
import ModelSchema
import ModelStore

/// Saving: delete rules are applied, every changed object is validated, then one write
/// transaction inserts, updates (with `Z_OPT` checked and incremented) and deletes the rows and
/// links as Core Data writes them. A save that fails changes neither the store nor the objects'
/// saved state.
extension ManagedObjectContext {
    /// Writes every unsaved change to the store; throws the validation error (1560 listing several),
    /// or 133020 when a row changed or vanished in the store since it was read.
    public func save() throws {
        guard hasChanges else { return }
        let coordinator = try coordinator()
        let rows = coordinator.managedObjectModel.rows
        try processPendingChanges()
        let inserted = insertedList.objects
        let deleted = deletedList.objects
        if let error = ContextError.combined(ObjectValidator.errors(inserted: inserted, updated: updatedList.objects, deleted: deleted, in: self)) {
            throw error
        }
        let orders = orderValues()
        let updated = updatedList.objects + orders.keys.compactMap { identifier in
            orders[identifier]?.object
        }.filter { !$0.inserted && !$0.deleted && !updatedList.contains($0) }
        // A fault changed only through relationships (an inverse kept in step, a to-many set)
        // has not read its row: its version and saved to-ones are needed to update it.
        for object in updated where object.isFault { fulfill(object) }
        let store = try coordinator.store()
        let keys = try store.database.write { db -> [ObjectIdentifier: ObjectKey] in
            let writer = ObjectRowWriter(db: db, rows: rows)
            let keys = try assignKeys(inserted, writer)
            func key(_ object: ManagedObject) -> ObjectKey? {
                keys[ObjectIdentifier(object)] ?? (try? objectKey(of: object.objectID)) ?? nil
            }
            for object in inserted {
                try insertRow(object, writer, key: key, orders: orders[ObjectIdentifier(object)]?.values ?? [:])
            }
            for object in updated {
                try updateRow(object, writer, key: key, orders: orders[ObjectIdentifier(object)]?.values ?? [:])
            }
            for object in deleted {
                guard let own = key(object) else { continue }
                try writer.unlinkAll(own)
                guard try writer.delete(object.entity.shape, key: own.key, version: object.version) else { throw conflict(object) }
            }
            for list in [inserted, updated] {
                for object in list { try writeLinks(of: object, writer, key: key) }
            }
            return keys
        }
        try commit(inserted: inserted, updated: updated, deleted: deleted, keys: keys, storeIdentifier: store.identifier)
    }

    /// Gives new objects permanent IDs now (reserving their keys in the store); they stay inserted until saved.
    public func obtainPermanentIDs(for objects: [ManagedObject]) throws {
        let pending = objects.filter { $0.inserted && $0.objectID.isTemporaryID }
        guard !pending.isEmpty else { return }
        let store = try coordinator().store()
        let rows = try self.rows()
        let keys = try store.database.write { try assignKeys(pending, ObjectRowWriter(db: $0, rows: rows)) }
        for object in pending {
            guard let key = keys[ObjectIdentifier(object)] else { continue }
            rekey(object, ManagedObjectID(entityName: object.entity.name, storeIdentifier: store.identifier, primaryKey: key.key))
        }
    }

    // MARK: - Delete rules

    /// Applies the delete rules of every deleted object's relationships: nullify takes it out of
    /// the inverse, cascade deletes the destinations too, deny is checked by validation, no action
    /// leaves the destinations as they are.
    public func processPendingChanges() throws {
        var queue = deletedList.objects
        var done = Set<ObjectIdentifier>()
        while let object = queue.popLast() {
            guard done.insert(ObjectIdentifier(object)).inserted else { continue }
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

    private func assignKeys(_ objects: [ManagedObject], _ writer: ObjectRowWriter) throws -> [ObjectIdentifier: ObjectKey] {
        var byRoot = [Int: [ManagedObject]]()
        var roots = [Int]()
        for object in objects where object.objectID.isTemporaryID {
            let root = object.entity.shape.rootNumber
            if byRoot[root] == nil { roots.append(root) }
            byRoot[root, default: []].append(object)
        }
        var keys = [ObjectIdentifier: ObjectKey]()
        for root in roots {
            let members = byRoot[root] ?? []
            let first = try writer.reserveKeys(rootNumber: root, count: members.count)
            for (offset, object) in members.enumerated() {
                keys[ObjectIdentifier(object)] = ObjectKey(number: object.entity.shape.number, key: first + Int64(offset))
            }
        }
        return keys
    }

    private func insertRow(_ object: ManagedObject, _ writer: ObjectRowWriter, key: (ManagedObject) -> ObjectKey?, orders: [String: Int64]) throws {
        guard let own = key(object) else { return }
        let shape = object.entity.shape
        let attributes = try shape.attributes.indices.map { index in
            try columnValue(object.pending.attribute(index) ?? nil, slot: index, of: object)
        }
        let targets = shape.toOnes.indices.map { index in (object.pending.toOne(index) ?? nil).flatMap(key) }
        try writer.insert(shape, key: own.key, attributes: attributes, toOnes: targets, orders: shape.toOnes.map { orders[$0.name] })
    }

    private func updateRow(_ object: ManagedObject, _ writer: ObjectRowWriter, key: (ManagedObject) -> ObjectKey?, orders: [String: Int64]) throws {
        guard let own = key(object) else { return }
        let shape = object.entity.shape
        var attributes = [(slot: Int, value: DatabaseValue)]()
        for index in shape.attributes.indices {
            guard let value = object.pending.attribute(index) else { continue }
            attributes.append((index, try columnValue(value, slot: index, of: object)))
        }
        var toOnes = [(slot: Int, target: ObjectKey?, order: Int64?)]()
        for (index, slot) in shape.toOnes.enumerated() {
            let changed = object.pending.toOne(index)
            guard changed != nil || orders[slot.name] != nil else { continue }
            let target = changed.map { $0.flatMap(key) } ?? object.committedToOnes[index]
            toOnes.append((index, target, orders[slot.name]))
        }
        guard try writer.update(shape, key: own.key, version: object.version, attributes: attributes, toOnes: toOnes) else { throw conflict(object) }
    }

    /// The column value of attribute `name`: transformable objects as their data, numbers in the
    /// attribute's type; a value of another kind is a validation error (1550).
    private func columnValue(_ value: Any?, slot: Int, of object: ManagedObject) throws -> DatabaseValue {
        // The slot's type, not the attribute's whole description, which would be copied for every value.
        let type = object.entity.shape.attributes[slot].type
        do {
            guard type == .transformable, let value else { return try StoredValue.databaseValue(object: value, as: type) }
            return try StoredValue.databaseValue(object: ValueTransformer.data(for: value, of: object.entity.slotAttributes[slot]), as: type)
        } catch {
            let name = object.entity.shape.attributes[slot].name
            throw ContextError.validation(1550, "'\(name)' of \(object.entity.name) cannot hold this value: \(error)", object: object, key: name, value: value)
        }
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
        for owner in [insertedList.objects, updatedList.objects].joined() where !owner.changedToManys.isEmpty {
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
        return result
    }

    private func conflict(_ object: ManagedObject) -> NSError {
        ContextError.make(133020, "\(object.objectID) changed or was deleted in the store since it was read", [NSAffectedObjectsErrorKey: [object]])
    }

    // MARK: - After the transaction

    private func commit(inserted: [ManagedObject], updated: [ManagedObject], deleted: [ManagedObject], keys: [ObjectIdentifier: ObjectKey], storeIdentifier: String) throws {
        registered.reserve(inserted.count)
        for object in inserted {
            if let key = keys[ObjectIdentifier(object)] {
                rekey(object, ManagedObjectID(entityName: object.entity.name, storeIdentifier: storeIdentifier, primaryKey: key.key))
            }
            object.inserted = false
            object.version = 1
            settle(object, keys: keys)
        }
        for object in updated {
            object.version += 1
            settle(object, keys: keys)
        }
        for object in deleted {
            registered.remove(object)
            object.detach()
        }
        insertedList = ChangeList()
        updatedList = ChangeList()
        deletedList = ChangeList()
    }

    /// Folds an object's saved changes into its saved state.
    private func settle(_ object: ManagedObject, keys: [ObjectIdentifier: ObjectKey]) {
        let entity = object.entity
        let shape = entity.shape
        if object.committed == nil, !entity.hasTransformableSlots, let all = object.pending.allAttributes {
            // A new object's values, every slot set: they become its saved values as they are.
            object.committed = all
        } else {
            var committed = object.committed ?? Array(repeating: nil, count: shape.attributes.count)
            if committed.count < shape.attributes.count { committed = Array(repeating: nil, count: shape.attributes.count) }
            for index in shape.attributes.indices {
                guard let value = object.pending.attribute(index) else { continue }
                committed[index] = shape.attributes[index].type == .transformable
                    ? value.map { ValueTransformer.data(for: $0, of: entity.slotAttributes[index]) } : value
            }
            object.committed = committed
        }
        var toOnes = object.committedToOnes.count == shape.toOnes.count ? object.committedToOnes : Array(repeating: nil, count: shape.toOnes.count)
        for index in shape.toOnes.indices {
            guard let target = object.pending.toOne(index) else { continue }
            toOnes[index] = target.flatMap { keys[ObjectIdentifier($0)] ?? (try? objectKey(of: $0.objectID)) ?? nil }
        }
        object.committedToOnes = toOnes
        object.pending = PendingValues()
        for name in object.changedToManys { object.committedToManys[name] = object.toManys[name]?.objects ?? [] }
        object.changedToManys = []
    }

    /// Gives `object` its permanent ID in the registry.
    func rekey(_ object: ManagedObject, _ id: ManagedObjectID) {
        registered.remove(object)
        object.objectID = id
        registered.add(object)
    }
}
