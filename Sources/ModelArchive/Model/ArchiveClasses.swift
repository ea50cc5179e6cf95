/// The class chains Core Data's model archives use, as `$classes` lists them. Each is a case so
/// that the archive writer finds its class description by number rather than by hashing names.
enum ArchiveClass: UInt8, CaseIterable {
    case model, entity, attribute, derivedAttribute, compositeAttribute, relationship, fetchedProperty
    case fetchIndex, fetchIndexElement, fetchRequest
    case mutableDictionary, dictionary, mutableArray, array, set
    case date, uuid, url, decimalNumber

    /// The class and its superclasses.
    var names: [String] {
        switch self {
        case .model: ["NSManagedObjectModel", "NSObject"]
        case .entity: ["NSEntityDescription", "NSObject"]
        case .attribute: ["NSAttributeDescription", "NSPropertyDescription", "NSObject"]
        case .derivedAttribute:
            ["NSDerivedAttributeDescription", "NSAttributeDescription", "NSPropertyDescription", "NSObject"]
        case .compositeAttribute:
            ["NSCompositeAttributeDescription", "NSAttributeDescription", "NSPropertyDescription", "NSObject"]
        case .relationship: ["NSRelationshipDescription", "NSPropertyDescription", "NSObject"]
        case .fetchedProperty: ["NSFetchedPropertyDescription", "NSPropertyDescription", "NSObject"]
        case .fetchIndex: ["NSFetchIndexDescription", "NSObject"]
        case .fetchIndexElement: ["NSFetchIndexElementDescription", "NSObject"]
        case .fetchRequest: ["NSFetchRequest", "NSPersistentStoreRequest", "NSObject"]
        case .mutableDictionary: ["NSMutableDictionary", "NSDictionary", "NSObject"]
        case .dictionary: ["NSDictionary", "NSObject"]
        case .mutableArray: ["NSMutableArray", "NSArray", "NSObject"]
        case .array: ["NSArray", "NSObject"]
        case .set: ["NSSet", "NSObject"]
        case .date: ["NSDate", "NSObject"]
        case .uuid: ["NSUUID", "NSObject"]
        case .url: ["NSURL", "NSObject"]
        // Foundation archives every NSDecimalNumber under its placeholder class, as Apple's own
        // archives show (Instruments traces decoded by the Firefox profiler's importer).
        case .decimalNumber: ["NSDecimalNumberPlaceholder", "NSDecimalNumber", "NSNumber", "NSValue", "NSObject"]
        }
    }

    /// An NSDictionary object (mutable unless `chain` says otherwise) of string keys.
    static func dictionaryObject(_ entries: [(String, ArchiveValue)], chain: ArchiveClass = .mutableDictionary) -> ArchivedObject {
        ArchivedObject(
            chain.names,
            fields: [
                ("NS.keys", .references(entries.map { .string($0.0) })),
                ("NS.objects", .references(entries.map(\.1))),
            ])
    }

    /// An NSArray object (mutable unless `chain` says otherwise).
    static func arrayObject(_ items: [ArchiveValue], chain: ArchiveClass = .mutableArray) -> ArchivedObject {
        ArchivedObject(chain.names, fields: [("NS.objects", .references(items))])
    }
}
