/// What happened to an object or a section of a fetched results controller's results
/// (`NSFetchedResultsChangeType`), with Core Data's raw values.
public enum FetchedResultsChangeType: UInt, Sendable {
    /// The object or section was inserted.
    case insert = 1
    /// The object or section was deleted.
    case delete = 2
    /// A value the results are sorted or sectioned by changed: the object may have moved, and is
    /// reported so even when its new index path equals its old one.
    case move = 3
    /// The object's other values changed; it kept its place among the objects around it.
    case update = 4
}
