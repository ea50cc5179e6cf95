import Foundation
import ModelSchema
import Synchronization

/// Undo and redo on a context, as Core Data's: with an ``undoManager`` set, every change (an
/// attribute's value, each side of a relationship, an insert, a delete, the delete rules a save
/// applies) registers its inverse as it is made, in the undo manager's open group, and the end
/// of the event closes that group (the end of a `perform` or `performAndWait` block,
/// ``processPendingChanges()``, a main-queue context's next turn of the main queue). Undoing sets
/// the old values back as changes: after a save the context is dirty again with them, and the
/// store keeps the saved ones until the next save. Undo and redo post objects-did-change with what
/// they changed: objects brought back under inserted, objects taken away under deleted. With no
/// undo manager, each change pays one nil check.
extension ManagedObjectContext {
    /// How many contexts of the process have an undo manager now: while none has, a change of an
    /// object needs nothing of its context that it has not already done (see
    /// ``ManagedObject/setAttribute(_:slot:key:)``).
    static let undoingContexts = Atomic<Int>(0)

    /// Undoes the last group of changes (`undo()`): sends undo to ``undoManager``, if any.
    public func undo() {
        if violatesQueue() { return onQueue { undo() } }
        undoManager?.undo()
    }

    /// Redoes the last group of changes undone (`redo()`): sends redo to ``undoManager``, if any.
    public func redo() {
        if violatesQueue() { return onQueue { redo() } }
        undoManager?.redo()
    }

    /// Ends the event: the undo group the undo manager opened by itself is closed.
    func endUndoEvent() {
        undoManager?.endEvent()
    }

    // MARK: - Registering changes

    /// Records `restore` with the undo manager; a main-queue context's first change of an event
    /// also has the main queue's next turn end the event, as the main run loop does on Apple platforms.
    private func registerUndo(_ manager: ContextUndoManager, _ restore: @escaping (ManagedObjectContext) -> Void) {
        if concurrencyType == .mainQueueConcurrencyType, manager.groupingLevel == 0, manager.groupsByEvent {
            DispatchQueue.main.async { [weak self] in self?.endUndoEvent() }
        }
        manager.registerUndo(withTarget: self, handler: restore)
    }

    /// Records how to set attribute `key` of `object` back to its value now, before it changes.
    func registerValueUndo(_ object: ManagedObject, key: String) {
        guard let manager = undoManager, manager.isUndoRegistrationEnabled else { return }
        let old = object.value(forKey: key)
        registerUndo(manager) { context in
            guard object.managedObjectContext === context else { return }
            context.undone?.note(object, .updated)
            object.setValue(old, forKey: key)
        }
    }

    /// Records how to point a to-one of `object` back at its target now, before it changes (one
    /// side: each side of a relationship records its own change).
    func registerToOneUndo(_ relationship: Relationship, of object: ManagedObject) {
        guard let manager = undoManager, manager.isUndoRegistrationEnabled else { return }
        let old = object.value(forKey: relationship.name) as? ManagedObject
        registerUndo(manager) { context in
            guard object.managedObjectContext === context else { return }
            context.undone?.note(object, .updated)
            context.assign(relationship, of: object, to: old)
        }
    }

    /// Records how to give a to-many of `object` back the objects it holds now, `old`, before it changes.
    func registerToManyUndo(_ relationship: Relationship, of object: ManagedObject, old: RelatedObjects) {
        guard let manager = undoManager, manager.isUndoRegistrationEnabled else { return }
        registerUndo(manager) { context in
            guard object.managedObjectContext === context else { return }
            context.undone?.note(object, .updated)
            context.edit(relationship, of: object) { $0 = old }
        }
    }

    /// Records how to take back the insert of `object`.
    func registerInsertUndo(_ object: ManagedObject) {
        guard let manager = undoManager, manager.isUndoRegistrationEnabled else { return }
        registerUndo(manager) { context in context.takeBackInsert(of: object) }
    }

    /// Records how to take back the delete of `object`, a new object (`wasInserted`) or a saved one.
    func registerDeleteUndo(_ object: ManagedObject, wasInserted: Bool) {
        guard let manager = undoManager, manager.isUndoRegistrationEnabled else { return }
        registerUndo(manager) { context in context.takeBackDelete(of: object, wasInserted: wasInserted) }
    }

    // MARK: - Taking back inserts and deletes

    /// Undoes an insert: a new object leaves the context (no longer inserted); one saved since is deleted.
    private func takeBackInsert(of object: ManagedObject) {
        guard object.managedObjectContext === self else { return }
        undone?.note(object, .removed)
        guard object.inserted else { return delete(object) }
        insertedList.remove(object)
        registered.remove(object)
        object.inserted = false
        object.detach()
        if let manager = undoManager, manager.isUndoRegistrationEnabled {
            registerUndo(manager) { context in
                context.undone?.note(object, .revived)
                context.insert(object)
            }
        }
    }

    /// Undoes a delete: the object is back, not deleted (a new one inserted again). A saved
    /// object whose deletion was saved since has left the context and stays gone.
    private func takeBackDelete(of object: ManagedObject, wasInserted: Bool) {
        guard object.deleted else { return }
        if wasInserted {
            guard object.managedObjectContext == nil else { return }
            object.attach(to: self, id: object.objectID)
            object.inserted = true
            object.deleted = false
            insertedList.add(object)
            if !object.objectID.isTemporaryID { registered.add(object) }
        } else {
            guard object.managedObjectContext === self else { return }
            object.deleted = false
            deletedList.remove(object)
            if object.hasChanges { updatedList.add(object) }
        }
        undone?.note(object, .revived)
        if let manager = undoManager, manager.isUndoRegistrationEnabled {
            registerUndo(manager) { context in
                context.undone?.note(object, .removed)
                context.delete(object)
            }
        }
    }

    // MARK: - Announcing

    /// Before an undo or redo: announces the changes made so far, and starts collecting its own.
    func willUndoOrRedo() {
        postObjectsDidChange()
        undone = UndoneChanges()
    }

    /// After an undo or redo: posts objects-did-change with the objects it changed.
    func didUndoOrRedo() {
        guard let changes = undone else { return }
        undone = nil
        // What the undo changed is announced here, not again at the next objects-did-change.
        noticed = (insertedList.objects.count, updatedList.objects.count, deletedList.objects.count)
        forgetUnnoticedChanges()
        guard !changes.isEmpty else { return }
        NotificationCenter.default.post(name: Self.didChangeObjectsNotification, object: self, userInfo: [
            NSInsertedObjectsKey: changes.objects(.revived), NSUpdatedObjectsKey: changes.objects(.updated),
            NSDeletedObjectsKey: changes.objects(.removed),
        ])
    }
}

/// The objects an undo or redo changed, each under what happened to it last: brought back
/// (inserted), taken away (deleted), or changed; bringing back or taking away outranks a change.
struct UndoneChanges {
    enum Kind { case updated, revived, removed }

    private var kinds: [ObjectIdentifier: (object: ManagedObject, kind: Kind)] = [:]

    var isEmpty: Bool { kinds.isEmpty }

    mutating func note(_ object: ManagedObject, _ kind: Kind) {
        let key = ObjectIdentifier(object)
        if kind == .updated, kinds[key] != nil { return }
        kinds[key] = (object, kind)
    }

    func objects(_ kind: Kind) -> Set<ManagedObject> {
        Set(kinds.values.filter { $0.kind == kind }.map(\.object))
    }
}
