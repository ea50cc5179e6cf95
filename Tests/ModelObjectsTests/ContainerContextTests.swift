import Foundation
import GRDB
import ModelObjects
import ModelStack
import Testing
import _ModelTestSupport

/// The container's contexts: the view context on the main queue, background contexts on their
/// own, object IDs crossing between them, a stale row refused by optimistic locking, and the
/// container's hold on its contexts.
struct ContainerContextTests {
    typealias Support = ContextTestSupport

    /// A container has one coordinator and one view context, as `NSPersistentContainer` has them
    /// as properties, and they go when it goes; before, a table of every container's contexts
    /// kept them alive until another container's were next asked for.
    @Test func aContainerLetGoFreesItsCoordinatorAndViewContext() async throws {
        weak var viewContext: ManagedObjectContext?
        weak var coordinator: PersistentStoreCoordinator?
        do {
            let container = try await Support.container(in: nil)
            #expect(container.viewContext === container.viewContext)
            #expect(container.persistentStoreCoordinator === container.persistentStoreCoordinator)
            viewContext = container.viewContext
            coordinator = container.persistentStoreCoordinator
            #expect(viewContext != nil && coordinator != nil)
        }
        #expect(viewContext == nil)
        #expect(coordinator == nil)
    }

    @Test func aBackgroundSaveIsReadByTheViewContextThroughItsObjectID() async throws {
        let container = try await Support.container(in: nil)
        let id = try await container.performBackgroundTask { context -> ManagedObjectID in
            let topic = ManagedObject(entity: context.persistentStoreCoordinator!.managedObjectModel.entitiesByName["Topic"]!, insertInto: context)
            topic.setValue("science", forKey: "name")
            try context.save()
            return topic.objectID
        }
        #expect(!id.isTemporaryID)
        let name = try await container.viewContext.perform { () -> String? in
            let context = container.viewContext
            #expect(context.concurrencyType == .mainQueueConcurrencyType)
            return try context.existingObject(with: id).value(forKey: "name") as? String
        }
        #expect(name == "science")
    }

    @Test func aRowChangedSinceItWasReadIsAConflict() async throws {
        let container = try await Support.container(in: nil)
        let first = container.newBackgroundContext()
        let second = container.newBackgroundContext()
        let id = try first.performAndWait { () throws -> ManagedObjectID in
            let topic = ManagedObject(entity: first.persistentStoreCoordinator!.managedObjectModel.entitiesByName["Topic"]!, insertInto: first)
            topic.setValue("a", forKey: "name")
            try first.save()
            return topic.objectID
        }
        try second.performAndWait {
            let topic = try second.existingObject(with: id)
            try first.performAndWait {
                try first.existingObject(with: id).setValue("b", forKey: "name")
                try first.save()
            }
            topic.setValue("c", forKey: "name")
            #expect(throws: NSError.self) { try second.save() }
            do {
                try second.save()
            } catch let error as NSError {
                #expect(error.code == 133020)
            }
        }
        #expect(try Support.rows(container, "SELECT ZNAME, Z_OPT FROM ZTOPIC") == ["b|2"])
    }
}
