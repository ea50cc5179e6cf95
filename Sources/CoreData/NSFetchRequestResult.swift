import Foundation
import ModelContext

/// What a fetch can return (Core Data's `NSFetchRequestResult`): objects, object IDs,
/// dictionaries and counts, so that `NSFetchRequest<NSFetchRequestResult>(entityName:)` works.
public protocol NSFetchRequestResult {}

extension ManagedObject: NSFetchRequestResult {}
extension ManagedObjectID: NSFetchRequestResult {}
extension NSDictionary: NSFetchRequestResult {}
extension NSNumber: NSFetchRequestResult {}
