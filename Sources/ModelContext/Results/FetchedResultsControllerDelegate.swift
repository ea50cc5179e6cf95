import Foundation

/// What a fetched results controller's delegate sees of it, whatever its result type (Core Data's
/// delegate methods take `NSFetchedResultsController<NSFetchRequestResult>`).
public protocol AnyFetchedResultsController: AnyObject {
    var managedObjectContext: ManagedObjectContext { get }
    var sectionNameKeyPath: String? { get }
    var sections: [any FetchedResultsSectionInfo]? { get }
    var sectionIndexTitles: [String] { get }
    /// The default section index entry of a section name: its first letter, capitalized.
    func sectionIndexTitle(forSectionName sectionName: String) -> String?
    func section(forSectionIndexTitle title: String, at sectionIndex: Int) -> Int
}

/// The object a fetched results controller tells of changes to its results
/// (`NSFetchedResultsControllerDelegate`). Every method is optional (a default does nothing);
/// without a delegate the controller does not track changes, as Core Data's does not.
public protocol FetchedResultsControllerDelegate: AnyObject {
    /// Sent before the changes of one change event are reported.
    func controllerWillChangeContent(_ controller: any AnyFetchedResultsController)
    /// An object was inserted, deleted, moved or updated: `indexPath` is where it was before the
    /// event (nil for an insert), `newIndexPath` where it is after (nil for a delete).
    func controller(_ controller: any AnyFetchedResultsController, didChange anObject: Any, at indexPath: IndexPath?,
                    for type: FetchedResultsChangeType, newIndexPath: IndexPath?)
    /// A section was inserted (index after the event) or deleted (index before it).
    func controller(_ controller: any AnyFetchedResultsController, didChange sectionInfo: any FetchedResultsSectionInfo,
                    atSectionIndex sectionIndex: Int, for type: FetchedResultsChangeType)
    /// Sent after the changes of one change event are reported.
    func controllerDidChangeContent(_ controller: any AnyFetchedResultsController)
    /// The section index entry of a section name; by default the controller's.
    func controller(_ controller: any AnyFetchedResultsController, sectionIndexTitleForSectionName sectionName: String) -> String?
}

extension FetchedResultsControllerDelegate {
    public func controllerWillChangeContent(_ controller: any AnyFetchedResultsController) {}
    public func controller(_ controller: any AnyFetchedResultsController, didChange anObject: Any, at indexPath: IndexPath?,
                           for type: FetchedResultsChangeType, newIndexPath: IndexPath?) {}
    public func controller(_ controller: any AnyFetchedResultsController, didChange sectionInfo: any FetchedResultsSectionInfo,
                           atSectionIndex sectionIndex: Int, for type: FetchedResultsChangeType) {}
    public func controllerDidChangeContent(_ controller: any AnyFetchedResultsController) {}
    public func controller(_ controller: any AnyFetchedResultsController, sectionIndexTitleForSectionName sectionName: String) -> String? {
        controller.sectionIndexTitle(forSectionName: sectionName)
    }
}

/// A delegate that takes each change event as one difference of the results' object IDs
/// (`controller(_:didChangeContentWith:)` with a `CollectionDifference<NSManagedObjectID>`).
/// Core Data sends it only to a delegate that implements it, and then no other delegate method;
/// a protocol extension cannot tell an implemented method from its default, so here the delegate
/// says so by conforming to this protocol. As in Core Data, it is sent only by a controller
/// without sections (`sectionNameKeyPath` nil); one with sections sends the other methods.
public protocol FetchedResultsControllerDifferenceDelegate: FetchedResultsControllerDelegate {
    /// The results changed: removals at their offsets before the event, insertions at theirs after it.
    func controller(_ controller: any AnyFetchedResultsController, didChangeContentWith diff: CollectionDifference<ManagedObjectID>)
}
