import CoreData
import Testing
@testable import Items

/// The list screen on the template's view context, used as a person uses it: sections appear and
/// go as items are added and moved, a background save shows up, and undo and redo give back what
/// was changed, before and after a save. Expected values are Core Data's documented behaviour:
/// NSFetchedResultsControllerDelegate's callbacks and NSManagedObjectContext's undo.
@MainActor
@Suite struct ItemListTests {
    static let day = Date(timeIntervalSinceReferenceDate: 800_000_000)

    static func list() throws -> (PersistenceController, ItemList) {
        let controller = PersistenceController(inMemory: true)
        let list = ItemList(context: controller.container.viewContext)
        try list.load()
        return (controller, list)
    }

    @Test func sectionsAppearAndGoAsItemsAreAddedAndMoved() throws {
        let (controller, list) = try Self.list()
        defer { withExtendedLifetime(controller) {} }
        #expect(list.screen.isEmpty)
        list.addItem(category: "Work", timestamp: Self.day)
        #expect(list.updates == ["insert section 0 Work", "insert - 0.0"])
        list.addItem(category: "Errands", timestamp: Self.day + 60)
        list.addItem(category: "Work", timestamp: Self.day + 120)
        #expect(list.screen.map(\.title) == ["Errands", "Work"])
        #expect(list.screen.map(\.items) == [[Self.day + 60], [Self.day, Self.day + 120]])
        #expect(list.resultsController.sectionIndexTitles == ["E", "W"])
        // The only errand moves to Work: its section goes, and it lands between the other two.
        list.move(at: IndexPath(item: 0, section: 0), to: "Work")
        #expect(list.updates.contains("delete section 0 Errands"))
        #expect(list.updates.contains("move 0.0 0.1"))
        #expect(list.screen.map(\.title) == ["Work"])
        #expect(list.screen[0].items == [Self.day, Self.day + 60, Self.day + 120])
    }

    @Test func undoAndRedoGiveBackWhatWasChanged() throws {
        let (controller, list) = try Self.list()
        defer { withExtendedLifetime(controller) {} }
        list.addItem(category: "Work", timestamp: Self.day)
        list.addItem(category: "Work", timestamp: Self.day + 60)
        try list.save()
        list.deleteItem(at: IndexPath(item: 0, section: 0))
        #expect(list.screen[0].items == [Self.day + 60])
        list.undo()
        #expect(list.screen[0].items == [Self.day, Self.day + 60])
        #expect(list.updates == ["insert - 0.0"])
        list.redo()
        #expect(list.screen[0].items == [Self.day + 60])
        list.undo()
        // Undo survives a save, and the store keeps what was saved until the next one.
        list.addItem(category: "Home", timestamp: Self.day + 120)
        try list.save()
        #expect(list.screen.map(\.title) == ["Home", "Work"])
        list.undo()
        #expect(list.screen.map(\.title) == ["Work"])
        #expect(controller.container.viewContext.hasChanges)
        let background = controller.container.newBackgroundContext()
        let stored = try background.performAndWait { try background.count(for: Item.fetchRequest()) }
        #expect(stored == 3)
        try list.save()
        #expect(try background.performAndWait { try background.count(for: Item.fetchRequest()) } == 2)
    }

    @Test func aBackgroundSaveShowsUp() async throws {
        let (controller, list) = try Self.list()
        defer { withExtendedLifetime(controller) {} }
        list.addItem(category: "Work", timestamp: Self.day)
        try list.save()
        let before = list.changeCount
        try await controller.container.performBackgroundTask { context in
            let item = Item(context: context)
            item.timestamp = Self.day + 30
            item.category = "Work"
            try context.save()
        }
        // The view context merges the save on the main queue, as it does on Apple platforms.
        for _ in 0..<200 where list.changeCount == before {
            try await Task.sleep(nanoseconds: 10_000_000)
        }
        #expect(list.screen.map(\.items) == [[Self.day, Self.day + 30]])
        #expect(list.updates == ["insert - 0.1"])
    }
}
