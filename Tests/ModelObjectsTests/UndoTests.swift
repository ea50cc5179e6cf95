import Foundation
import ModelObjects
import ModelStack
import Synchronization
import Testing
import _ModelTestSupport

/// Undo and redo on a context with an undo manager, as Apple documents them: `undoManager` is nil
/// by default and enables undo when set (developer.apple.com/documentation/coredata/nsmanagedobjectcontext/undomanager),
/// `undo()` reverses the latest uncommitted changes to the object graph (…/nsmanagedobjectcontext/undo()),
/// `processPendingChanges()` records the changes with the undo manager at the end of the event
/// (…/processpendingchanges()), `rollback()` removes everything from the undo stack
/// (…/rollback()), and `UndoManager` groups by event and keeps `levelsOfUndo` groups
/// (developer.apple.com/documentation/foundation/undomanager).
struct UndoTests {
    typealias Support = ContextTestSupport

    /// A background context of a new in-memory Library store, with an undo manager.
    static func context(undo: Bool = true, in folder: URL? = nil) async throws -> (PersistentContainer, ManagedObjectContext) {
        let container = try await Support.container(in: folder)
        let context = container.newBackgroundContext()
        if undo { context.undoManager = UndoManager() }
        return (container, context)
    }

    static func make(_ entity: String, in context: ManagedObjectContext, _ values: [String: Any] = [:]) -> ManagedObject {
        let model = context.persistentStoreCoordinator!.managedObjectModel
        let object = ManagedObject(entity: model.entitiesByName[entity]!, insertInto: context)
        for (key, value) in values { object.setValue(value, forKey: key) }
        return object
    }

    /// An attribute change is undone (the old value comes back) and redone; a context's undo
    /// manager is nil by default, and with none, undo changes nothing (Apple's `undoManager`
    /// documentation: "The default value is nil"; CoreDataPlus's test_InvestigationUndoManager).
    @Test func anAttributeChangeIsUndoneAndRedone() async throws {
        let (plainContainer, plain) = try await Self.context(undo: false)
        defer { withExtendedLifetime(plainContainer) {} }
        plain.performAndWait {
            #expect(plain.undoManager == nil)
            let author = Self.make("Author", in: plain, ["name": "Ursula"])
            plain.undo()
            #expect(author.value(forKey: "name") as? String == "Ursula" && plain.insertedObjects.count == 1)
        }
        let (container, context) = try await Self.context()
        defer { withExtendedLifetime(container) {} }
        try context.performAndWait {
            let author = Self.make("Author", in: context, ["name": "Ursula"])
            try context.save()
            context.processPendingChanges()
            author.setValue("Ursula K.", forKey: "name")
            context.undo()
            #expect(author.value(forKey: "name") as? String == "Ursula")
            #expect(context.undoManager?.canRedo == true)
            context.redo()
            #expect(author.value(forKey: "name") as? String == "Ursula K.")
            context.undo()
            #expect(author.value(forKey: "name") as? String == "Ursula")
        }
    }

    /// An undo manager set after a new object's first change records its next change: a new
    /// object already awaiting objects-did-change skips its context on a change only while no
    /// context records undo, so the manager set later must still see that change.
    @Test func anUndoManagerSetLaterRecordsTheNextChangeOfANewObject() async throws {
        let (container, context) = try await Self.context(undo: false)
        defer { withExtendedLifetime(container) {} }
        context.performAndWait {
            let author = Self.make("Author", in: context, ["name": "Ursula"])
            context.undoManager = UndoManager()
            author.setValue("Ursula K.", forKey: "name")
            #expect(context.undoManager?.canUndo == true)
            context.undo()
            #expect(author.value(forKey: "name") as? String == "Ursula")
            #expect(author.isInserted && context.insertedObjects == [author])
            context.undoManager = nil
            author.setValue("Le Guin", forKey: "name")
            #expect(author.value(forKey: "name") as? String == "Le Guin" && context.hasChanges)
        }
    }

    /// Setting a to-one moves the object between the inverse to-manys; undo puts both sides back,
    /// redo moves it again (Core Data keeps inverses consistent through undo: Apple's `undo()` reverses
    /// the changes "applied to objects in the object graph").
    @Test func aToOneChangeIsUndoneOnBothSides() async throws {
        let (container, context) = try await Self.context()
        defer { withExtendedLifetime(container) {} }
        try context.performAndWait {
            let first = Self.make("Author", in: context, ["name": "Ursula"])
            let second = Self.make("Author", in: context, ["name": "Isaac"])
            let book = Self.make("Book", in: context, ["title": "Earthsea", "isbn": "1", "author": first])
            try context.save()
            context.processPendingChanges()
            book.setValue(second, forKey: "author")
            #expect((first.value(forKey: "publications") as? NSOrderedSet)?.count == 0)
            context.undo()
            #expect(book.value(forKey: "author") as? ManagedObject === first)
            #expect((first.value(forKey: "publications") as? NSOrderedSet)?.array as? [ManagedObject] == [book])
            #expect((second.value(forKey: "publications") as? NSOrderedSet)?.count == 0)
            context.redo()
            #expect(book.value(forKey: "author") as? ManagedObject === second)
            #expect((second.value(forKey: "publications") as? NSOrderedSet)?.array as? [ManagedObject] == [book])
            #expect((first.value(forKey: "publications") as? NSOrderedSet)?.count == 0)
        }
    }

    /// Adding to a many-to-many is undone on both sides and redone; an ordered to-many's order too.
    @Test func aToManyChangeIsUndoneOnBothSides() async throws {
        let (container, context) = try await Self.context()
        defer { withExtendedLifetime(container) {} }
        try context.performAndWait {
            let topic = Self.make("Topic", in: context, ["name": "fantasy"])
            let book = Self.make("Book", in: context, ["title": "Earthsea", "isbn": "1"])
            try context.save()
            context.processPendingChanges()
            topic.addObject(book, toRelationship: "publications")
            #expect((book.value(forKey: "topics") as? NSSet)?.count == 1)
            context.undo()
            #expect((book.value(forKey: "topics") as? NSSet)?.count == 0)
            #expect((topic.value(forKey: "publications") as? NSSet)?.count == 0)
            context.redo()
            #expect((book.value(forKey: "topics") as? NSSet)?.allObjects.first as? ManagedObject === topic)
            #expect((topic.value(forKey: "publications") as? NSSet)?.allObjects.first as? ManagedObject === book)
            // An ordered to-many set anew in another order gets its order back.
            let author = Self.make("Author", in: context, ["name": "Ursula"])
            let other = Self.make("Book", in: context, ["title": "Lathe", "isbn": "2"])
            author.setValue(NSOrderedSet(array: [book, other]), forKey: "publications")
            context.processPendingChanges()
            author.setValue(NSOrderedSet(array: [other, book]), forKey: "publications")
            context.undo()
            #expect((author.value(forKey: "publications") as? NSOrderedSet)?.array as? [ManagedObject] == [book, other])
            context.redo()
            #expect((author.value(forKey: "publications") as? NSOrderedSet)?.array as? [ManagedObject] == [other, book])
        }
    }

    /// Undoing an insert takes the object out of the context (no longer inserted), and observers
    /// see it go under deleted objects; redo inserts it again (CoreDataPlus's
    /// test_InvestigationUndoManager: after undo, insertedObjects is empty; after redo, not).
    @Test func anInsertIsUndoneAndRedone() async throws {
        let (container, context) = try await Self.context()
        defer { withExtendedLifetime(container) {} }
        let recorder = NotificationTests.Recorder([ManagedObjectContext.didChangeObjectsNotification], of: context)
        context.performAndWait {
            let author = Self.make("Author", in: context, ["name": "Ursula"])
            context.undo()
            #expect(!author.isInserted && context.insertedObjects.isEmpty && author.managedObjectContext == nil)
            #expect(!context.hasChanges)
            context.redo()
            #expect(author.isInserted && context.insertedObjects == [author])
            #expect(author.value(forKey: "name") as? String == "Ursula")
        }
        // The insert announced before undo, the undo (the object gone), the redo (the object back).
        let notes = recorder.notifications.map(\.1)
        #expect(notes.count == 3)
        #expect((notes[1][NSDeletedObjectsKey] as? Set<ManagedObject>)?.count == 1)
        #expect((notes[2][NSInsertedObjectsKey] as? Set<ManagedObject>)?.count == 1)
    }

    /// Undoing a delete brings the object back, not deleted, with its relationships; a delete
    /// whose cascade processPendingChanges applied is undone with the cascade, and one whose
    /// cascade would apply at save leaves nothing to delete (Apple's `processPendingChanges()`
    /// records the changes, delete propagation included, with the undo manager).
    @Test func aDeleteIsUndoneWithItsCascade() async throws {
        let folder = try StackFolder()
        defer { folder.remove() }
        let (container, context) = try await Self.context(in: folder.url)
        try context.performAndWait {
            let book = Self.make("Book", in: context, ["title": "Earthsea", "isbn": "1"])
            let review = Self.make("Review", in: context, ["rating": 5, "publication": book])
            try context.save()
            context.processPendingChanges()
            context.delete(book)
            context.processPendingChanges()
            #expect(review.isDeleted)
            context.undo()
            #expect(!book.isDeleted && !review.isDeleted && context.deletedObjects.isEmpty)
            #expect(review.value(forKey: "publication") as? ManagedObject === book)
            #expect((book.value(forKey: "reviews") as? NSSet)?.count == 1)
            context.delete(book)
            context.undo()
            #expect(!book.isDeleted && context.deletedObjects.isEmpty)
            try context.save()
        }
        #expect(try Support.rows(container, "SELECT COUNT(*) FROM ZREVIEW") == ["1"])
        // A new object deleted comes back inserted.
        context.performAndWait {
            let author = Self.make("Author", in: context, ["name": "Ursula"])
            context.processPendingChanges()
            context.delete(author)
            #expect(author.managedObjectContext == nil)
            context.undo()
            #expect(author.isInserted && !author.isDeleted && author.managedObjectContext === context)
        }
    }

    /// An explicit group is undone as one; with groupsByEvent, each perform block is an event
    /// whose changes are undone apart (UndoManager's `groupsByEvent`: "automatically creates undo
    /// groups around each pass of the run loop"; `beginUndoGrouping()`/`endUndoGrouping()`).
    @Test func groupsAreUndoneAsOne() async throws {
        let (container, context) = try await Self.context()
        defer { withExtendedLifetime(container) {} }
        let author = try context.performAndWait {
            let author = Self.make("Author", in: context, ["name": "A"])
            try context.save()
            context.processPendingChanges()
            context.undoManager?.beginUndoGrouping()
            author.setValue("B", forKey: "name")
            author.setValue(Date(timeIntervalSince1970: 0), forKey: "born")
            context.undoManager?.endUndoGrouping()
            context.undo()
            #expect(author.value(forKey: "name") as? String == "A" && author.value(forKey: "born") == nil)
            return author
        }
        let id = author.objectID
        try await context.perform { context.object(with: id).setValue("C", forKey: "name") }
        try await context.perform { context.object(with: id).setValue("D", forKey: "name") }
        context.performAndWait {
            #expect(context.undoManager?.groupingLevel == 0)
            context.undo()
            #expect(author.value(forKey: "name") as? String == "C")
            context.undo()
            #expect(author.value(forKey: "name") as? String == "A")
        }
    }

    /// Undo after a save makes the context dirty again with the previous values; the store keeps
    /// the saved ones until the next save (the undo stack survives a save; only rollback and reset
    /// empty it).
    @Test func undoAfterSaveDirtiesTheContextNotTheStore() async throws {
        let folder = try StackFolder()
        defer { folder.remove() }
        let (container, context) = try await Self.context(in: folder.url)
        let author = try context.performAndWait {
            let author = Self.make("Author", in: context, ["name": "Ursula"])
            try context.save()
            return author
        }
        let id = author.objectID
        try await context.perform {
            context.object(with: id).setValue("Ursula K.", forKey: "name")
            try context.save()
        }
        try context.performAndWait {
            #expect(!context.hasChanges)
            context.undo()
            #expect(context.hasChanges && author.isUpdated && author.value(forKey: "name") as? String == "Ursula")
            #expect(try Support.rows(container, "SELECT ZNAME FROM ZAUTHOR") == ["Ursula K."])
            try context.save()
        }
        #expect(try Support.rows(container, "SELECT ZNAME FROM ZAUTHOR") == ["Ursula"])
    }

    /// rollback() and reset() empty the undo stack (Apple's `rollback()`: "Removes everything from
    /// the undo stack"; CoreDataPlus: redo after rollback changes nothing).
    @Test func rollbackAndResetEmptyTheUndoStack() async throws {
        let (container, context) = try await Self.context()
        defer { withExtendedLifetime(container) {} }
        context.performAndWait {
            _ = Self.make("Author", in: context, ["name": "Ursula"])
            context.undo()
            context.rollback()
            context.redo()
            #expect(context.insertedObjects.isEmpty && context.undoManager?.canRedo == false)
            _ = Self.make("Author", in: context, ["name": "Isaac"])
            context.processPendingChanges()
            context.rollback()
            #expect(context.undoManager?.canUndo == false)
            _ = Self.make("Author", in: context, ["name": "Ray"])
            context.processPendingChanges()
            context.reset()
            #expect(context.undoManager?.canUndo == false)
        }
    }

    /// Changes made with registration disabled are not undone (the Core Data Programming Guide's
    /// processPendingChanges / disableUndoRegistration pattern, as CoreDataPlus runs it).
    @Test func disabledRegistrationRecordsNothing() async throws {
        let (container, context) = try await Self.context()
        defer { withExtendedLifetime(container) {} }
        context.performAndWait {
            context.processPendingChanges()
            context.undoManager?.disableUndoRegistration()
            _ = Self.make("Author", in: context, ["name": "Ursula"])
            context.processPendingChanges()
            context.undoManager?.enableUndoRegistration()
            context.undo()
            #expect(!context.insertedObjects.isEmpty)
            #expect(context.undoManager?.canUndo == false)
        }
    }

    /// Action names go with their group from undo to redo; levelsOfUndo keeps the latest groups only.
    @Test func actionNamesAndLevelsOfUndo() async throws {
        let (container, context) = try await Self.context()
        defer { withExtendedLifetime(container) {} }
        context.performAndWait {
            let manager = context.undoManager!
            manager.levelsOfUndo = 2
            let author = Self.make("Author", in: context, ["name": "A"])
            manager.setActionName("Add Author")
            context.processPendingChanges()
            for name in ["B", "C"] {
                author.setValue(name, forKey: "name")
                manager.setActionName("Rename")
                context.processPendingChanges()
            }
            #expect(manager.undoActionName == "Rename")
            context.undo()
            #expect(manager.redoActionName == "Rename")
            context.undo()
            #expect(author.value(forKey: "name") as? String == "A")
            #expect(!manager.canUndo && author.isInserted)
        }
    }

    /// The undo manager on its own: handlers run with their target, what they register while
    /// undoing becomes the redo, and its notifications are posted under Foundation's names.
    @Test func anUndoManagerRunsHandlersAndPostsItsNotifications() {
        final class Counter { var value = 0 }
        func set(_ counter: Counter, _ value: Int, _ manager: UndoManager) {
            let old = counter.value
            manager.registerUndo(withTarget: counter) { set($0, old, manager) }
            counter.value = value
        }
        let manager = UndoManager()
        manager.groupsByEvent = false
        let counter = Counter()
        let seen = Mutex([Notification.Name]())
        let names: [Notification.Name] = [.NSUndoManagerWillUndoChange, .NSUndoManagerDidUndoChange, .NSUndoManagerDidRedoChange, .NSUndoManagerDidOpenUndoGroup]
        let observers = names.map { name in
            NotificationCenter.default.addObserver(forName: name, object: manager, queue: nil) { note in seen.withLock { $0.append(note.name) } }
        }
        defer { observers.forEach(NotificationCenter.default.removeObserver) }
        set(counter, 1, manager)
        #expect(counter.value == 1 && !manager.canUndo)
        manager.beginUndoGrouping()
        set(counter, 2, manager)
        set(counter, 3, manager)
        manager.endUndoGrouping()
        manager.undo()
        #expect(counter.value == 1 && manager.canRedo)
        manager.redo()
        #expect(counter.value == 3)
        manager.removeAllActions(withTarget: counter)
        #expect(!manager.canUndo && !manager.canRedo)
        #expect(seen.withLock { $0 } == [.NSUndoManagerDidOpenUndoGroup, .NSUndoManagerWillUndoChange, .NSUndoManagerDidUndoChange, .NSUndoManagerDidRedoChange])
    }
}
