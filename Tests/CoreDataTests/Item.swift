import CoreData

// The Xcode template's entity, as Xcode's code generation writes it (Item+CoreDataClass.swift and
// Item+CoreDataProperties.swift), ported with the two edits: `@objc(Item)` deleted, `@NSManaged`
// written `@Managed`.

public class Item: NSManagedObject {}

extension Item {
    @nonobjc public class func fetchRequest() -> NSFetchRequest<Item> {
        return NSFetchRequest<Item>(entityName: "Item")
    }

    @Managed public var timestamp: Date?
}
