import ModelSchema
import ModelStore

/// Relationships in memory: to-manys read when first used, and every change mirrored on the
/// inverse side at once, as Core Data keeps both sides of a relationship in step.
extension ManagedObjectContext {
    /// The objects a to-many of `object` holds now; read from the store (a child's, from its
    /// parent) the first time (a new object's start empty).
    @discardableResult
    func contents(of relationship: Relationship, in object: ManagedObject) -> RelatedObjects {
        if let known = object.toManys[relationship.name] { return known }
        var loaded = [ManagedObject]()
        if !object.inserted, let key = try? objectKey(of: object.objectID) {
            let keys: [ObjectKey] = if let parent {
                parent.onQueue { parent.currentMembers(of: relationship, in: object.objectID) }
            } else {
                (try? reading(key) { try $0.related(relationship, of: key) }) ?? []
            }
            loaded = keys.compactMap(registeredOrFault)
        }
        object.committedToManys[relationship.name] = loaded
        let contents = RelatedObjects(loaded)
        object.toManys[relationship.name] = contents
        return contents
    }

    /// The object a to-one of `object` points to now.
    func target(of relationship: Relationship, in object: ManagedObject) -> ManagedObject? {
        object.value(forKey: relationship.name) as? ManagedObject
    }

    /// Whether this context may change `other`: it is this context's, or no context's. An object
    /// of another context belongs to that context's queue, so a relationship to it keeps only
    /// this side, and the save refuses it (133010) as Core Data refuses it when it is set.
    func mayChange(_ other: ManagedObject) -> Bool {
        guard let owner = other.managedObjectContext else { return true }
        return owner === self
    }

    /// Points a to-one of `object` at `target`, and updates the inverse of both the old and the
    /// new target (of those this context may change).
    func setToOne(_ relationship: Relationship, of object: ManagedObject, to target: ManagedObject?) {
        let previousTarget = self.target(of: relationship, in: object)
        guard previousTarget !== target else { return }
        assign(relationship, of: object, to: target)
        guard let inverse = inverse(of: relationship, in: object) else { return }
        let old = previousTarget.flatMap { mayChange($0) ? $0 : nil }
        let target = target.flatMap { mayChange($0) ? $0 : nil }
        if inverse.isToMany {
            if let old { edit(inverse, of: old) { $0.remove(object) } }
            if let target { edit(inverse, of: target) { $0.append(object) } }
        } else {
            if let old { assign(inverse, of: old, to: nil) }
            if let target {
                if let previous = self.target(of: inverse, in: target), previous !== object { assign(relationship, of: previous, to: nil) }
                assign(inverse, of: target, to: object)
            }
        }
    }

    /// Adds `member` to a to-many of `owner` (at `index` when ordered), and sets its inverse.
    func link(_ member: ManagedObject, into relationship: Relationship, of owner: ManagedObject, at index: Int?) {
        var added = false
        edit(relationship, of: owner) { added = $0.append(member, at: index) }
        guard added, mayChange(member), let inverse = inverse(of: relationship, in: owner) else { return }
        if inverse.isToMany {
            edit(inverse, of: member) { $0.append(owner) }
        } else {
            if let previous = target(of: inverse, in: member), previous !== owner { edit(relationship, of: previous) { $0.remove(member) } }
            assign(inverse, of: member, to: owner)
        }
    }

    /// Removes `member` from a to-many of `owner`, and clears its inverse.
    func unlink(_ member: ManagedObject, from relationship: Relationship, of owner: ManagedObject) {
        var removed = false
        edit(relationship, of: owner) { removed = $0.remove(member) }
        guard removed, mayChange(member), let inverse = inverse(of: relationship, in: owner) else { return }
        if inverse.isToMany {
            edit(inverse, of: member) { $0.remove(owner) }
        } else if target(of: inverse, in: member) === owner {
            assign(inverse, of: member, to: nil)
        }
    }

    /// Makes a to-many of `owner` hold `members`, in their order.
    func replaceToMany(_ relationship: Relationship, of owner: ManagedObject, with members: [ManagedObject]) {
        let wanted = RelatedObjects(members)
        for member in contents(of: relationship, in: owner).objects where !wanted.contains(member) {
            unlink(member, from: relationship, of: owner)
        }
        for member in wanted.objects { link(member, into: relationship, of: owner, at: nil) }
        if relationship.isOrdered, !contents(of: relationship, in: owner).objects.elementsEqual(wanted.objects, by: ===) {
            edit(relationship, of: owner) { $0 = wanted }
        }
    }

    /// Takes `object` out of every relationship, as deleting or forgetting it does.
    func unlinkEverything(_ object: ManagedObject) {
        for relationship in object.entity.relationships where !relationship.isTransient {
            if relationship.isToMany {
                for member in contents(of: relationship, in: object).objects { unlink(member, from: relationship, of: object) }
            } else {
                setToOne(relationship, of: object, to: nil)
            }
        }
    }

    // MARK: - Primitive changes

    /// Points one side of a to-one at `target`, leaving the inverse as it is.
    func assign(_ relationship: Relationship, of object: ManagedObject, to target: ManagedObject?) {
        if undoManager != nil { registerToOneUndo(relationship, of: object) }
        object.observingChange(of: relationship.name) {
            if case .toOne(_, let slot?)? = object.entity.properties[relationship.name] {
                let count = object.entity.shape.toOnes.count
                object.addToPending { $0.setToOne(target, slot: slot, of: count) }
            } else {
                object.addToPending { $0.setTransient(target, name: relationship.name) }
            }
            markUpdated(object)
        }
    }

    /// Changes one side of a to-many, leaving the inverse as it is.
    func edit(_ relationship: Relationship, of object: ManagedObject, _ change: (inout RelatedObjects) -> Void) {
        var objects = contents(of: relationship, in: object)
        if undoManager != nil { registerToManyUndo(relationship, of: object, old: objects) }
        change(&objects)
        object.observingChange(of: relationship.name) {
            object.toManys[relationship.name] = objects
            object.changedToManys.insert(relationship.name)
            markUpdated(object)
        }
    }

    /// The inverse of a relationship of `object`'s entity, looked up in the model.
    func inverse(of relationship: Relationship, in object: ManagedObject) -> Relationship? {
        guard let name = relationship.inverseName,
            let destination = persistentStoreCoordinator?.managedObjectModel.entitiesByName[relationship.destinationEntityName]
        else { return nil }
        return destination.relationshipsByName[name]
    }
}
