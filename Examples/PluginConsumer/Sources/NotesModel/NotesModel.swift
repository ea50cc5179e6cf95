import Foundation

/// The notes app's Core Data model, compiled from Notes.xcdatamodeld by modelc's build plugin.
public enum NotesModel {
    /// The compiled `Notes.momd` in this module's resource bundle, as Core Data's
    /// `NSManagedObjectModel(contentsOf:)` takes it; `nil` only if the build did not compile it.
    public static var compiledModelURL: URL? {
        Bundle.module.url(forResource: "Notes", withExtension: "momd")
    }
}
