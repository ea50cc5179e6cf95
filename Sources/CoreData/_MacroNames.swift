/// Core Data's names for the classes `@Managed` code and generated classes name.
public typealias NSManagedObject = ManagedObject
/// Core Data's name for a typed fetch request, as generated `fetchRequest()` returns it.
public typealias NSFetchRequest = FetchRequest
