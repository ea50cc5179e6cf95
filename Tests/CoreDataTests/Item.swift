import CoreData
import Foundation

// The Xcode template's entity, as Xcode's code generation writes it (Item+CoreDataClass.swift and
// Item+CoreDataProperties.swift), with `@NSManaged` written out as the accessor it stands for.

public class Item: NSManagedObject {}

extension Item {
    @nonobjc public class func fetchRequest() -> NSFetchRequest<Item> {
        return NSFetchRequest<Item>(entityName: "Item")
    }

    public var timestamp: Date? {
        get { value(forKey: "timestamp") as? Date }
        set { setValue(newValue, forKey: "timestamp") }
    }
}
