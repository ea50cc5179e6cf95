import CoreData
import Testing

/// `NSPersistentContainer` and its store descriptions, as Apple's documentation describes them.
@MainActor
struct NSPersistentContainerTests {
    /// The model is compiled where the container looks for it before any test.
    init() throws {
        try #require(NotesModel.isInstalled)
    }

    /// A container's one description is a SQLite store named after the container in
    /// `defaultDirectoryURL()`, added synchronously, migrating with an inferred mapping
    /// (developer.apple.com: NSPersistentContainer.init(name:) "the provided name value is used to
    /// name the persistent store"; shouldAddStoreAsynchronously and
    /// shouldMigrateStoreAutomatically "default … false / true").
    @Test func theDefaultDescriptionIsASQLiteStoreNamedAfterTheContainer() throws {
        let container = NotesContainer(name: "Notes")
        let description = try #require(container.persistentStoreDescriptions.first)
        #expect(container.persistentStoreDescriptions.count == 1)
        #expect(description.url == NotesContainer.directory.appendingPathComponent("Notes.sqlite"))
        #expect(description.type == NSSQLiteStoreType)
        #expect(!description.shouldAddStoreAsynchronously)
        #expect(description.shouldMigrateStoreAutomatically)
        #expect(description.shouldInferMappingModelAutomatically)
        #expect(!description.isReadOnly)
        #expect(description.timeout == 240)
    }

    /// A synchronous load calls its handler before `loadPersistentStores` returns, and the store
    /// file is where the description says; Core Data's SQLite stores journal in WAL mode unless
    /// the `journal_mode` pragma says otherwise (WWDC 2013 session 207; the file header's bytes
    /// 18 and 19 are 2 in WAL mode, 1 for a rollback journal: sqlite.org/fileformat2.html).
    @Test func aSynchronousLoadIsDoneWhenTheCallReturnsAndHonoursTheJournalPragma() throws {
        let folder = try TestFolder()
        let model = PersistenceController(inMemory: true).container.managedObjectModel
        var modes = [String: UInt8]()
        for (name, pragma) in [("wal", nil), ("delete", "DELETE")] {
            let container = NSPersistentContainer(name: name, managedObjectModel: model)
            let description = NSPersistentStoreDescription(url: folder.url.appendingPathComponent("\(name).sqlite"))
            if let pragma { description.setValue(pragma as NSString, forPragmaNamed: "journal_mode") }
            container.persistentStoreDescriptions = [description]
            var loaded: NSPersistentStoreDescription?
            container.loadPersistentStores { description, error in
                #expect(error == nil)
                loaded = description
            }
            #expect(loaded === description)
            let header = try Data(contentsOf: description.url!).prefix(20)
            modes[name] = header.last
        }
        #expect(modes == ["wal": 2, "delete": 1])
    }

    /// A description set to load asynchronously has its handler called on another thread after
    /// `loadPersistentStores` returns (shouldAddStoreAsynchronously: "the store is added
    /// asynchronously on a background queue").
    @Test func anAsynchronousLoadCallsItsHandlerLater() async throws {
        let model = PersistenceController(inMemory: true).container.managedObjectModel
        let container = NSPersistentContainer(name: "Notes", managedObjectModel: model)
        let description = NSPersistentStoreDescription()
        description.type = NSInMemoryStoreType
        description.shouldAddStoreAsynchronously = true
        container.persistentStoreDescriptions = [description]
        let returned = Flag()
        let error: (any Error)? = await withCheckedContinuation { continuation in
            container.loadPersistentStores { _, error in
                #expect(returned.isSet)
                continuation.resume(returning: error)
            }
            returned.set()
        }
        #expect(error == nil)
        #expect(container.persistentStoreCoordinator.persistentStores.count == 1)
    }

    /// A store type the loader does not have is refused through the handler with Core Data's
    /// `NSPersistentStoreInvalidTypeError` (134000, CoreDataErrors.h), not a trap.
    @Test func anUnknownStoreTypeFailsWithInvalidTypeError() {
        let model = PersistenceController(inMemory: true).container.managedObjectModel
        let container = NSPersistentContainer(name: "Notes", managedObjectModel: model)
        container.persistentStoreDescriptions.first!.type = "Binary"
        var failure: NSError?
        container.loadPersistentStores { _, error in failure = error as NSError? }
        #expect(failure?.domain == NSCocoaErrorDomain)
        #expect(failure?.code == 134000)
    }

    /// A container whose model is not in any bundle has an empty model, and loading fails through
    /// the handler rather than trapping (Apple logs "Failed to load model named …" and the
    /// container is left without entities).
    @Test func aMissingModelLeavesAnEmptyModelAndAFailingLoad() {
        let container = NSPersistentContainer(name: "NoSuchModel")
        #expect(container.managedObjectModel.entities.isEmpty)
        container.persistentStoreDescriptions.first!.url = URL(fileURLWithPath: "/dev/null")
        var failure: NSError?
        container.loadPersistentStores { _, error in failure = error as NSError? }
        #expect(failure?.domain == NSCocoaErrorDomain)
        #expect(failure?.code == 134130)
    }

    /// The option keys have Core Data's strings (CoreData/NSPersistentStoreCoordinator.h); the
    /// remote-change key's string lacks "Post".
    @Test func optionKeysHaveCoreDatasStrings() {
        #expect(NSPersistentStoreRemoteChangeNotificationPostOptionKey == "NSPersistentStoreRemoteChangeNotificationOptionKey")
        #expect(NSPersistentHistoryTrackingKey == "NSPersistentHistoryTrackingKey")
        #expect(NSMigratePersistentStoresAutomaticallyOption == "NSMigratePersistentStoresAutomaticallyOption")
        #expect(NSInferMappingModelAutomaticallyOption == "NSInferMappingModelAutomaticallyOption")
        #expect(NSReadOnlyPersistentStoreOption == "NSReadOnlyPersistentStoreOption")
        #expect(NSSQLiteStoreType == "SQLite")
        #expect(NSInMemoryStoreType == "InMemory")
        #expect(Notification.Name.NSManagedObjectContextDidSave.rawValue == "NSManagedObjectContextDidSaveNotification")
        #expect(NSManagedObjectContext.NotificationKey.insertedObjects.rawValue == NSInsertedObjectsKey)
    }

    /// The guide's subclass: its background contexts carry the merge policy and author it sets,
    /// and a background save reaches an object the view context holds, the view context merging
    /// it (automaticallyMergesChangesFromParent: "whether the context automatically merges
    /// changes saved to its persistent store coordinator or parent context").
    @Test func aSubclassesBackgroundSaveIsMergedIntoTheViewContext() async throws {
        let container = NotesContainer(name: "Notes")
        try? FileManager.default.removeItem(at: NotesContainer.directory)
        defer { try? FileManager.default.removeItem(at: NotesContainer.directory) }
        container.loadPersistentStores { _, error in
            if let error { Issue.record(error) }
        }
        container.viewContext.automaticallyMergesChangesFromParent = true
        #expect(FileManager.default.fileExists(atPath: NotesContainer.directory.appendingPathComponent("Notes.sqlite").path))
        let note = Note(context: container.viewContext)
        note.title = "draft"
        try container.viewContext.save()
        let id = note.objectID
        let background = container.newBackgroundContext()
        #expect(background.mergePolicy == NSMergeByPropertyObjectTrumpMergePolicy)
        #expect(background.transactionAuthor == "background")
        try await background.perform {
            let copy = try background.existingObject(with: id) as! Note
            copy.title = "final"
            try background.save()
        }
        let view = container.viewContext
        let title = try await view.perform { (view.object(with: id) as? Note)?.title }
        #expect(title == "final")
    }
}

/// A flag set on one thread and read on another.
final class Flag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false

    var isSet: Bool { lock.withLock { value } }

    func set() { lock.withLock { value = true } }
}
