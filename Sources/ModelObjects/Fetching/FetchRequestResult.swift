import Foundation

/// What a fetch can return (Core Data's `NSFetchRequestResult`): objects, object IDs,
/// dictionaries and counts, so that `FetchRequest<any FetchRequestResult>(entityName:)` works and a
/// fetched results controller's delegate is handed `FetchedResultsController<any FetchRequestResult>`.
public protocol FetchRequestResult {}

extension ManagedObject: FetchRequestResult {}
extension ManagedObjectID: FetchRequestResult {}
extension NSDictionary: FetchRequestResult {}
extension NSNumber: FetchRequestResult {}
