import Foundation
import ModelObjects
import ModelStack
import Testing
import _ModelTestSupport

/// A model of notes in folders whose classes override the life-cycle hooks, written as an Xcode
/// model into a test's folder, for the hook and validation tests.
enum HooksModel {
    static let contents = """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" lastSavedToolsVersion="22758" systemVersion="23E224" minimumToolsVersion="Automatic" sourceLanguage="Swift" userDefinedModelVersionIdentifier="">
            <entity name="Note" representedClassName="HookedNote" syncable="YES">
                <attribute name="title" attributeType="String" maxValueString="40"/>
                <attribute name="createdAt" optional="YES" attributeType="Date" usesScalarValueType="NO"/>
                <attribute name="revision" optional="YES" attributeType="Integer 64" defaultValueString="0" usesScalarValueType="YES"/>
                <attribute name="words" optional="YES" attributeType="Integer 64" defaultValueString="0" usesScalarValueType="YES"/>
                <attribute name="preview" optional="YES" transient="YES" attributeType="String"/>
                <relationship name="folder" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Folder" inverseName="notes" inverseEntity="Folder"/>
            </entity>
            <entity name="Folder" representedClassName="HookedFolder" syncable="YES">
                <attribute name="name" optional="YES" attributeType="String"/>
                <relationship name="notes" optional="YES" toMany="YES" deletionRule="Cascade" destinationEntity="Note" inverseName="folder" inverseEntity="Note"/>
            </entity>
        </model>
        """

    /// A loaded container of the model on a new store in `folder`.
    static func container(in folder: URL) async throws -> PersistentContainer {
        let model = folder.appendingPathComponent("Hooks.xcdatamodel")
        try FileManager.default.createDirectory(at: model, withIntermediateDirectories: true)
        try contents.write(to: model.appendingPathComponent("contents"), atomically: true, encoding: .utf8)
        return try await ContextTestSupport.container(model.path, in: folder)
    }
}

/// A note that records the hooks called on it and what it saw then; `runaway` makes its
/// `willSave` change it every time, `afterSaving` runs in its `didSave`.
final class HookedNote: ManagedObject {
    var calls: [String] = []
    var insertedAtAwake: (inserted: Bool, temporaryID: Bool, title: Any?)?
    var didSaveSaw: (inserted: Bool, temporaryID: Bool)?
    var runaway = false
    var afterSaving: ((HookedNote) -> Void)?

    override func awakeFromInsert() {
        super.awakeFromInsert()
        calls.append("awakeFromInsert")
        insertedAtAwake = (isInserted, objectID.isTemporaryID, value(forKey: "title"))
        setValue(Date(timeIntervalSinceReferenceDate: 1_000), forKey: "createdAt")
    }

    override func awakeFromFetch() {
        super.awakeFromFetch()
        calls.append("awakeFromFetch")
        setValue("“\(value(forKey: "title") ?? "")”", forKey: "preview")
        setValue(Int64(99), forKey: "words")
    }

    override func willSave() {
        super.willSave()
        calls.append("willSave")
        guard !isDeleted else { return }
        // Apple's willSave(): set a value only when it differs, or willSave is called again and again.
        let revision = value(forKey: "revision") as? Int64 ?? 0
        if runaway || revision == 0 { setValue(revision + 1, forKey: "revision") }
    }

    override func didSave() {
        super.didSave()
        calls.append("didSave")
        didSaveSaw = (isInserted, objectID.isTemporaryID)
        afterSaving?(self)
    }

    override func prepareForDeletion() {
        super.prepareForDeletion()
        calls.append("prepareForDeletion")
    }
}

/// A folder that records, in `prepareForDeletion`, whether it was deleted and how many notes it still had.
final class HookedFolder: ManagedObject {
    var prepared: [(deleted: Bool, notes: Int)] = []

    override func prepareForDeletion() {
        super.prepareForDeletion()
        prepared.append((isDeleted, (value(forKey: "notes") as? NSSet)?.count ?? -1))
    }
}

/// The life-cycle hooks of `NSManagedObject`, called when and as often as Apple's documentation
/// of each says (developer.apple.com/documentation/coredata/nsmanagedobject, the method's page).
struct LifecycleHooksTests {
    /// awakeFromInsert(): "invoked only once in the object's lifetime", when first inserted; the
    /// object is then inserted with a temporary ID, and values set there are part of the insert
    /// ("treated as baseline values"), so the object is inserted, not updated, and they are saved.
    @Test func awakeFromInsertRunsOnceWhenFirstInserted() async throws {
        let folder = try StackFolder()
        defer { folder.remove() }
        let container = try await HooksModel.container(in: folder.url)
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let note = HookedNote(context: context)
            #expect(note.calls == ["awakeFromInsert"])
            #expect(note.insertedAtAwake?.inserted == true && note.insertedAtAwake?.temporaryID == true)
            #expect(context.updatedObjects.isEmpty && context.insertedObjects.count == 1)
            context.insert(note)
            let later = HookedNote(entity: note.entity, insertInto: nil)
            #expect(later.calls.isEmpty)
            context.insert(later)
            #expect(later.calls == ["awakeFromInsert"] && note.calls == ["awakeFromInsert"])
            note.setValue("Groceries", forKey: "title")
            later.setValue("Errands", forKey: "title")
            try context.save()
            #expect(note.calls.filter { $0 == "awakeFromInsert" }.count == 1)
        }
        let rows = try ContextTestSupport.rows(container, "SELECT ZTITLE, ZCREATEDAT FROM ZNOTE ORDER BY ZTITLE")
        #expect(rows == ["Errands|1000", "Groceries|1000"])
    }

    /// awakeFromFetch(): called when the object is fulfilled from the store; "change processing is
    /// explicitly disabled around this method so that you can use public setters ... without
    /// dirtying the object or its context": what it sets is read back, but nothing is changed or saved.
    @Test func awakeFromFetchSetsValuesWithoutChangingTheObject() async throws {
        let folder = try StackFolder()
        defer { folder.remove() }
        let container = try await HooksModel.container(in: folder.url)
        let writer = container.newBackgroundContext()
        try writer.performAndWait {
            HookedNote(context: writer).setValue("Groceries", forKey: "title")
            try writer.save()
        }
        let reader = container.newBackgroundContext()
        try reader.performAndWait {
            let note = try #require(try reader.fetch(FetchRequest<HookedNote>(entityName: "Note")).first)
            _ = note.value(forKey: "title")
            #expect(note.calls == ["awakeFromFetch"])
            #expect(note.value(forKey: "preview") as? String == "“Groceries”")
            #expect(note.value(forKey: "words") as? Int64 == 99)
            #expect(!note.hasChanges && !note.isUpdated && !reader.hasChanges && note.changedValues().isEmpty)
            try reader.save()
        }
        #expect(try ContextTestSupport.rows(container, "SELECT ZWORDS FROM ZNOTE") == ["0"])
    }

    /// willSave(): called on each inserted, updated and deleted object before the save; a value
    /// changed there is saved, and "Core Data will ... invoke willSave again" on an object so
    /// changed, so one that changes once is asked twice. didSave(): called on each after the save
    /// completes, when the object is saved (not inserted, permanent ID).
    @Test func willSaveAndDidSaveRunForEachSavedObject() async throws {
        let folder = try StackFolder()
        defer { folder.remove() }
        let container = try await HooksModel.container(in: folder.url)
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let kept = HookedNote(context: context)
            kept.setValue("Kept", forKey: "title")
            let gone = HookedNote(context: context)
            gone.setValue("Gone", forKey: "title")
            try context.save()
            #expect(kept.calls == ["awakeFromInsert", "willSave", "willSave", "didSave"])
            #expect(kept.didSaveSaw?.inserted == false && kept.didSaveSaw?.temporaryID == false)
            kept.calls = []
            gone.calls = []
            kept.setValue("Kept too", forKey: "title")
            context.delete(gone)
            try context.save()
            #expect(kept.calls == ["willSave", "didSave"])
            #expect(gone.calls == ["prepareForDeletion", "willSave", "didSave"])
        }
        #expect(try ContextTestSupport.rows(container, "SELECT ZTITLE, ZREVISION FROM ZNOTE") == ["Kept too|1"])
    }

    /// willSave(): "If you continue to modify a value in willSave, willSave will continue to be
    /// called until your program crashes." modelc fails the save instead, writing nothing.
    @Test func aWillSaveThatKeepsChangingFailsTheSave() async throws {
        let folder = try StackFolder()
        defer { folder.remove() }
        let container = try await HooksModel.container(in: folder.url)
        let context = container.newBackgroundContext()
        context.performAndWait {
            let note = HookedNote(context: context)
            note.setValue("Loop", forKey: "title")
            note.runaway = true
            let error = ContextTestSupport.saveError(context)
            #expect(error?.domain == NSCocoaErrorDomain && error?.code == 134060)
        }
        #expect(try ContextTestSupport.rows(container, "SELECT COUNT(*) FROM ZNOTE") == ["0"])
    }

    /// didSave(): "any changes you make using standard accessor methods will by default dirty the
    /// managed object context and leave your context with unsaved changes".
    @Test func changesMadeInDidSaveAreUnsaved() async throws {
        let folder = try StackFolder()
        defer { folder.remove() }
        let container = try await HooksModel.container(in: folder.url)
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let note = HookedNote(context: context)
            note.setValue("Draft", forKey: "title")
            try context.save()
            #expect(!context.hasChanges)
            note.afterSaving = { $0.setValue("Edited after saving", forKey: "title") }
            note.setValue("Final", forKey: "title")
            try context.save()
            #expect(context.hasChanges && context.updatedObjects.contains(note))
        }
        #expect(try ContextTestSupport.rows(container, "SELECT ZTITLE FROM ZNOTE") == ["Final"])
    }

    /// prepareForDeletion(): called when the object is about to be deleted, "before relationships
    /// are torn down" (custom propagation): the folder is deleted and still holds its note then;
    /// the note its cascade deletes is prepared too; each once, however often changes are processed.
    @Test func prepareForDeletionRunsOnceBeforeDeleteRules() async throws {
        let folder = try StackFolder()
        defer { folder.remove() }
        let container = try await HooksModel.container(in: folder.url)
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let box = HookedFolder(context: context)
            let note = HookedNote(context: context)
            note.setValue("Filed", forKey: "title")
            note.setValue(box, forKey: "folder")
            try context.save()
            context.delete(box)
            context.processPendingChanges()
            context.processPendingChanges()
            #expect(box.prepared.count == 1 && box.prepared.first?.deleted == true && box.prepared.first?.notes == 1)
            #expect(note.isDeleted && note.calls.filter { $0 == "prepareForDeletion" }.count == 1)
            try context.save()
            #expect(box.prepared.count == 1)
        }
        #expect(try ContextTestSupport.rows(container, "SELECT COUNT(*) FROM ZNOTE") == ["0"])
    }
}
