import CoreData

/// The stack of the widely read persistent-history guides, written as they write it: a container
/// subclass whose background contexts carry the app's transaction author and keep their own
/// changes in a conflict, whose store records history and announces other processes' saves, and
/// whose stores live where the subclass says.
final class ItemsContainer: NSPersistentContainer, @unchecked Sendable {
    /// The author of every transaction this process saves, so that merging history can skip them.
    static let appAuthor = "app"

    /// Where the store goes: the folder the app is given, else Core Data's default.
    nonisolated(unsafe) static var storeDirectory: URL?

    override class func defaultDirectoryURL() -> URL {
        storeDirectory ?? super.defaultDirectoryURL()
    }

    override func newBackgroundContext() -> NSManagedObjectContext {
        let context = super.newBackgroundContext()
        context.transactionAuthor = Self.appAuthor
        context.mergePolicy = NSMergeByPropertyObjectTrumpMergePolicy
        return context
    }

    /// A container whose one store tracks history and posts remote-change notifications.
    static func make() -> ItemsContainer {
        let container = ItemsContainer(name: "Items")
        guard let description = container.persistentStoreDescriptions.first else {
            fatalError("Failed to retrieve a persistent store description.")
        }
        description.setOption(true as NSNumber, forKey: NSPersistentHistoryTrackingKey)
        description.setOption(true as NSNumber, forKey: NSPersistentStoreRemoteChangeNotificationPostOptionKey)
        container.loadPersistentStores { _, error in
            if let error = error as NSError? {
                fatalError("Unresolved error \(error), \(error.userInfo)")
            }
        }
        container.viewContext.automaticallyMergesChangesFromParent = true
        container.viewContext.mergePolicy = NSMergeByPropertyStoreTrumpMergePolicy
        container.viewContext.name = "viewContext"
        return container
    }
}
