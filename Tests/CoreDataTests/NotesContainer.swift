import CoreData

// A stack in the shape Core Data guides give it: a container subclass whose background contexts
// resolve conflicts property by property in favour of their own changes and name their saves'
// author for persistent history, and a store directory of its own.

final class NotesContainer: NSPersistentContainer, @unchecked Sendable {
    /// Where the container's stores go (a guide returns its app group's folder): a folder of the
    /// test process's own, which the loader creates.
    static let directory = FileManager.default.temporaryDirectory.appendingPathComponent("NotesContainer-\(UUID().uuidString)", isDirectory: true)

    override class func defaultDirectoryURL() -> URL {
        directory
    }

    override func newBackgroundContext() -> NSManagedObjectContext {
        let context = super.newBackgroundContext()
        context.mergePolicy = NSMergeByPropertyObjectTrumpMergePolicy
        context.transactionAuthor = "background"
        return context
    }
}
