import Foundation

/// The object a fetched results controller tells of changes to its results
/// (`NSFetchedResultsControllerDelegate`). Every method is optional (a default does nothing), and
/// each takes the controller as `FetchedResultsController<any FetchRequestResult>`, Core Data's
/// `NSFetchedResultsController<NSFetchRequestResult>`, so Core Data delegates port unchanged.
/// Without a delegate the controller does not track changes, as Core Data's does not.
public protocol FetchedResultsControllerDelegate: AnyObject {
    /// Sent before the changes of one change event are reported.
    func controllerWillChangeContent(_ controller: FetchedResultsController<any FetchRequestResult>)
    /// An object was inserted, deleted, moved or updated: `indexPath` is where it was before the
    /// event (nil for an insert), `newIndexPath` where it is after (nil for a delete).
    func controller(_ controller: FetchedResultsController<any FetchRequestResult>, didChange anObject: Any, at indexPath: IndexPath?,
                    for type: FetchedResultsChangeType, newIndexPath: IndexPath?)
    /// A section was inserted (index after the event) or deleted (index before it).
    func controller(_ controller: FetchedResultsController<any FetchRequestResult>, didChange sectionInfo: any FetchedResultsSectionInfo,
                    atSectionIndex sectionIndex: Int, for type: FetchedResultsChangeType)
    /// Sent after the changes of one change event are reported.
    func controllerDidChangeContent(_ controller: FetchedResultsController<any FetchRequestResult>)
    /// The change event as one difference of the results' object IDs: removals at their offsets
    /// before the event, insertions at theirs after it. As in Core Data, sent only by a controller
    /// without sections (`sectionNameKeyPath` nil) to a delegate that implements it, which then
    /// gets no other change callback.
    func controller(_ controller: FetchedResultsController<any FetchRequestResult>,
                    didChangeContentWith diff: CollectionDifference<ManagedObjectID>)
    /// The section index entry of a section name; by default the controller's.
    func controller(_ controller: FetchedResultsController<any FetchRequestResult>,
                    sectionIndexTitleForSectionName sectionName: String) -> String?
}

extension FetchedResultsControllerDelegate {
    /// Does nothing.
    public func controllerWillChangeContent(_ controller: FetchedResultsController<any FetchRequestResult>) {}
    /// Does nothing.
    public func controller(_ controller: FetchedResultsController<any FetchRequestResult>, didChange anObject: Any, at indexPath: IndexPath?,
                           for type: FetchedResultsChangeType, newIndexPath: IndexPath?) {}
    /// Does nothing.
    public func controller(_ controller: FetchedResultsController<any FetchRequestResult>, didChange sectionInfo: any FetchedResultsSectionInfo,
                           atSectionIndex sectionIndex: Int, for type: FetchedResultsChangeType) {}
    /// Does nothing.
    public func controllerDidChangeContent(_ controller: FetchedResultsController<any FetchRequestResult>) {}
    /// Not implemented by the delegate: marks it, so that the controller sends the other callbacks instead.
    public func controller(_ controller: FetchedResultsController<any FetchRequestResult>,
                           didChangeContentWith diff: CollectionDifference<ManagedObjectID>) {
        controller.core.defaultDifferenceRan = true
    }
    /// The controller's own index title of the section name.
    public func controller(_ controller: FetchedResultsController<any FetchRequestResult>,
                           sectionIndexTitleForSectionName sectionName: String) -> String? {
        controller.sectionIndexTitle(forSectionName: sectionName)
    }
}
