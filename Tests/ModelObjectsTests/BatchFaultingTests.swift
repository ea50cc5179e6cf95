import Foundation
import ModelObjects
import ModelStack
import Testing
import _ModelTestSupport

/// Fetches in batches give the objects a plain fetch gives, in its order, while the context keeps
/// only what the app holds (Core Data's `retainsRegisteredObjects` is false by default).
struct BatchFaultingTests {
    typealias Support = ContextTestSupport

    @Test func batchesGiveThePlainFetchsObjectsAndKeepOnlyTheCurrentBatch() async throws {
        let folder = try StackFolder()
        defer { folder.remove() }
        let container = try await Support.container(in: folder.url)
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let entity = container.persistentStoreCoordinator.managedObjectModel.entitiesByName["Author"]!
            for index in 0..<1_234 {
                ManagedObject(entity: entity, insertInto: context).setValue("author \((index * 7919) % 1_234)", forKey: "name")
            }
            try context.save()
        }
        let reader = container.newBackgroundContext()
        try reader.performAndWait {
            let request = FetchRequest<ManagedObject>(entityName: "Author")
            request.sortDescriptors = [FetchSortDescriptor(key: "name", ascending: false)]
            request.fetchOffset = 4
            request.fetchLimit = 1_000
            // The plain fetch's objects go when this closure ends, so that the batches read them anew.
            let (expected, ids) = try { () throws -> ([String?], [ManagedObjectID]) in
                let fetched = try reader.fetch(request)
                return (fetched.map { $0.value(forKey: "name") as? String }, fetched.map(\.objectID))
            }()
            #expect(expected.count == 1_000)
            request.fetchBatchSize = 100
            let batches = try reader.batchFaultingFetch(request)
            #expect(batches.count == 1_000)
            #expect(batches.map { $0.value(forKey: "name") as? String } == expected)
            // Nothing holds the objects any more but the array's current batch.
            #expect(reader.registeredObjects.count <= 100)
            // An element read again after its batch was let go is the same row: the last, then the first.
            #expect(batches[999].objectID == ids[999])
            #expect(batches[0].objectID == ids[0])
        }
    }

    @Test func aContextKeepsUnchangedObjectsOnlyWhenAskedTo() async throws {
        let container = try await Support.container(in: nil)
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let entity = container.persistentStoreCoordinator.managedObjectModel.entitiesByName["Author"]!
            ManagedObject(entity: entity, insertInto: context).setValue("Ursula", forKey: "name")
            try context.save()
            #expect(context.registeredObjects.isEmpty)
            context.retainsRegisteredObjects = true
            let id = try context.fetch(FetchRequest<ManagedObject>(entityName: "Author"))[0].objectID
            #expect(context.registeredObject(for: id) != nil)
            context.retainsRegisteredObjects = false
            #expect(context.registeredObject(for: id) == nil)
        }
    }
}
