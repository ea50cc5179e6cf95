import CoreData
import Testing
@testable import Items

/// The template's stack, used as the template's app uses it.
@Suite struct PersistenceControllerTests {
    /// The preview controller holds the ten items the template saves into its in-memory store.
    @MainActor
    @Test func thePreviewHoldsTenSavedItems() throws {
        let context = PersistenceController.preview.container.viewContext
        let request: NSFetchRequest<Item> = Item.fetchRequest()
        request.sortDescriptors = [NSSortDescriptor(keyPath: \Item.timestamp, ascending: true)]
        let items = try context.fetch(request)
        #expect(items.count == 10)
        #expect(items.allSatisfy { $0.timestamp != nil && !$0.objectID.isTemporaryID })
        #expect(PersistenceController.preview.container.persistentStoreDescriptions.first?.url?.path == "/dev/null")
    }

    /// Two in-memory controllers do not share their objects: `/dev/null` is a new store each time.
    @MainActor
    @Test func inMemoryStoresAreApart() throws {
        let first = PersistenceController(inMemory: true)
        let second = PersistenceController(inMemory: true)
        _ = Item(context: first.container.viewContext)
        try first.container.viewContext.save()
        #expect(try first.container.viewContext.count(for: Item.fetchRequest()) == 1)
        #expect(try second.container.viewContext.count(for: Item.fetchRequest()) == 0)
    }

    /// A background task's save reaches the view context, which merges changes from its parent.
    @MainActor
    @Test func aBackgroundSaveReachesTheViewContext() async throws {
        let controller = PersistenceController(inMemory: true)
        let stamp = Date(timeIntervalSinceReferenceDate: 1000)
        try await withCheckedThrowingContinuation { (done: CheckedContinuation<Void, any Error>) in
            controller.container.performBackgroundTask { context in
                let item = Item(context: context)
                item.timestamp = stamp
                done.resume(with: Result { try context.save() })
            }
        }
        let items = try controller.container.viewContext.fetch(Item.fetchRequest())
        #expect(items.map(\.timestamp) == [stamp])
    }
}
