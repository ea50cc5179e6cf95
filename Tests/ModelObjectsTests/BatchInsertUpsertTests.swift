import Foundation
import ModelObjects
import ModelStack
import Testing
import _ModelTestSupport

/// A batch insert whose object collides with a stored row, or with an earlier object of the
/// batch, on a uniqueness constraint (the Library's `Book.isbn`) is settled by the executing
/// context's merge policy: the error policy fails with 133021 and writes nothing; object trump
/// and overwrite write the object's values, defaults included, into the existing row, which
/// keeps its key (the upsert Apple's Earthquakes sample and apps rely on; an attribute the
/// object leaves out goes back to its default, as a Stack Overflow report of Core Data shows);
/// store trump and rollback keep the row as it is. A handler gives the objects one at a time.
struct BatchInsertUpsertTests {
    typealias Support = ContextTestSupport

    /// A container whose store holds one book, "Dune", ISBN 1, 412 pages.
    static func library(in folder: URL) async throws -> PersistentContainer {
        let container = try await Support.container(in: folder)
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let book = ManagedObject(entity: container.persistentStoreCoordinator.managedObjectModel.entitiesByName["Book"]!, insertInto: context)
            book.setValue("Dune", forKey: "title")
            book.setValue("1", forKey: "isbn")
            book.setValue(412, forKey: "pages")
            try context.save()
        }
        return container
    }

    static var batch: [[String: Any]] { [["title": "Dune, second edition", "isbn": "1"], ["title": "Tehanu", "isbn": "9", "pages": 226]] }

    /// Runs `objects` as a batch insert under `policy`; the IDs it returns.
    static func insert(_ objects: [[String: Any]], _ policy: MergePolicy, into container: PersistentContainer) throws -> [ManagedObjectID] {
        let context = container.newBackgroundContext()
        context.mergePolicy = policy
        return try context.performAndWait {
            let request = BatchInsertRequest(entityName: "Book", objects: objects)
            request.resultType = .objectIDs
            return try context.execute(request).result as? [ManagedObjectID] ?? []
        }
    }

    @Test func underTheErrorPolicyACollisionFailsWith133021AndWritesNothing() async throws {
        let folder = try StackFolder()
        defer { folder.remove() }
        let container = try await Self.library(in: folder.url)
        let before = try Support.rows(container, "SELECT Z_PK, Z_OPT, ZTITLE, ZPAGES FROM ZPUBLICATION ORDER BY Z_PK")
        for objects in [Self.batch, [["title": "a", "isbn": "5"], ["title": "b", "isbn": "5"]]] {
            #expect {
                _ = try Self.insert(objects, .error, into: container)
            } throws: { ($0 as NSError).code == 133021 }
        }
        #expect(try Support.rows(container, "SELECT Z_PK, Z_OPT, ZTITLE, ZPAGES FROM ZPUBLICATION ORDER BY Z_PK") == before)
        #expect(try Support.rows(container, "SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_NAME = 'Publication'") == ["1"])
    }

    /// Object trump and overwrite write the object's values (pages back to its default 0) over
    /// the row, which keeps its key; store trump and rollback keep the row. Within the batch, the
    /// later of two objects sharing values wins under the first two, the earlier under the others.
    @Test(arguments: [
        (MergePolicy.mergeByPropertyObjectTrump, "1|2|1|Dune, second edition|0", "b"), (.overwrite, "1|2|1|Dune, second edition|0", "b"),
        (.mergeByPropertyStoreTrump, "1|1|1|Dune|412", "a"), (.rollback, "1|1|1|Dune|412", "a"),
    ])
    func aCollisionIsSettledByThePolicy(_ policy: MergePolicy, _ storedRow: String, _ kept: String) async throws {
        let folder = try StackFolder()
        defer { folder.remove() }
        let container = try await Self.library(in: folder.url)
        let ids = try Self.insert(Self.batch, policy, into: container)
        #expect(try Support.rows(container, "SELECT Z_PK, Z_OPT, ZISBN, ZTITLE, ZPAGES FROM ZPUBLICATION ORDER BY Z_PK") == [storedRow, "2|1|9|Tehanu|226"])
        #expect(ids.map { $0.uriRepresentation().lastPathComponent } == ["p1", "p2"])
        _ = try Self.insert([["title": "a", "isbn": "5"], ["title": "b", "isbn": "5"]], policy, into: container)
        #expect(try Support.rows(container, "SELECT ZTITLE FROM ZPUBLICATION WHERE ZISBN = '5'") == [kept])
    }

    /// A handler's objects, more than one chunk of them, are all inserted, with keys counted
    /// exactly; the dictionary of the call that ends the batch is not inserted.
    @Test func aHandlerGivesTheObjectsOneAtATime() async throws {
        let folder = try StackFolder()
        defer { folder.remove() }
        let container = try await Self.library(in: folder.url)
        let context = container.newBackgroundContext()
        var next = 0
        let count = try context.performAndWait {
            let request = BatchInsertRequest(entityName: "Book") { values in
                next += 1
                values = ["title": "Book \(next)", "isbn": "isbn \(next)"]
                return next > 2_500
            }
            request.resultType = .count
            return try context.execute(request).result as? Int
        }
        #expect(count == 2_500)
        #expect(try Support.rows(container, "SELECT COUNT(*), MAX(Z_PK) FROM ZPUBLICATION") == ["2501|2501"])
        #expect(try Support.rows(container, "SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_NAME = 'Publication'") == ["2501"])
        #expect(try Support.rows(container, "SELECT COUNT(*) FROM ZPUBLICATION WHERE ZTITLE = 'Book 2501'") == ["0"])
    }

    /// A managed-object handler is given a new object of the entity's class each call, in no
    /// context; the attributes it sets are inserted (nil as NULL, the others their defaults),
    /// across chunks, and the object of the call that ends the batch is not.
    @Test func aManagedObjectHandlerFillsObjectsOfTheEntitysClass() async throws {
        let folder = try StackFolder()
        defer { folder.remove() }
        let container = try await Self.library(in: folder.url)
        let context = container.newBackgroundContext()
        var next = 0
        var classes = Set<String>()
        var contexts = 0
        let count = try context.performAndWait {
            // A fetch of Book's class makes it the entity's class, as for any fetch.
            _ = try context.fetch(Book.fetchRequest())
            let request = BatchInsertRequest(entityName: "Book") { object in
                next += 1
                classes.insert(String(describing: type(of: object)))
                if object.managedObjectContext != nil { contexts += 1 }
                guard let book = object as? Book else { return true }
                book.title = "Book \(next)"
                book.isbn = "isbn \(next)"
                if next.isMultiple(of: 2) { book.pages = Int32(next) }
                book.summary = nil
                return next > 1_500
            }
            request.resultType = .count
            return try context.execute(request).result as? Int
        }
        #expect(count == 1_500)
        #expect(classes == ["Book"])
        #expect(contexts == 0)
        #expect(try Support.rows(container, "SELECT COUNT(*) FROM ZPUBLICATION WHERE ZTITLE LIKE 'Book %'") == ["1500"])
        #expect(try Support.rows(container, "SELECT ZISBN, ZPAGES, ZSUMMARY FROM ZPUBLICATION WHERE ZTITLE IN ('Book 1', 'Book 2') ORDER BY ZTITLE")
            == ["isbn 1|0|NULL", "isbn 2|2|NULL"])
        #expect(try Support.rows(container, "SELECT COUNT(*) FROM ZPUBLICATION WHERE ZTITLE = 'Book 1501'") == ["0"])
    }

    /// An object made with no context keeps the attributes set on it until it is inserted, as
    /// Core Data's does.
    @Test func anObjectMadeWithoutAContextKeepsItsValuesUntilInserted() async throws {
        let container = try await Support.container(in: nil)
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let author = ManagedObject(entity: container.persistentStoreCoordinator.managedObjectModel.entitiesByName["Author"]!, insertInto: nil)
            author.setValue("Ursula", forKey: "name")
            #expect(author.value(forKey: "name") as? String == "Ursula")
            context.insert(author)
            #expect(author.isInserted && author.value(forKey: "name") as? String == "Ursula")
            try context.save()
        }
        #expect(try Support.rows(container, "SELECT ZNAME FROM ZAUTHOR") == ["Ursula"])
    }
}
