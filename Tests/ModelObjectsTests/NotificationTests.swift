import Foundation
import ModelObjects
import ModelStack
import Testing
import _ModelTestSupport

/// Change notifications and merging: a save posts will-save, did-save (objects and IDs) and
/// objects-did-change as Core Data names them; another context merges a did-save notification
/// (updated objects refreshed with local changes kept, deleted ones gone), merges saves by itself
/// with automaticallyMergesChangesFromParent, and takes remote changes as ID URIs.
struct NotificationTests {
    typealias Support = ContextTestSupport

    /// Collects the notifications of `names` posted by `context` while `body` runs.
    final class Recorder: @unchecked Sendable {
        private let lock = NSLock()
        private var seen: [(Notification.Name, [AnyHashable: Any])] = []
        private var observers: [NSObjectProtocol] = []

        init(_ names: [Notification.Name], of context: ManagedObjectContext) {
            observers = names.map { name in
                NotificationCenter.default.addObserver(forName: name, object: context, queue: nil) { [weak self] note in
                    self?.lock.withLock { self?.seen.append((note.name, note.userInfo ?? [:])) }
                }
            }
        }

        var notifications: [(Notification.Name, [AnyHashable: Any])] { lock.withLock { seen } }

        deinit { observers.forEach(NotificationCenter.default.removeObserver) }
    }

    @Test func aSavePostsCoreDatasNotifications() async throws {
        let container = try await Support.container(in: nil)
        let context = container.newBackgroundContext()
        let recorder = Recorder([ManagedObjectContext.willSaveObjectsNotification, ManagedObjectContext.didSaveObjectsNotification,
            ManagedObjectContext.didSaveObjectIDsNotification, ManagedObjectContext.didChangeObjectsNotification], of: context)
        let author = context.performAndWait {
            let author = ManagedObject(entity: container.persistentStoreCoordinator.managedObjectModel.entitiesByName["Author"]!, insertInto: context)
            author.setValue("Ursula", forKey: "name")
            return author
        }
        let id = author.objectID
        // The end of performAndWait announced the insert.
        #expect(recorder.notifications.map(\.0) == [ManagedObjectContext.didChangeObjectsNotification])
        #expect((recorder.notifications.first?.1[NSInsertedObjectsKey] as? Set<ManagedObject>)?.map(\.objectID) == [id])
        let saved = try context.performAndWait {
            try context.save()
            return author.objectID
        }
        let names = recorder.notifications.map(\.0.rawValue)
        #expect(names == ["NSManagedObjectContextObjectsDidChangeNotification", "NSManagedObjectContextWillSaveNotification",
            "NSManagedObjectContextDidSaveNotification", "NSManagedObjectContextDidSaveObjectIDsNotification"])
        let ids = recorder.notifications.last?.1[NSInsertedObjectIDsKey] as? Set<ManagedObjectID>
        #expect(ids == [saved] && !saved.isTemporaryID)
        let objects = recorder.notifications[2].1[NSInsertedObjectsKey] as? Set<ManagedObject>
        #expect(objects?.map(\.objectID) == [saved])
    }

    /// Refreshing objects announces them: after `refreshAllObjects()`, objects-did-change lists
    /// every registered object as refreshed and nothing else (CoreDataPlus's
    /// test_ObserveRefreshedObjectsOnDidChangeNotification); a single `refresh(_:mergeChanges:)`
    /// lists its object.
    @Test func aRefreshIsAnnouncedAsRefreshedObjects() async throws {
        let container = try await Support.container(in: nil)
        let context = container.newBackgroundContext()
        let entity = try #require(container.persistentStoreCoordinator.managedObjectModel.entitiesByName["Author"])
        let authors = try context.performAndWait {
            let authors = (0..<3).map { index in
                let author = ManagedObject(entity: entity, insertInto: context)
                author.setValue("author \(index)", forKey: "name")
                return author
            }
            try context.save()
            return authors
        }
        let recorder = Recorder([ManagedObjectContext.didChangeObjectsNotification], of: context)
        let registered = context.performAndWait {
            context.refreshAllObjects()
            return context.registeredObjects
        }
        let all = try #require(recorder.notifications.last?.1)
        #expect(all[NSRefreshedObjectsKey] as? Set<ManagedObject> == registered)
        #expect(registered.count == 3)
        #expect((all[NSInsertedObjectsKey] as? Set<ManagedObject>)?.isEmpty == true)
        #expect((all[NSUpdatedObjectsKey] as? Set<ManagedObject>)?.isEmpty == true)
        #expect((all[NSDeletedObjectsKey] as? Set<ManagedObject>)?.isEmpty == true)
        context.performAndWait { context.refresh(authors[1], mergeChanges: false) }
        #expect(recorder.notifications.count == 2)
        #expect(recorder.notifications.last?.1[NSRefreshedObjectsKey] as? Set<ManagedObject> == [authors[1]])
    }

    @Test func anotherContextsSaveIsMergedWithLocalChangesKept() async throws {
        let container = try await Support.container(in: nil)
        let (reader, writer) = (container.newBackgroundContext(), container.newBackgroundContext())
        let id = try Self.saveAuthor(container)
        let author = try reader.performAndWait {
            let author = try reader.existingObject(with: id)
            author.setValue("local@x", forKey: "email")
            return author
        }
        let recorder = Recorder([ManagedObjectContext.didSaveObjectsNotification], of: writer)
        try writer.performAndWait {
            try writer.existingObject(with: id).setValue("Ursula K.", forKey: "name")
            try writer.save()
        }
        let notification = Notification(name: ManagedObjectContext.didSaveObjectsNotification, object: writer, userInfo: recorder.notifications.first?.1)
        reader.performAndWait {
            #expect(author.value(forKey: "name") as? String == "Ursula")
            reader.mergeChanges(fromContextDidSave: notification)
            #expect(author.value(forKey: "name") as? String == "Ursula K.")
            #expect(author.value(forKey: "email") as? String == "local@x")
            #expect(author.hasChanges)
        }
    }

    @Test func automaticMergingAndRemoteChanges() async throws {
        let container = try await Support.container(in: nil)
        let (watcher, writer) = (container.newBackgroundContext(), container.newBackgroundContext())
        watcher.automaticallyMergesChangesFromParent = true
        let id = try Self.saveAuthor(container)
        let author = try watcher.performAndWait { try watcher.existingObject(with: id) }
        var saves = writer.didSaveChanges().makeAsyncIterator()
        try writer.performAndWait {
            try writer.existingObject(with: id).setValue("Le Guin", forKey: "name")
            try writer.save()
        }
        #expect(await saves.next()?.updated == [id])
        // The merge runs on the watcher's queue after the save: wait for it, a second at most.
        var name: String?
        for _ in 0..<100 {
            name = watcher.performAndWait { author.value(forKey: "name") as? String }
            if name == "Le Guin" { break }
            try await Task.sleep(for: .milliseconds(10))
        }
        #expect(name == "Le Guin")

        // A deletion made elsewhere, given as an ID URI, deletes the object here (Apple's merge
        // documentation: it "invokes delete(_:) on those which have been deleted").
        try writer.performAndWait {
            writer.delete(try writer.existingObject(with: id))
            try writer.save()
        }
        watcher.automaticallyMergesChangesFromParent = false
        ManagedObjectContext.mergeChanges(fromRemoteContextSave: [NSDeletedObjectsKey: [id.uriRepresentation()]], into: [watcher])
        watcher.performAndWait {
            #expect(watcher.registeredObject(for: id) === author)
            #expect(author.isDeleted && watcher.deletedObjects == [author])
        }
    }

    static func saveAuthor(_ container: PersistentContainer) throws -> ManagedObjectID {
        let context = container.newBackgroundContext()
        return try context.performAndWait {
            let author = ManagedObject(entity: container.persistentStoreCoordinator.managedObjectModel.entitiesByName["Author"]!, insertInto: context)
            author.setValue("Ursula", forKey: "name")
            try context.save()
            return author.objectID
        }
    }
}
