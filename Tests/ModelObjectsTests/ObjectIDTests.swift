import Foundation
import ModelObjects
import ModelStack
import Testing
import _ModelTestSupport

/// Object IDs compared as Core Data compares them: by entity, store and row, however each was made
/// (saved here, fetched again, read back from its URI), and never equal across entities or stores
/// that share a primary key.
struct ObjectIDTests {
    typealias Support = ContextTestSupport

    @Test func anIDIsEqualByEntityStoreAndRowHoweverItWasMade() async throws {
        let folder = try StackFolder()
        defer { folder.remove() }
        let container = try await Support.container(in: folder.url)
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let model = container.persistentStoreCoordinator.managedObjectModel
            let author = ManagedObject(entity: model.entitiesByName["Author"]!, insertInto: context)
            author.setValue("Ursula", forKey: "name")
            let topic = ManagedObject(entity: model.entitiesByName["Topic"]!, insertInto: context)
            topic.setValue("fantasy", forKey: "name")
            let temporary = author.objectID
            #expect(temporary.isTemporaryID && temporary.storeIdentifier.isEmpty && temporary.primaryKey == nil)
            #expect(temporary != topic.objectID)
            try context.save()
            let saved = author.objectID
            // Both rows are the first of their tables: the same primary key, different entities.
            #expect(saved.primaryKey == 1 && topic.objectID.primaryKey == 1)
            #expect(saved != topic.objectID)
            #expect(saved != temporary)

            let coordinator = try #require(context.persistentStoreCoordinator)
            let fromURI = try #require(coordinator.managedObjectID(forURIRepresentation: saved.uriRepresentation()))
            #expect(fromURI == saved && fromURI.hashValue == saved.hashValue)
            #expect(fromURI.entityName == "Author" && fromURI.storeIdentifier == saved.storeIdentifier)
            #expect(Set([saved, topic.objectID, fromURI]).count == 2)

            let other = container.newBackgroundContext()
            let fetched = try other.performAndWait { try other.fetch(FetchRequest<ManagedObject>(entityName: "Author"))[0].objectID }
            #expect(fetched == saved && fetched.hashValue == saved.hashValue)

            // The same row in a store of another UUID is another object.
            let elsewhere = URL(string: "x-coredata://00000000-0000-0000-0000-000000000001/Author/p1")!
            #expect(coordinator.managedObjectID(forURIRepresentation: elsewhere) == nil)
            // A key no row can have names nothing.
            let negative = URL(string: "x-coredata://\(saved.storeIdentifier)/Author/p-1")!
            #expect(coordinator.managedObjectID(forURIRepresentation: negative) == nil)
        }
    }
}
