import CoreData

// A second entity of the test model, in the form of Xcode's generated classes, ported with the
// two edits (`@objc(Note)` deleted, `@NSManaged` written `@Managed`).

public class Note: NSManagedObject {}

extension Note {
    @nonobjc public class func fetchRequest() -> NSFetchRequest<Note> {
        return NSFetchRequest<Note>(entityName: "Note")
    }

    @Managed public var title: String?
    @Managed public var body: String?
}
