/// What happened to an object or a section of a fetched results controller's results
/// (`NSFetchedResultsChangeType`), with Core Data's raw values.
public enum FetchedResultsChangeType: UInt, Sendable {
    /// The object or section was inserted.
    case insert = 1
    /// The object or section was deleted.
    case delete = 2
    /// The object moved to another place.
    case move = 3
    /// The object's values changed in place.
    case update = 4
}
