// The option keys of `NSPersistentStoreDescription.setOption(_:forKey:)`, with Core Data's
// strings; what each does on loading is in ``NSPersistentStoreDescription/storeDescription()``.

/// Record persistent history in the store.
public let NSPersistentHistoryTrackingKey = "NSPersistentHistoryTrackingKey"
/// Post `NSPersistentStoreRemoteChange` for every commit to the store (the symbol's string is
/// Core Data's: it lacks "Post").
public let NSPersistentStoreRemoteChangeNotificationPostOptionKey = "NSPersistentStoreRemoteChangeNotificationOptionKey"
/// Migrate a store of another model version when it is loaded.
public let NSMigratePersistentStoresAutomaticallyOption = "NSMigratePersistentStoresAutomaticallyOption"
/// Infer the mapping of a migration that has no mapping model.
public let NSInferMappingModelAutomaticallyOption = "NSInferMappingModelAutomaticallyOption"
/// Open the store for reading only.
public let NSReadOnlyPersistentStoreOption = "NSReadOnlyPersistentStoreOption"
/// How long to wait for a store another connection holds locked, in seconds.
public let NSPersistentStoreTimeoutOption = "NSPersistentStoreTimeoutOption"
/// The SQLite pragmas of the store, a dictionary (`sqlitePragmas`).
public let NSSQLitePragmasOption = "NSSQLitePragmasOption"
/// The data protection class of the store's files: accepted and ignored off Apple platforms,
/// which have no such classes.
public let NSPersistentStoreFileProtectionKey = "NSPersistentStoreFileProtectionKey"
