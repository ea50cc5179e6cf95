import Foundation
import ModelObjects

/// What a managed object class knows of its entity without a context, as `NSManagedObject`'s
/// class methods give it.
extension ManagedObject {
    /// The entity whose class this is, in the models of the coordinators made so far (the newest
    /// first), as `NSManagedObject.entity()`. Apple's is only legal on a class of a model's
    /// entity; called on another, this stops the program, as calling it too early does.
    public class func entity() -> EntityDescription {
        guard let entity = registeredEntity else {
            preconditionFailure("no model of a coordinator made so far has an entity whose class is \(self)")
        }
        return entity
    }

    /// A fetch request for the class's entity (`NSManagedObject.fetchRequest()`); a generated
    /// class's own `fetchRequest()` gives one typed with the class.
    public class func fetchRequest() -> FetchRequest<any NSFetchRequestResult> {
        FetchRequest<any NSFetchRequestResult>(entityName: entity().name)
    }
}
