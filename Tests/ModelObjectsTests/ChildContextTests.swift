import Foundation
import ModelObjects
import ModelStack
import Testing
import _ModelTestSupport

/// Child contexts, as Core Data nests them: a child's fetches and faults see its parent's unsaved
/// changes; its save pushes its changes into the parent (new objects under the same IDs, changed
/// properties, deletions with their cascades) and leaves the store as it was, until the root
/// saves; grandchildren chain; a child merges its parent's saves, a root ignores a child's.
struct ChildContextTests {
    typealias Support = ContextTestSupport

    /// A new object of `entity` in `context` with `values` set.
    static func make(_ entity: String, _ values: [String: Any], in context: ManagedObjectContext) -> ManagedObject {
        let object = ManagedObject(entity: context.persistentStoreCoordinator!.managedObjectModel.entitiesByName[entity]!, insertInto: context)
        for (key, value) in values { object.setValue(value, forKey: key) }
        return object
    }

    static func child(of parent: ManagedObjectContext) -> ManagedObjectContext {
        let child = ManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        child.parent = parent
        return child
    }

    static func authors(_ context: ManagedObjectContext, _ predicate: String? = nil) throws -> [String] {
        let request = FetchRequest<ManagedObject>(entityName: "Author")
        if let predicate { request.predicate = FetchPredicate(format: predicate) }
        request.sortDescriptors = [FetchSortDescriptor(key: "name", ascending: true)]
        return try context.performAndWait { try context.fetch(request).map { $0.value(forKey: "name") as? String ?? "-" } }
    }

    @Test func aChildSeesItsParentsChangesAndSavesIntoItOnly() async throws {
        let folder = try StackFolder()
        defer { folder.remove() }
        let container = try await Support.container(in: folder.url)
        let ursula = try NotificationTests.saveAuthor(container)
        let root = container.newBackgroundContext()
        let octavia = try root.performAndWait {
            try root.existingObject(with: ursula).setValue("Ursula K.", forKey: "name")
            _ = Self.make("Author", ["name": "Zadie"], in: root)
            root.delete(Self.make("Author", ["name": "Gone"], in: root))
            return Self.make("Author", ["name": "Octavia"], in: root).objectID
        }
        let child = Self.child(of: root)
        #expect(child.persistentStoreCoordinator === root.persistentStoreCoordinator)
        // The parent's new and changed objects are the child's store: sorted, filtered and counted with the saved ones.
        #expect(try Self.authors(child) == ["Octavia", "Ursula K.", "Zadie"])
        #expect(try Self.authors(child, "name BEGINSWITH 'U'") == ["Ursula K."])
        #expect(try Self.authors(child, "name == 'Ursula'") == [])
        let limited = FetchRequest<ManagedObject>(entityName: "Author")
        limited.sortDescriptors = [FetchSortDescriptor(key: "name", ascending: false)]
        limited.fetchLimit = 1
        #expect(try child.performAndWait { try child.fetch(limited).map { $0.value(forKey: "name") as? String } } == ["Zadie"])
        #expect(try child.performAndWait { try child.count(for: FetchRequest<ManagedObject>(entityName: "Author")) } == 3)

        let book = try child.performAndWait {
            let author = child.object(with: ursula)
            #expect(author.value(forKey: "name") as? String == "Ursula K.")
            #expect(child.object(with: octavia).value(forKey: "name") as? String == "Octavia")
            child.object(with: octavia).setValue("Octavia B.", forKey: "name")
            let book = Self.make("Book", ["title": "The Dispossessed", "isbn": "0-06-012563-2", "author": author], in: child)
            try child.save()
            #expect(!child.hasChanges && !book.isInserted)
            #expect(book.objectID.isTemporaryID)
            return book.objectID
        }
        // Nothing reached the store.
        #expect(try Support.rows(container, "SELECT ZNAME FROM ZAUTHOR") == ["Ursula"])
        #expect(try Support.rows(container, "SELECT COUNT(*) FROM ZPUBLICATION") == ["0"])
        try root.performAndWait {
            let pushed = try #require(root.registeredObject(for: book))
            #expect(pushed.isInserted && pushed.value(forKey: "title") as? String == "The Dispossessed")
            let author = root.object(with: ursula)
            #expect((author.value(forKey: "publications") as? NSOrderedSet)?.array.map { ($0 as? ManagedObject)?.objectID } == [book])
            #expect(root.object(with: octavia).value(forKey: "name") as? String == "Octavia B.")
            #expect(root.insertedObjects.count == 3)
            try root.save()
        }
        #expect(try Support.rows(container, "SELECT ZNAME FROM ZAUTHOR ORDER BY ZNAME") == ["Octavia B.", "Ursula K.", "Zadie"])
        #expect(try Support.rows(container, "SELECT p.ZTITLE, a.ZNAME FROM ZPUBLICATION p JOIN ZAUTHOR a ON p.ZAUTHOR = a.Z_PK") == [
            "The Dispossessed|Ursula K."
        ])
    }

    @Test func aChildsDeletionCascadesIntoItsParent() async throws {
        let folder = try StackFolder()
        defer { folder.remove() }
        let container = try await Support.container(in: folder.url)
        let root = container.newBackgroundContext()
        let book = try root.performAndWait {
            let book = Self.make("Book", ["title": "Kindred", "isbn": "0-385-13350-0"], in: root)
            _ = Self.make("Review", ["rating": Int16(5), "publication": book], in: root)
            _ = Self.make("Review", ["rating": Int16(4), "publication": book], in: root)
            try root.save()
            return book.objectID
        }
        let child = Self.child(of: root)
        try child.performAndWait {
            child.delete(child.object(with: book))
            try child.save()
        }
        #expect(try Support.rows(container, "SELECT COUNT(*) FROM ZREVIEW") == ["2"])
        try root.performAndWait {
            #expect(root.deletedObjects.count == 3)
            try root.save()
        }
        #expect(try Support.rows(container, "SELECT COUNT(*) FROM ZREVIEW") == ["0"])
        #expect(try Support.rows(container, "SELECT COUNT(*) FROM ZPUBLICATION") == ["0"])
    }

    @Test func grandchildrenChainToTheStore() async throws {
        let folder = try StackFolder()
        defer { folder.remove() }
        let container = try await Support.container(in: folder.url)
        let root = container.newBackgroundContext()
        let child = Self.child(of: root)
        let grandchild = Self.child(of: child)
        root.performAndWait { _ = Self.make("Author", ["name": "Root"], in: root) }
        child.performAndWait { _ = Self.make("Author", ["name": "Child"], in: child) }
        #expect(try Self.authors(grandchild) == ["Child", "Root"])
        try grandchild.performAndWait {
            _ = Self.make("Author", ["name": "Grandchild"], in: grandchild)
            try grandchild.save()
        }
        #expect(try Self.authors(child) == ["Child", "Grandchild", "Root"])
        #expect(try Self.authors(root) == ["Root"])
        try child.performAndWait { try child.save() }
        try root.performAndWait { try root.save() }
        #expect(try Support.rows(container, "SELECT ZNAME FROM ZAUTHOR ORDER BY ZNAME") == ["Child", "Grandchild", "Root"])
    }

    @Test func aFailedChildSaveChangesNeitherContext() async throws {
        let container = try await Support.container(in: nil)
        let root = container.newBackgroundContext()
        let child = Self.child(of: root)
        let error = child.performAndWait {
            _ = Self.make("Author", [:], in: child)
            return Support.saveError(child)
        }
        #expect(error?.code == 1570)
        child.performAndWait { #expect(child.insertedObjects.count == 1) }
        root.performAndWait { #expect(!root.hasChanges) }
        child.performAndWait { child.rollback() }
        root.performAndWait { #expect(!root.hasChanges) }
    }

    /// A child's save is not weighed by any merge policy ("Merge policies only apply to a context
    /// saving to a store and not to its parent context", Big Nerd Ranch's CoreDataStack): each
    /// property the child changed is set on the parent's object, over a change the parent made
    /// after the child read it; the parent's other changes stay.
    @Test func aChildsSaveWinsOverItsParentsChangesUnderEveryPolicy() async throws {
        for policy in [MergePolicy.error, .mergeByPropertyStoreTrump, .mergeByPropertyObjectTrump, .overwrite, .rollback] {
            let container = try await Support.container(in: nil)
            let ursula = try NotificationTests.saveAuthor(container)
            let root = container.newBackgroundContext()
            root.mergePolicy = policy
            let child = Self.child(of: root)
            child.mergePolicy = policy
            child.performAndWait { #expect(child.object(with: ursula).value(forKey: "name") as? String == "Ursula") }
            try root.performAndWait {
                let author = try root.existingObject(with: ursula)
                author.setValue("Root", forKey: "name")
                author.setValue("root@example.com", forKey: "email")
            }
            try child.performAndWait {
                child.object(with: ursula).setValue("Child", forKey: "name")
                try child.save()
            }
            try root.performAndWait {
                let author = try root.existingObject(with: ursula)
                #expect(author.value(forKey: "name") as? String == "Child", "\(policy)")
                #expect(author.value(forKey: "email") as? String == "root@example.com", "\(policy)")
                try root.save()
            }
            #expect(try Support.rows(container, "SELECT ZNAME, ZEMAIL FROM ZAUTHOR") == ["Child|root@example.com"], "\(policy)")
        }
    }

    @Test func aChildMergesItsParentsSavesAndARootIgnoresAChilds() async throws {
        let container = try await Support.container(in: nil)
        let id = try NotificationTests.saveAuthor(container)
        let root = container.newBackgroundContext()
        let child = Self.child(of: root)
        child.automaticallyMergesChangesFromParent = true
        let watcher = container.newBackgroundContext()
        watcher.automaticallyMergesChangesFromParent = true
        let merges = NotificationTests.Recorder([ManagedObjectContext.didMergeChangesObjectIDsNotification], of: watcher)
        let author = child.performAndWait { child.object(with: id) }
        #expect(child.performAndWait { author.value(forKey: "name") as? String } == "Ursula")
        let sibling = Self.child(of: root)
        try sibling.performAndWait {
            sibling.object(with: id).setValue("Sibling", forKey: "email")
            try sibling.save()
        }
        try root.performAndWait {
            root.object(with: id).setValue("Le Guin", forKey: "name")
            try root.save()
        }
        var seen: (String?, String?)
        for _ in 0..<100 {
            seen = child.performAndWait { (author.value(forKey: "name") as? String, author.value(forKey: "email") as? String) }
            if seen.0 == "Le Guin" { break }
            try await Task.sleep(for: .milliseconds(10))
        }
        #expect(seen.0 == "Le Guin" && seen.1 == "Sibling")
        // The watcher merged the root's save, which reached the store, and not the sibling's.
        for _ in 0..<100 where merges.notifications.isEmpty { try await Task.sleep(for: .milliseconds(10)) }
        try await Task.sleep(for: .milliseconds(50))
        #expect(merges.notifications.count == 1)
    }

    @Test func aChildCannotBePinnedToAQueryGeneration() async throws {
        let folder = try StackFolder()
        defer { folder.remove() }
        let container = try await Support.container(in: folder.url)
        let child = Self.child(of: container.newBackgroundContext())
        let error = child.performAndWait { () -> NSError? in
            do {
                try child.setQueryGenerationFrom(.current)
                return nil
            } catch {
                return error as NSError
            }
        }
        #expect(error?.code == 134091)
        #expect(child.performAndWait { child.queryGenerationToken } == nil)
    }
}
