/// What happened to an object or a section of a fetched results controller's results
/// (`NSFetchedResultsChangeType`), with Core Data's raw values.
public enum FetchedResultsChangeType: UInt, Sendable {
    case insert = 1
    case delete = 2
    case move = 3
    case update = 4
}
