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
    final class Rows: NSFetchedResultsControllerDelegate {
        var titles: [String] = []
        var log: [String] = []
        private var removed: [Int] = []
        private var inserted: [(Int, String)] = []

        func controllerWillChangeContent(_ controller: any AnyFetchedResultsController) { log.append("will") }
        func controller(_ controller: any AnyFetchedResultsController, didChange anObject: Any, at indexPath: IndexPath?,
                        for type: NSFetchedResultsChangeType, newIndexPath: IndexPath?) {
            let title = (anObject as? Note)?.title ?? "?"
            if type != .update, let indexPath { removed.append(indexPath.row) }
            if type != .update, let newIndexPath { inserted.append((newIndexPath.row, title)) }
            if type == .update, let indexPath { titles[indexPath.row] = title }
            log.append("\(type.rawValue)")
        }
        func controllerDidChangeContent(_ controller: any AnyFetchedResultsController) {
            for row in removed.sorted(by: >) { titles.remove(at: row) }
            for (row, title) in inserted.sorted(by: { $0.0 < $1.0 }) { titles.insert(title, at: row) }
            (removed, inserted) = ([], [])
            log.append("did")
        }
    }

    @Test func aTableFollowsTheControllerUnderCoreDataNames() throws {
        let context = PersistenceController(inMemory: true).container.viewContext
        for title in ["b", "d"] { Note(context: context).title = title }
        try context.save()
        let request: NSFetchRequest<Note> = Note.fetchRequest()
        request.sortDescriptors = [NSSortDescriptor(key: "title", ascending: true)]
        let controller = NSFetchedResultsController(fetchRequest: request, managedObjectContext: context, sectionNameKeyPath: nil, cacheName: "Notes")
        let rows = Rows()
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
        #expect(controller.fetchedObjects?.compactMap(\.title) == ["c", "d", "e"])
        #expect(NSFetchedResultsChangeType.move.rawValue == 3)
        NSFetchedResultsController<Note>.deleteCache(withName: "Notes")
    }
}
