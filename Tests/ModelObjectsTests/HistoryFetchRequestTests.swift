import Foundation
import ModelObjects
import ModelStack
import Testing
import _ModelTestSupport

/// History fetches tailored by a fetch request (`NSPersistentHistoryChangeRequest.fetchRequest`,
/// `fetchHistory(withFetch:)`), as apps write them: a predicate on the transactions' author,
/// context name or token, or on the changes' type, entity or object. Expected values are those
/// CoreDataPlus's `NSManagedObjectContextHistory_Tests` assert on Apple platforms
/// (`test_FetchHistoryChangesUsingFetchRequest`, `test_InvestigationHistoryFetches`), on the
/// Library model's entities in place of its Car, SportCar and Person.
struct HistoryFetchRequestTests {
    typealias Support = ContextTestSupport

    /// A history fetch after `token` keeping what `predicate` matches of `record`'s entity.
    static func fetch(
        after token: HistoryToken?, _ record: FetchRequest<Any>?, _ format: String, _ arguments: Any..., in context: ManagedObjectContext
    ) throws -> [HistoryTransaction] {
        let request = HistoryChangeRequest.fetchHistory(after: token)
        if let fetchRequest = record {
            fetchRequest.predicate = FetchPredicate(format: format, argumentArray: arguments)
            request.fetchRequest = fetchRequest
        }
        return try context.performAndWait { try context.execute(request).transactions }
    }

    @Test func transactionsArePickedByAuthorContextNameAndToken() async throws {
        let folder = try StackFolder()
        defer { folder.remove() }
        let container = try await BatchHistoryTests.tracked(Support.library, "Library", in: folder.url)
        let coordinator = container.persistentStoreCoordinator
        let first = container.newBackgroundContext()
        first.name = "viewContext1"
        first.transactionAuthor = "author1"
        let second = container.newBackgroundContext()
        second.name = "viewContext2"
        second.transactionAuthor = "author2"
        let app = container.newBackgroundContext()
        app.transactionAuthor = "app"
        let oldToken = try #require(coordinator.currentPersistentHistoryToken(fromStores: coordinator.persistentStores))
        _ = try HistoryTokenTests.insertAuthor("Le Guin", first)
        let newToken = try #require(coordinator.currentPersistentHistoryToken(fromStores: coordinator.persistentStores))
        _ = try HistoryTokenTests.insertAuthor("Banks", second)
        _ = try HistoryTokenTests.insertAuthor("Jemisin", app)

        let byAuthor = try Self.fetch(after: oldToken, HistoryTransaction.fetchRequest, "%K = %@", "author", "author1", in: second)
        #expect(byAuthor.map(\.token) == [newToken])
        #expect(try Self.fetch(after: oldToken, HistoryTransaction.fetchRequest, "author = %@ AND contextName = %@", "author1", "viewContext1", in: second).count == 1)
        #expect(try Self.fetch(after: oldToken, HistoryTransaction.fetchRequest, "author = %@ AND contextName = %@", "author2", "viewContext1", in: second).isEmpty)
        #expect(try Self.fetch(after: oldToken, HistoryTransaction.fetchRequest, "token = %@ AND author = %@", newToken, "author1", in: second).count == 1)
        // The idiom of apps merging what others saved: every transaction but their own.
        let others = try Self.fetch(after: oldToken, HistoryTransaction.fetchRequest, "author != %@", "app", in: second)
        #expect(others.map(\.author) == ["author1", "author2"])
        let later = try Self.fetch(after: nil, HistoryTransaction.fetchRequest, "token > %@", newToken, in: second)
        #expect(later.map(\.author) == ["author2", "app"])
    }

    @Test func changesArePickedByTypeEntityAndObject() async throws {
        let folder = try StackFolder()
        defer { folder.remove() }
        let container = try await BatchHistoryTests.tracked(Support.library, "Library", in: folder.url)
        let coordinator = container.persistentStoreCoordinator
        let model = coordinator.managedObjectModel
        let context = container.newBackgroundContext()
        context.transactionAuthor = "author1"
        func token() throws -> HistoryToken { try #require(coordinator.currentPersistentHistoryToken(fromStores: coordinator.persistentStores)) }
        // Transaction 1: two books and a magazine; 2: an author; 3: the author updated, a book deleted.
        let (secondBook, author): (ManagedObjectID, ManagedObject) = try context.performAndWait {
            var books = [ManagedObject]()
            for (title, isbn) in [("Panda", "1"), ("Punto", "2")] {
                let book = ManagedObject(entity: model.entitiesByName["Book"]!, insertInto: context)
                book.setValue(title, forKey: "title")
                book.setValue(isbn, forKey: "isbn")
                books.append(book)
            }
            let magazine = ManagedObject(entity: model.entitiesByName["Magazine"]!, insertInto: context)
            magazine.setValue("570GT", forKey: "title")
            try context.save()
            let author = ManagedObject(entity: model.entitiesByName["Author"]!, insertInto: context)
            author.setValue("Alessandro", forKey: "name")
            try context.save()
            return (books[1].objectID, author)
        }
        let token2 = try token()
        try context.performAndWait {
            author.setValue("Alex", forKey: "name")
            context.delete(try context.existingObject(with: secondBook))
            try context.save()
        }
        let token3 = try token()
        let reader = container.newBackgroundContext()

        // The transaction entity through fetchHistory(withFetch:).
        let transactionRequest = try #require(HistoryTransaction.fetchRequest)
        transactionRequest.predicate = FetchPredicate(format: "%K > %@", "token", token2)
        let after = try reader.performAndWait { try reader.execute(HistoryChangeRequest.fetchHistory(withFetch: transactionRequest)).transactions }
        #expect(after.map(\.token) == [token3])

        // Changes by type: the transaction holding the update.
        let updates = try Self.fetch(after: nil, HistoryChange.fetchRequest, "changeType == %d", HistoryChangeType.update.rawValue, in: reader)
        #expect(updates.map(\.token) == [token3])
        #expect(updates.first?.changes.isEmpty == false)

        // Changes by type and entity: a sub-entity's changes are not its siblings'.
        let inserts = try Self.fetch(
            after: nil, HistoryChange.fetchRequest, "changeType == %d AND (changedEntity == %@ || changedEntity == %@)",
            HistoryChangeType.insert.rawValue, model.entitiesByName["Book"]!, model.entitiesByName["Author"]!, in: reader)
        #expect(inserts.flatMap(\.changes).count == 3)

        // Changes of one object, and of one entity, after a token.
        let ofAuthor = try Self.fetch(after: token2, HistoryChange.fetchRequest, "changedObjectID == %@", author.objectID, in: reader).flatMap(\.changes)
        #expect(ofAuthor.map(\.changeType) == [.update])
        let ofBooks = try Self.fetch(after: token2, HistoryChange.fetchRequest, "%K = %@", "changedEntity", model.entitiesByName["Book"]!, in: reader).flatMap(\.changes)
        #expect(ofBooks.map(\.changeType) == [.delete])
        #expect(ofBooks.first?.changedObjectID == secondBook)
    }

    /// A fetch request that is not of the history entities, or a predicate on a key they have
    /// not, fails the fetch with Core Data's generic error (134060) naming it, as this project
    /// reports what a store cannot answer, instead of matching nothing.
    @Test func aRequestTheHistoryCannotAnswerIsCoreDataError() async throws {
        let folder = try StackFolder()
        defer { folder.remove() }
        let container = try await BatchHistoryTests.tracked(Support.library, "Library", in: folder.url)
        let context = container.newBackgroundContext()
        _ = try HistoryTokenTests.insertAuthor("Le Guin", context)
        for (record, format) in [(FetchRequest<Any>(entityName: "Author"), "name != nil"), (try #require(HistoryChange.fetchRequest), "author == 'app'")] {
            let error = #expect(throws: NSError.self) { try Self.fetch(after: nil, record, format, in: context) }
            #expect(error?.domain == NSCocoaErrorDomain && error?.code == NSCoreDataError, "\(String(describing: error))")
        }
    }
}
