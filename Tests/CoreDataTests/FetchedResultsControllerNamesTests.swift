import CoreData
import Testing

/// The fetched results controller under Core Data's names, used as a table view controller
/// uses it: fetch, read rows by index path, and apply the delegate's changes between
/// will-change and did-change (Apple's NSFetchedResultsControllerDelegate documentation:
/// `indexPath` nil for an insertion, both paths for a move).
@MainActor
struct FetchedResultsControllerNamesTests {
    init() throws {
        try #require(NotesModel.isInstalled)
    }

    /// A delegate keeping a list of titles in step with the controller as a table view's batch
    /// update does: rows removed at their old index paths, then inserted at their new ones.
    /// Written exactly as on Apple platforms (an NSObject, the controller typed
    /// `NSFetchedResultsController<NSFetchRequestResult>`), and checking that the controller it is
    /// handed is the one it follows.
    final class Rows: NSObject, NSFetchedResultsControllerDelegate {
        let resultsController: NSFetchedResultsController<Note>
        var titles: [String] = []
        var log: [String] = []
        var sameController: [Bool] = []
        private var removed: [Int] = []
        private var inserted: [(Int, String)] = []

        init(_ resultsController: NSFetchedResultsController<Note>) {
            self.resultsController = resultsController
        }

        func controllerWillChangeContent(_ controller: NSFetchedResultsController<NSFetchRequestResult>) {
            sameController.append(controller == self.resultsController)
            log.append("will")
        }
        func controller(_ controller: NSFetchedResultsController<NSFetchRequestResult>, didChange anObject: Any, at indexPath: IndexPath?,
                        for type: NSFetchedResultsChangeType, newIndexPath: IndexPath?) {
            sameController.append(controller == self.resultsController)
            let title = (anObject as? Note)?.title ?? "?"
            if type != .update, let indexPath { removed.append(indexPath.row) }
            if type != .update, let newIndexPath { inserted.append((newIndexPath.row, title)) }
            if type == .update, let indexPath { titles[indexPath.row] = title }
            log.append("\(type.rawValue)")
        }
        func controllerDidChangeContent(_ controller: NSFetchedResultsController<NSFetchRequestResult>) {
            sameController.append(controller == self.resultsController)
            for row in removed.sorted(by: >) { titles.remove(at: row) }
            for (row, title) in inserted.sorted(by: { $0.0 < $1.0 }) { titles.insert(title, at: row) }
            (removed, inserted) = ([], [])
            log.append("did")
        }
    }

    /// A delegate implementing every change callback, as on Apple platforms (the brief's
    /// `ListDelegate`): it records each callback and whether its controller is the one it follows.
    final class ListDelegate: NSObject, NSFetchedResultsControllerDelegate {
        let resultsController: NSFetchedResultsController<Note>
        var log: [String] = []
        var sameController: [Bool] = []
        var differences: [CollectionDifference<NSManagedObjectID>] = []

        init(_ resultsController: NSFetchedResultsController<Note>) {
            self.resultsController = resultsController
        }

        func controllerWillChangeContent(_ controller: NSFetchedResultsController<NSFetchRequestResult>) {
            sameController.append(controller == self.resultsController)
            log.append("will")
        }
        func controller(_ controller: NSFetchedResultsController<NSFetchRequestResult>, didChange anObject: Any, at indexPath: IndexPath?, for type: NSFetchedResultsChangeType, newIndexPath: IndexPath?) {
            sameController.append(controller == self.resultsController)
            log.append("object \((anObject as? Note)?.title ?? "?") \(type.rawValue)")
        }
        func controller(_ controller: NSFetchedResultsController<NSFetchRequestResult>, didChange sectionInfo: NSFetchedResultsSectionInfo, atSectionIndex sectionIndex: Int, for type: NSFetchedResultsChangeType) {
            sameController.append(controller == self.resultsController)
            log.append("section \(sectionInfo.name) \(type.rawValue)")
        }
        func controllerDidChangeContent(_ controller: NSFetchedResultsController<NSFetchRequestResult>) {
            sameController.append(controller == self.resultsController)
            log.append("did")
        }
        func controller(_ controller: NSFetchedResultsController<NSFetchRequestResult>, didChangeContentWith diff: CollectionDifference<NSManagedObjectID>) {
            sameController.append(controller == self.resultsController)
            differences.append(diff)
        }
    }

    static func controller(_ context: NSManagedObjectContext, sectionNameKeyPath: String?) -> NSFetchedResultsController<Note> {
        let request: NSFetchRequest<Note> = Note.fetchRequest()
        request.sortDescriptors = [NSSortDescriptor(key: "title", ascending: true)]
        return NSFetchedResultsController(fetchRequest: request, managedObjectContext: context, sectionNameKeyPath: sectionNameKeyPath, cacheName: nil)
    }

    /// Every callback of a delegate ported unchanged is called, with the app's controller. Apple's
    /// NSFetchedResultsControllerDelegate documentation: controller(_:didChangeContentWith:) "is
    /// only invoked if the controller's sectionNameKeyPath property is nil", and "If this method is
    /// implemented, no other delegate methods are invoked"; with sections, will-change, the section
    /// and object changes, then did-change.
    @Test func aDelegatePortedUnchangedGetsEveryCallback() throws {
        let context = PersistenceController(inMemory: true).container.viewContext
        for title in ["b", "d"] { Note(context: context).title = title }
        try context.save()

        let sectioned = Self.controller(context, sectionNameKeyPath: "title")
        let list = ListDelegate(sectioned)
        sectioned.delegate = list
        try sectioned.performFetch()
        Note(context: context).title = "c"
        try context.save()
        #expect(list.log == ["will", "section c 1", "object c 1", "did"])
        #expect(list.differences.isEmpty)
        #expect(!list.sameController.isEmpty && list.sameController.allSatisfy { $0 })

        let plain = Self.controller(context, sectionNameKeyPath: nil)
        let differences = ListDelegate(plain)
        plain.delegate = differences
        try plain.performFetch()
        let added = Note(context: context)
        added.title = "a"
        try context.save()
        #expect(differences.log.isEmpty)
        #expect(differences.differences.count == 1)
        #expect(differences.differences.first?.insertions.count == 1)
        #expect(differences.sameController == [true])
        #expect(plain.fetchedObjects?.compactMap(\.title) == ["a", "b", "c", "d"])
    }

    @Test func aTableFollowsTheControllerUnderCoreDataNames() throws {
        let context = PersistenceController(inMemory: true).container.viewContext
        for title in ["b", "d"] { Note(context: context).title = title }
        try context.save()
        let request: NSFetchRequest<Note> = Note.fetchRequest()
        request.sortDescriptors = [NSSortDescriptor(key: "title", ascending: true)]
        let controller = NSFetchedResultsController(fetchRequest: request, managedObjectContext: context, sectionNameKeyPath: nil, cacheName: "Notes")
        let rows = Rows(controller)
        controller.delegate = rows
        try controller.performFetch()
        rows.titles = controller.fetchedObjects?.compactMap(\.title) ?? []
        let sections: [any NSFetchedResultsSectionInfo] = controller.sections ?? []
        #expect(sections.map(\.numberOfObjects) == [2])
        #expect(controller.object(at: IndexPath(row: 1, section: 0)).title == "d")

        Note(context: context).title = "c"
        controller.object(at: IndexPath(row: 0, section: 0)).title = "e"
        try context.save()
        #expect(rows.log.first == "will" && rows.log.last == "did")
        #expect(rows.log.dropFirst().dropLast().sorted() == ["1", "3"])
        #expect(rows.titles == ["c", "d", "e"])
        #expect(rows.sameController.count == rows.log.count && rows.sameController.allSatisfy { $0 })
        #expect(controller.fetchedObjects?.compactMap(\.title) == ["c", "d", "e"])
        #expect(NSFetchedResultsChangeType.move.rawValue == 3)
        NSFetchedResultsController<Note>.deleteCache(withName: "Notes")
    }
}
