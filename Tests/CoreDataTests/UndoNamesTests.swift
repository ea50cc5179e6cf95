import CoreData
import Testing

/// Undo written as Apple's code writes it: `import CoreData` alone gives `UndoManager` (Foundation's
/// on Apple platforms), set on the view context as Apple's `undoManager` documentation says ("The
/// default value is nil"), and used as Xcode's macOS Core Data template uses it (its
/// `windowWillReturnUndoManager` returns the view context's undo manager).
@MainActor
struct UndoNamesTests {
    init() throws {
        try #require(NotesModel.isInstalled)
    }

    /// The template's item: a change undone and redone, its insert undone (Apple's
    /// `NSManagedObjectContext.undo()` and `processPendingChanges()`), the undo manager's
    /// notification under Foundation's name.
    @Test func theViewContextUndoesWithApplesNames() {
        let container = PersistenceController(inMemory: true).container
        let viewContext = container.viewContext
        #expect(viewContext.undoManager == nil)
        viewContext.undoManager = UndoManager()
        let windowUndoManager: UndoManager? = viewContext.undoManager
        var undone = 0
        let observer = NotificationCenter.default.addObserver(forName: .NSUndoManagerDidUndoChange, object: windowUndoManager, queue: nil) { _ in
            MainActor.assumeIsolated { undone += 1 }
        }
        defer { NotificationCenter.default.removeObserver(observer) }
        let item = Item(context: viewContext)
        item.timestamp = Date(timeIntervalSince1970: 1)
        viewContext.processPendingChanges()
        item.timestamp = Date(timeIntervalSince1970: 2)
        viewContext.undo()
        #expect(item.timestamp == Date(timeIntervalSince1970: 1))
        windowUndoManager?.redo()
        #expect(item.timestamp == Date(timeIntervalSince1970: 2))
        viewContext.undo()
        viewContext.undo()
        #expect(viewContext.insertedObjects.isEmpty && !viewContext.hasChanges)
        #expect(undone == 3 && windowUndoManager?.canUndo == false)
    }
}
