import Foundation
import ModelObjects
import ModelStack
import Testing
import _ModelTestSupport

/// A note whose validation methods an app overrides, as Apple's "Managed Object Validation"
/// describes: `validateValue(_:forKey:)` in place of a `validate<Key>` method, and the
/// `validateFor…` methods calling super and adding their own errors.
final class CheckedNote: ManagedObject {
    /// The title `validateValue(_:forKey:)` refuses.
    var refusedTitle: String?
    /// What `validateForUpdate` and `validateForDelete` throw, after super passed.
    var updateError: NSError?
    var deleteError: NSError?
    /// Whether `validateForInsert` skips super (and with it the model's rules).
    var skipsSuper = false

    override func validateValue(_ value: inout Any?, forKey key: String) throws {
        if key == "title", let refusedTitle, value as? String == refusedTitle {
            throw NSError(domain: "Notes", code: 7, userInfo: [NSValidationKeyErrorKey: key])
        }
        try super.validateValue(&value, forKey: key)
    }

    override func validateForInsert() throws {
        if skipsSuper { return }
        try super.validateForInsert()
    }

    /// Super's errors and its own combined as Apple's validation guide combines them: 1560 with
    /// each under `NSDetailedErrorsKey` when there are several.
    override func validateForUpdate() throws {
        var errors = [NSError]()
        do {
            try super.validateForUpdate()
        } catch {
            errors.append(error as NSError)
        }
        if let updateError { errors.append(updateError) }
        guard errors.count < 2 else { throw NSError(domain: NSCocoaErrorDomain, code: 1560, userInfo: [NSDetailedErrorsKey: errors]) }
        if let error = errors.first { throw error }
    }

    override func validateForDelete() throws {
        try super.validateForDelete()
        if let deleteError { throw deleteError }
    }
}

/// Validation an app adds by overriding `NSManagedObject`'s validation methods: Apple's pages for
/// validateForInsert(), validateForUpdate(), validateForDelete() and validateValue(_:forKey:)
/// (developer.apple.com/documentation/coredata/nsmanagedobject), and CoreDataPlus's Book, whose
/// validateForInsert calls super so that the model's rules still apply (SampleModel2+V1.swift:
/// "overriding validateForInsert() without calling its super implementation will ignore these predicates").
struct ValidationOverrideTests {
    static let model = HooksModel.contents.replacingOccurrences(of: "HookedNote", with: "CheckedNote")

    /// A loaded container of the model with `CheckedNote` as the notes' class, on a new store in `folder`.
    static func container(in folder: URL) async throws -> PersistentContainer {
        let model = folder.appendingPathComponent("Checked.xcdatamodel")
        try FileManager.default.createDirectory(at: model, withIntermediateDirectories: true)
        try Self.model.write(to: model.appendingPathComponent("contents"), atomically: true, encoding: .utf8)
        return try await ContextTestSupport.container(model.path, in: folder)
    }

    /// A saved note titled `title`, and the context that saved it.
    static func savedNote(_ title: String, in container: PersistentContainer) throws -> (ManagedObjectContext, CheckedNote) {
        let context = container.newBackgroundContext()
        let note = try context.performAndWait {
            let note = CheckedNote(context: context)
            note.setValue(title, forKey: "title")
            try context.save()
            return note
        }
        return (context, note)
    }

    /// validateForUpdate(): an error an override throws fails the save with that error, and the
    /// store keeps its row as it was.
    @Test func aValidateForUpdateOverrideFailsTheSaveWithItsError() async throws {
        let folder = try StackFolder()
        defer { folder.remove() }
        let container = try await Self.container(in: folder.url)
        let (context, note) = try Self.savedNote("Draft", in: container)
        context.performAndWait {
            note.updateError = NSError(domain: "Notes", code: 42)
            note.setValue("Final", forKey: "title")
            let error = ContextTestSupport.saveError(context)
            #expect(error?.domain == "Notes" && error?.code == 42)
            #expect(context.hasChanges)
        }
        #expect(try ContextTestSupport.rows(container, "SELECT ZTITLE FROM ZNOTE") == ["Draft"])
    }

    /// validateValue(_:forKey:): Core Data validates each property through it, so an override
    /// refusing one key's value fails the save with its error; other values of the key pass.
    @Test func aValidateValueOverrideRefusesOneKeysValue() async throws {
        let folder = try StackFolder()
        defer { folder.remove() }
        let container = try await Self.container(in: folder.url)
        let (context, note) = try Self.savedNote("Draft", in: container)
        try context.performAndWait {
            note.refusedTitle = "Forbidden"
            note.setValue("Forbidden", forKey: "title")
            let error = ContextTestSupport.saveError(context)
            #expect(error?.domain == "Notes" && error?.code == 7)
            #expect(error?.userInfo[NSValidationKeyErrorKey] as? String == "title")
            note.setValue("Allowed", forKey: "title")
            try context.save()
        }
        #expect(try ContextTestSupport.rows(container, "SELECT ZTITLE FROM ZNOTE") == ["Allowed"])
    }

    /// validateForUpdate(): "If this results in more than one error, the userInfo dictionary ...
    /// contains a key NSDetailedErrorsKey": an override's error and a model rule's (title longer
    /// than its 40 characters, 1660) come together as 1560.
    @Test func anOverridesErrorAndTheModelsCombineIn1560() async throws {
        let folder = try StackFolder()
        defer { folder.remove() }
        let container = try await Self.container(in: folder.url)
        let (context, note) = try Self.savedNote("Draft", in: container)
        context.performAndWait {
            note.updateError = NSError(domain: "Notes", code: 42)
            note.setValue(String(repeating: "x", count: 41), forKey: "title")
            let error = ContextTestSupport.saveError(context)
            #expect(error?.domain == NSCocoaErrorDomain && error?.code == 1560)
            let details = (error?.userInfo[NSDetailedErrorsKey] as? [NSError])?.map { "\($0.domain) \($0.code)" }
            #expect(details == ["\(NSCocoaErrorDomain) 1660", "Notes 42"])
        }
    }

    /// validateForDelete(): an override's error fails the save of the deletion; the row stays.
    @Test func aValidateForDeleteOverrideKeepsTheObject() async throws {
        let folder = try StackFolder()
        defer { folder.remove() }
        let container = try await Self.container(in: folder.url)
        let (context, note) = try Self.savedNote("Keep me", in: container)
        context.performAndWait {
            note.deleteError = NSError(domain: "Notes", code: 9)
            context.delete(note)
            #expect(ContextTestSupport.saveError(context)?.code == 9)
        }
        #expect(try ContextTestSupport.rows(container, "SELECT ZTITLE FROM ZNOTE") == ["Keep me"])
    }

    /// validateForInsert(): the model's rules run in super's implementation; an override that
    /// does not call it skips them (CoreDataPlus's Book), one that does keeps them (1570 for the
    /// required title).
    @Test func theModelsRulesRunInSupersValidateForInsert() async throws {
        let folder = try StackFolder()
        defer { folder.remove() }
        let container = try await Self.container(in: folder.url)
        let context = container.newBackgroundContext()
        context.performAndWait {
            let checked = CheckedNote(context: context)
            #expect(ContextTestSupport.saveError(context)?.code == 1570)
            checked.skipsSuper = true
            #expect(ContextTestSupport.saveError(context) == nil)
        }
    }
}
