//
//  ItemList.swift
//  Items
//
//  The template app's list screen grown up, without its UI: items in sections by category, kept
//  current by a fetched results controller on the view context, with undo and redo through the
//  view context's undo manager. Written against Core Data's API only, as an iOS or macOS app
//  writes it; what a table view would be told is kept in `screen` and `updates`.
//

import CoreData

final class ItemList: NSObject, NSFetchedResultsControllerDelegate {
    let context: NSManagedObjectContext
    let resultsController: NSFetchedResultsController<Item>
    /// What the screen shows: each section's title and its items' timestamps, in order.
    private(set) var screen: [(title: String, items: [Date])] = []
    /// The batch updates of the last change, as a table view's `performBatchUpdates` would get them.
    private(set) var updates: [String] = []
    /// How many change events the controller reported.
    private(set) var changeCount = 0

    init(context: NSManagedObjectContext) {
        self.context = context
        let request: NSFetchRequest<Item> = Item.fetchRequest()
        request.sortDescriptors = [
            NSSortDescriptor(keyPath: \Item.category, ascending: true),
            NSSortDescriptor(keyPath: \Item.timestamp, ascending: true),
        ]
        resultsController = NSFetchedResultsController(
            fetchRequest: request, managedObjectContext: context, sectionNameKeyPath: "category", cacheName: nil)
        super.init()
        if context.undoManager == nil {
            context.undoManager = UndoManager()
        }
        resultsController.delegate = self
    }

    /// Fetches the items and shows them.
    func load() throws {
        try resultsController.performFetch()
        show()
    }

    /// The user adds an item to `category`.
    @discardableResult
    func addItem(category: String, timestamp: Date = Date()) -> Item {
        let item = Item(context: context)
        item.timestamp = timestamp
        item.category = category
        endOfEvent()
        return item
    }

    /// The user moves the item at `indexPath` to `category`.
    func move(at indexPath: IndexPath, to category: String) {
        resultsController.object(at: indexPath).category = category
        endOfEvent()
    }

    /// The user deletes the item at `indexPath`.
    func deleteItem(at indexPath: IndexPath) {
        context.delete(resultsController.object(at: indexPath))
        endOfEvent()
    }

    /// The user taps Save.
    func save() throws {
        try context.save()
    }

    /// The user shakes to undo, or chooses Edit > Undo.
    func undo() {
        context.undoManager?.undo()
        endOfEvent()
    }

    /// The user chooses Edit > Redo.
    func redo() {
        context.undoManager?.redo()
        endOfEvent()
    }

    var canUndo: Bool { context.undoManager?.canUndo ?? false }

    /// Where an app's run loop would end the event: the context records it for undo as one step
    /// and tells the controller what changed.
    private func endOfEvent() {
        context.processPendingChanges()
    }

    private func show() {
        screen = (resultsController.sections ?? []).map { section in
            (section.name, (section.objects as? [Item] ?? []).compactMap(\.timestamp))
        }
    }

    private static func name(of type: NSFetchedResultsChangeType) -> String {
        if type == .insert { return "insert" }
        if type == .delete { return "delete" }
        if type == .move { return "move" }
        return "update"
    }

    private static func text(_ indexPath: IndexPath?) -> String {
        guard let indexPath else { return "-" }
        return "\(indexPath.section).\(indexPath.item)"
    }

    // MARK: - NSFetchedResultsControllerDelegate

    func controllerWillChangeContent(_ controller: NSFetchedResultsController<NSFetchRequestResult>) {
        updates = []
    }

    func controller(_ controller: NSFetchedResultsController<NSFetchRequestResult>, didChange sectionInfo: NSFetchedResultsSectionInfo,
                    atSectionIndex sectionIndex: Int, for type: NSFetchedResultsChangeType) {
        updates.append("\(Self.name(of: type)) section \(sectionIndex) \(sectionInfo.name)")
    }

    func controller(_ controller: NSFetchedResultsController<NSFetchRequestResult>, didChange anObject: Any, at indexPath: IndexPath?,
                    for type: NSFetchedResultsChangeType, newIndexPath: IndexPath?) {
        updates.append("\(Self.name(of: type)) \(Self.text(indexPath)) \(Self.text(newIndexPath))")
    }

    func controllerDidChangeContent(_ controller: NSFetchedResultsController<NSFetchRequestResult>) {
        changeCount += 1
        show()
    }
}
