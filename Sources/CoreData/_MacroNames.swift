/// Core Data's names for the classes `@Managed` code and generated classes name.
public typealias NSManagedObject = ManagedObject
/// Core Data's name for a typed fetch request, as generated `fetchRequest()` returns it.
public typealias NSFetchRequest = FetchRequest
/// Core Data's name for an object's ID, as generated Object ID attributes type it.
public typealias NSManagedObjectID = ManagedObjectID
