/// Which names generated code uses: the object layer's own (`ManagedObject`, computed properties
/// over key-value coding), or Core Data's (`NSManagedObject`, `@Managed` in place of
/// `@NSManaged`), for code that imports the `CoreData` module and ports to Apple's unchanged.
public enum GeneratedAPI: String, Sendable, Hashable, CaseIterable {
    /// `import ModelObjects`, `ManagedObject`, `FetchRequest`, properties with written accessors.
    case modelc
    /// `import CoreData`, `NSManagedObject`, `NSFetchRequest`, `@Managed` properties and
    /// `@ManagedAccessor` to-many accessors, as Xcode writes them less the `@objc(…)` lines.
    case coreData = "coredata"

    /// The module the files import after Foundation.
    var module: String {
        switch self {
        case .modelc: "ModelObjects"
        case .coreData: "CoreData"
        }
    }

    /// The name of `NSManagedObject` and the other classes whose names differ.
    func name(_ modelcName: String) -> String {
        guard self == .coreData else { return modelcName }
        return ["ManagedObject": "NSManagedObject", "FetchRequest": "NSFetchRequest", "ManagedObjectID": "NSManagedObjectID"][modelcName]
            ?? modelcName
    }
}
