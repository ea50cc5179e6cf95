import CoreData
import Testing

/// The Xcode template's persistence controller, ported by renaming only, run as the template's
/// previews run it.
@MainActor
struct PersistenceTemplateTests {
    /// The model is compiled where the container looks for it before any test.
    init() throws {
        try #require(NotesModel.isInstalled)
    }

    /// The preview controller saves ten items in a store in memory (the template's `/dev/null`
    /// URL, which Apple's SQLite store opens in memory), and the view context fetches them.
    @Test func thePreviewControllerSavesTenItemsTheViewContextFetches() throws {
        let context = PersistenceController.preview.container.viewContext
        let items = try context.fetch(NSFetchRequest<Item>(entityName: "Item"))
        #expect(items.count == 10)
        #expect(items.allSatisfy { $0.timestamp != nil })
    }

    /// Two in-memory controllers share nothing: each `/dev/null` store is a database of its own.
    @Test func twoInMemoryControllersHaveStoresOfTheirOwn() throws {
        let first = PersistenceController(inMemory: true)
        let second = PersistenceController(inMemory: true)
        let item = Item(context: first.container.viewContext)
        item.timestamp = Date()
        try first.container.viewContext.save()
        #expect(try first.container.viewContext.count(for: NSFetchRequest<Item>(entityName: "Item")) == 1)
        #expect(try second.container.viewContext.count(for: NSFetchRequest<Item>(entityName: "Item")) == 0)
    }

    /// The template's container finds `Notes.momd` in the SwiftPM resource bundle its build plugin
    /// filled, as Apple's finds it in the app bundle, and its view context is on the main queue
    /// and merges changes saved by other contexts (`automaticallyMergesChangesFromParent`).
    @Test func theContainerFindsItsModelAndMakesAMainQueueViewContext() {
        let container = PersistenceController(inMemory: true).container
        #expect(container.name == "Notes")
        #expect(container.managedObjectModel.entitiesByName.keys.sorted() == ["Item", "Note"])
        #expect(container.viewContext.concurrencyType == .mainQueueConcurrencyType)
        #expect(container.viewContext.automaticallyMergesChangesFromParent)
        #expect(container.viewContext.persistentStoreCoordinator === container.persistentStoreCoordinator)
    }
}
