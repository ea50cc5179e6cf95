import Foundation
import ModelObjects
import ModelStack
import Testing
import _ModelTestSupport

/// A note class as modelc's code generation writes one for codegen "Class Definition": an empty
/// body, and the declaration that the whole of it is generated.
class GeneratedNote: ManagedObject {}

extension GeneratedNote: GeneratedClassDefinition {
    static var generatedClass: ManagedObject.Type { GeneratedNote.self }
}

/// The folders' class, generated the same way.
class GeneratedFolder: ManagedObject {}

extension GeneratedFolder: GeneratedClassDefinition {
    static var generatedClass: ManagedObject.Type { GeneratedFolder.self }
}

/// A subclass of the generated class that an app writes, overriding `validateValue(_:forKey:)`
/// to record the keys a save validates.
final class WatchedNote: GeneratedNote {
    var validatedKeys: [String] = []

    override func validateValue(_ value: inout Any?, forKey key: String) throws {
        validatedKeys.append(key)
        try super.validateValue(&value, forKey: key)
    }
}

/// A save checks an object of a generated class (nothing in it can override validation) without
/// reading the attributes no rule constrains: the model's rules still hold, an override in a
/// subclass still sees every property, and a fault changed unread is still saved whole.
struct GeneratedClassValidationTests {
    /// A loaded container of the hooks model with `className` as the notes' class, in `folder`.
    static func container(_ className: String, in folder: URL) async throws -> PersistentContainer {
        let model = folder.appendingPathComponent("Generated.xcdatamodel")
        try FileManager.default.createDirectory(at: model, withIntermediateDirectories: true)
        let contents = HooksModel.contents.replacingOccurrences(of: "representedClassName=\"HookedNote\"", with: "representedClassName=\"\(className)\"")
            .replacingOccurrences(of: "HookedFolder", with: "GeneratedFolder")
        try contents.write(to: model.appendingPathComponent("contents"), atomically: true, encoding: .utf8)
        return try await ContextTestSupport.container(model.path, in: folder)
    }

    /// The title is required and at most 40 characters: an object of a generated class breaking
    /// either rule fails the save with Core Data's code, as one of any other class does.
    @Test func aGeneratedClassKeepsTheModelsRules() async throws {
        let folder = try StackFolder()
        defer { folder.remove() }
        let container = try await Self.container("GeneratedNote", in: folder.url)
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let note = GeneratedNote(context: context)
            #expect(ContextTestSupport.saveError(context)?.code == 1570)
            note.setValue(String(repeating: "x", count: 41), forKey: "title")
            #expect(ContextTestSupport.saveError(context)?.code == 1660)
            note.setValue("Kept", forKey: "title")
            try context.save()
            note.setValue(String(repeating: "y", count: 41), forKey: "title")
            #expect(ContextTestSupport.saveError(context)?.code == 1660)
        }
        #expect(try ContextTestSupport.rows(container, "SELECT ZTITLE FROM ZNOTE") == ["Kept"])
    }

    /// A subclass of a generated class may override validation: every property goes through its
    /// `validateValue(_:forKey:)`, on insert and on update, those no rule constrains included.
    @Test func aSubclassOverrideSeesEveryProperty() async throws {
        let folder = try StackFolder()
        defer { folder.remove() }
        let container = try await Self.container("WatchedNote", in: folder.url)
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let note = WatchedNote(context: context)
            note.setValue("Watched", forKey: "title")
            try context.save()
            let all = ["createdAt", "folder", "preview", "revision", "title", "words"]
            #expect(Set(note.validatedKeys) == Set(all) && note.validatedKeys.count == all.count)
            note.validatedKeys = []
            note.setValue(Int64(3), forKey: "words")
            try context.save()
            #expect(Set(note.validatedKeys) == Set(all) && note.validatedKeys.count == all.count)
        }
    }

    /// An object of a generated class changed while a fault, none of its values read, is saved
    /// with the values it had: its row keeps the title, and the version it was read at is the
    /// one the update checks.
    @Test func aFaultChangedUnreadIsSavedWhole() async throws {
        let folder = try StackFolder()
        defer { folder.remove() }
        let container = try await Self.container("GeneratedNote", in: folder.url)
        let writer = container.newBackgroundContext()
        let id = try writer.performAndWait {
            let note = GeneratedNote(context: writer)
            note.setValue("Whole", forKey: "title")
            note.setValue(Int64(1), forKey: "words")
            try writer.save()
            return note.objectID
        }
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let note = try #require(context.object(with: id) as? GeneratedNote)
            #expect(note.isFault)
            note.setValue(Int64(2), forKey: "words")
            try context.save()
        }
        #expect(try ContextTestSupport.rows(container, "SELECT ZTITLE, ZWORDS, Z_OPT FROM ZNOTE") == ["Whole|2|2"])
    }

    /// A folder still a fault whose to-many gains a note (the note's to-one set) is updated with
    /// none of its attributes read: the save's validation fires the fault, as reading each
    /// property does, and writes the link.
    @Test func aFaultWhoseToManyChangedIsSaved() async throws {
        let folder = try StackFolder()
        defer { folder.remove() }
        let container = try await Self.container("GeneratedNote", in: folder.url)
        let writer = container.newBackgroundContext()
        let (folderID, noteID) = try writer.performAndWait {
            let box = GeneratedFolder(context: writer)
            box.setValue("Box", forKey: "name")
            let note = GeneratedNote(context: writer)
            note.setValue("Loose", forKey: "title")
            try writer.save()
            return (box.objectID, note.objectID)
        }
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let box = context.object(with: folderID)
            let note = context.object(with: noteID)
            #expect(box.isFault && note.isFault)
            note.setValue(box, forKey: "folder")
            try context.save()
            // Validation read it, as Core Data's reads every property.
            #expect(!box.isFault)
        }
        #expect(try ContextTestSupport.rows(container, "SELECT n.ZTITLE, f.ZNAME FROM ZNOTE n JOIN ZFOLDER f ON n.ZFOLDER = f.Z_PK") == ["Loose|Box"])
    }
}
