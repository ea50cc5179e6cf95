import CoreData
import Foundation

// A second entity of the test model, in the form of Xcode's generated classes, with
// `@NSManaged` written out as the accessor it stands for.

public class Note: NSManagedObject {}

extension Note {
    @nonobjc public class func fetchRequest() -> NSFetchRequest<Note> {
        return NSFetchRequest<Note>(entityName: "Note")
    }

    public var title: String? {
        get { value(forKey: "title") as? String }
        set { setValue(newValue, forKey: "title") }
    }

    public var body: String? {
        get { value(forKey: "body") as? String }
        set { setValue(newValue, forKey: "body") }
    }
}
