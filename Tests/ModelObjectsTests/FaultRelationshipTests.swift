import Foundation
import ModelObjects
import ModelStack
import Testing
import _ModelTestSupport

/// Relationships changed on faults, as a batched import changes them: an object changed only
/// through a relationship (here an ordered to-many's members, whose order columns change) is
/// saved without having read its row first; it crashed reading the to-ones it had not read.
struct FaultRelationshipTests {
    typealias Support = ContextTestSupport

    @Test func faultsChangedOnlyThroughRelationshipsAreSaved() async throws {
        let folder = try StackFolder()
        defer { folder.remove() }
        let container = try await Support.container(in: folder.url)
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let model = container.persistentStoreCoordinator.managedObjectModel
            let author = ManagedObject(entity: model.entitiesByName["Author"]!, insertInto: context)
            author.setValue("Ursula", forKey: "name")
            let books = ["A", "B", "C"].map { title -> ManagedObject in
                let book = ManagedObject(entity: model.entitiesByName["Book"]!, insertInto: context)
                book.setValue(title, forKey: "title")
                book.setValue("isbn-\(title)", forKey: "isbn")
                return book
            }
            author.setValue(NSOrderedSet(array: books), forKey: "publications")
            let topic = ManagedObject(entity: model.entitiesByName["Topic"]!, insertInto: context)
            topic.setValue("sf", forKey: "name")
            try context.save()
            let authorID = author.objectID, topicID = topic.objectID, bookIDs = books.map(\.objectID)
            context.reset()

            // Faults only: the author's list reordered (its members' order columns change while
            // they have not read their rows), then the topic linked to books it never read.
            let faults = bookIDs.reversed().map { context.object(with: $0) }
            context.object(with: authorID).setValue(NSOrderedSet(array: faults), forKey: "publications")
            try context.save()
            context.reset()
            context.object(with: topicID).setValue(NSSet(array: bookIDs.map { context.object(with: $0) }), forKey: "publications")
            try context.save()
        }
        let reader = container.newBackgroundContext()
        try reader.performAndWait {
            let author = try #require(try reader.fetch(FetchRequest<ManagedObject>(entityName: "Author")).first)
            let titles = (author.value(forKey: "publications") as? NSOrderedSet)?.array.compactMap { ($0 as? ManagedObject)?.value(forKey: "title") as? String }
            #expect(titles == ["C", "B", "A"])
            let books = try reader.fetch(FetchRequest<ManagedObject>(entityName: "Book"))
            #expect(books.allSatisfy { ($0.value(forKey: "topics") as? NSSet)?.count == 1 && $0.value(forKey: "author") as? ManagedObject === author })
            #expect(Set(books.compactMap { $0.value(forKey: "isbn") as? String }) == ["isbn-A", "isbn-B", "isbn-C"])
        }
    }
}
