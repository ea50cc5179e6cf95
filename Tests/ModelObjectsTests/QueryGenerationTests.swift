import Foundation
import ModelObjects
import ModelStack
import Testing
import _ModelTestSupport

/// Query generations: a pinned context keeps reading the store as it was while another context
/// saves, shares its generation through its token, sees the new data once it moves to the
/// current generation, and an in-memory store refuses them as Core Data's non-WAL stores do.
struct QueryGenerationTests {
    typealias Support = ContextTestSupport

    @Test func aPinnedContextReadsItsGenerationUntilItMoves() async throws {
        let folder = try StackFolder()
        defer { folder.remove() }
        let container = try await Support.container(in: folder.url)
        let writer = container.newBackgroundContext()
        let ids = try ["Ursula", "Iain"].map { name in
            try writer.performAndWait {
                let author = ManagedObject(entity: container.persistentStoreCoordinator.managedObjectModel.entitiesByName["Author"]!, insertInto: writer)
                author.setValue(name, forKey: "name")
                try writer.save()
                return author.objectID
            }
        }
        let request = FetchRequest<ManagedObject>(entityName: "Author")
        request.sortDescriptors = [FetchSortDescriptor(key: "name")]
        func names(_ context: ManagedObjectContext) throws -> [String] {
            try context.performAndWait { try context.fetch(request).compactMap { $0.value(forKey: "name") as? String } }
        }

        let pinned = container.newBackgroundContext()
        try pinned.performAndWait { try pinned.setQueryGenerationFrom(.current) }
        #expect(try names(pinned) == ["Iain", "Ursula"])
        #expect(pinned.performAndWait { pinned.queryGenerationToken != nil && pinned.queryGenerationToken != .current })

        try writer.performAndWait {
            try writer.existingObject(with: ids[0]).setValue("Le Guin", forKey: "name")
            let author = ManagedObject(entity: container.persistentStoreCoordinator.managedObjectModel.entitiesByName["Author"]!, insertInto: writer)
            author.setValue("Banks", forKey: "name")
            try writer.save()
        }
        // The pinned context, and one sharing its token, still see the generation they read.
        #expect(try names(pinned) == ["Iain", "Ursula"])
        #expect(try pinned.performAndWait { try pinned.count(for: request) } == 2)
        let sharing = container.newBackgroundContext()
        let token = pinned.performAndWait { pinned.queryGenerationToken }
        try sharing.performAndWait { try sharing.setQueryGenerationFrom(token) }
        #expect(try names(sharing) == ["Iain", "Ursula"])
        #expect(try names(container.newBackgroundContext()) == ["Banks", "Iain", "Le Guin"])

        // Moving to the current generation shows the saves; so does unpinning.
        try pinned.performAndWait { try pinned.setQueryGenerationFrom(.current) }
        #expect(try names(pinned) == ["Banks", "Iain", "Le Guin"])
        try sharing.performAndWait { try sharing.setQueryGenerationFrom(nil) }
        #expect(try names(sharing) == ["Banks", "Iain", "Le Guin"])
        #expect(sharing.performAndWait { sharing.queryGenerationToken } == nil)
    }

    @Test func anInMemoryStoreHasNoGenerations() async throws {
        let container = try await Support.container(in: nil)
        let context = container.newBackgroundContext()
        context.performAndWait {
            #expect(throws: NSError.self) { try context.setQueryGenerationFrom(.current) }
            do {
                try context.setQueryGenerationFrom(.current)
            } catch {
                #expect((error as NSError).code == 134091)
            }
        }
    }
}
