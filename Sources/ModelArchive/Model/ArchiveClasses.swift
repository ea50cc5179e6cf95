/// The class chains Core Data's model archives use, as `$classes` lists them.
enum ArchiveClass {
    static let model = ["NSManagedObjectModel", "NSObject"]
    static let entity = ["NSEntityDescription", "NSObject"]
    static let attribute = ["NSAttributeDescription", "NSPropertyDescription", "NSObject"]
    static let derivedAttribute = [
        "NSDerivedAttributeDescription", "NSAttributeDescription", "NSPropertyDescription", "NSObject",
    ]
    static let compositeAttribute = [
        "NSCompositeAttributeDescription", "NSAttributeDescription", "NSPropertyDescription", "NSObject",
    ]
    static let relationship = ["NSRelationshipDescription", "NSPropertyDescription", "NSObject"]
    static let fetchedProperty = ["NSFetchedPropertyDescription", "NSPropertyDescription", "NSObject"]
    static let fetchIndex = ["NSFetchIndexDescription", "NSObject"]
    static let fetchIndexElement = ["NSFetchIndexElementDescription", "NSObject"]
    static let fetchRequest = ["NSFetchRequest", "NSPersistentStoreRequest", "NSObject"]
    static let mutableDictionary = ["NSMutableDictionary", "NSDictionary", "NSObject"]
    static let dictionary = ["NSDictionary", "NSObject"]
    static let mutableArray = ["NSMutableArray", "NSArray", "NSObject"]
    static let array = ["NSArray", "NSObject"]
    static let set = ["NSSet", "NSObject"]
    static let date = ["NSDate", "NSObject"]
    static let uuid = ["NSUUID", "NSObject"]
    static let url = ["NSURL", "NSObject"]
    static let decimalNumber = ["NSDecimalNumber", "NSNumber", "NSValue", "NSObject"]

    static func dictionary(_ entries: [(String, ArchiveValue)], classes: [String] = mutableDictionary) -> ArchivedObject {
        ArchivedObject(
            classes,
            fields: [
                ("NS.keys", .references(entries.map { .string($0.0) })),
                ("NS.objects", .references(entries.map(\.1))),
            ])
    }

    static func array(_ items: [ArchiveValue], classes: [String] = mutableArray) -> ArchivedObject {
        ArchivedObject(classes, fields: [("NS.objects", .references(items))])
    }
}
