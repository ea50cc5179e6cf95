import Foundation
import GRDB
import ModelObjects
import ModelSchema
import ModelStack
import ModelStore
import Testing

/// A coordinator with several stores, one per configuration of the model, as Core Data's with
/// several stores added: each object saved to the store of its entity's configuration, fetches
/// merged across the stores, object IDs carrying their own store's UUID, relationships kept
/// within one store (133010). The model: `Item` and `Person` in configuration "Main", `Item`'s
/// subentity `Memo` in "Scratch", so that a fetch of `Item` spans both stores.
struct MultipleStoreTests {
    typealias Support = ContextTestSupport
    static let contents = """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" lastSavedToolsVersion="22758" systemVersion="23E224" minimumToolsVersion="Automatic" sourceLanguage="Swift" userDefinedModelVersionIdentifier="">
            <entity name="Item" representedClassName="Item" syncable="YES">
                <attribute name="rank" attributeType="Integer 64" defaultValueString="0" usesScalarValueType="YES"/>
                <attribute name="title" optional="YES" attributeType="String"/>
                <relationship name="owner" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Person" inverseName="items" inverseEntity="Person"/>
            </entity>
            <entity name="Memo" representedClassName="Memo" parentEntity="Item" syncable="YES">
                <attribute name="text" optional="YES" attributeType="String"/>
            </entity>
            <entity name="Person" representedClassName="Person" syncable="YES">
                <attribute name="name" optional="YES" attributeType="String"/>
                <relationship name="items" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Item" inverseName="owner" inverseEntity="Item"/>
            </entity>
            <configuration name="Main">
                <memberEntity name="Item"/>
                <memberEntity name="Person"/>
            </configuration>
            <configuration name="Scratch">
                <memberEntity name="Memo"/>
            </configuration>
        </model>
        """

    /// A folder holding the model and the stores' files.
    struct Setup {
        let folder: URL
        var model: URL { folder.appendingPathComponent("Notes.xcdatamodeld") }
        var main: URL { folder.appendingPathComponent("Main.sqlite") }
        var scratch: URL { folder.appendingPathComponent("Scratch.sqlite") }

        init() throws {
            folder = FileManager.default.temporaryDirectory.appendingPathComponent("modelc-stores-\(UUID().uuidString)")
            let version = folder.appendingPathComponent("Notes.xcdatamodeld/Notes.xcdatamodel")
            try FileManager.default.createDirectory(at: version, withIntermediateDirectories: true)
            try Data(MultipleStoreTests.contents.utf8).write(to: version.appendingPathComponent("contents"))
        }

        /// A container with the Main store first, then the Scratch store, loaded; with
        /// `history`, both track persistent history; with `remote`, both post remote changes.
        func container(history: Bool = false, remote: Bool = false) async throws -> PersistentContainer {
            let container = try PersistentContainer(name: "Notes", model: model)
            var main = StoreDescription(url: self.main)
            main.configuration = "Main"
            main.persistentHistoryTracking = history
            main.postsRemoteChangeNotifications = remote
            var scratch = StoreDescription(url: self.scratch)
            scratch.configuration = "Scratch"
            scratch.persistentHistoryTracking = history
            scratch.postsRemoteChangeNotifications = remote
            container.persistentStoreDescriptions = [main, scratch]
            try await container.loadPersistentStores()
            return container
        }

        /// Runs `sql` on the store file at `url` with plain SQLite, beside the container's connections.
        static func execute(_ url: URL, _ sql: String) throws {
            var configuration = GRDB.Configuration()
            configuration.busyMode = .timeout(5)
            try DatabaseQueue(path: url.path, configuration: configuration).writeWithoutTransaction { try $0.execute(sql: sql) }
        }

        /// Rows of `sql` in the store file at `url`, read with plain SQLite, columns joined by `|`.
        func rows(_ url: URL, _ sql: String) throws -> [String] {
            var configuration = GRDB.Configuration()
            configuration.readonly = true
            // A container let go a moment before may still be checkpointing the file as it closes.
            configuration.busyMode = .timeout(5)
            return try DatabaseQueue(path: url.path, configuration: configuration).read { db in
                try Row.fetchAll(db, sql: sql).map { row in row.databaseValues.map { $0.isNull ? "NULL" : "\($0.storage.value ?? "")" }.joined(separator: "|") }
            }
        }
    }

    /// Inserts three items (ranks 1, 3, 5) and three memos (ranks 2, 4, 6) and saves them.
    static func fill(_ context: ManagedObjectContext) throws {
        let entities = context.persistentStoreCoordinator!.managedObjectModel.entitiesByName
        for rank in 1...6 {
            let object = ManagedObject(entity: entities[rank.isMultiple(of: 2) ? "Memo" : "Item"]!, insertInto: context)
            object.setValue(Int64(rank), forKey: "rank")
            object.setValue("t\(rank)", forKey: "title")
        }
        try context.save()
    }

    /// Each store records its own saves; a history request without a token reads every store,
    /// oldest first, each transaction with its own store's token; a token's request reads its
    /// store only; a token of a store the coordinator lacks is 134501.
    @Test func historySpansTheStoresEachWithItsOwnTokens() async throws {
        let setup = try Setup()
        let container = try await setup.container(history: true)
        let context = container.newBackgroundContext()
        let entities = container.persistentStoreCoordinator.managedObjectModel.entitiesByName
        let (main, scratch) = try context.performAndWait { () throws -> (String, String) in
            for entity in ["Item", "Memo", "Item"] {
                ManagedObject(entity: entities[entity]!, insertInto: context).setValue(entity, forKey: "title")
                try context.save()
            }
            let identifiers = try context.persistentStoreCoordinator!.storeIdentifiers()
            return (identifiers[0], identifiers[1])
        }
        let (all, afterMain, afterScratch, deleted) = try context.performAndWait {
            let all = try context.execute(HistoryChangeRequest.fetchHistory(after: nil as HistoryToken?)).transactions
            let afterMain = try context.execute(HistoryChangeRequest.fetchHistory(after: all[0].token)).transactions
            let afterScratch = try context.execute(HistoryChangeRequest.fetchHistory(after: all[1].token)).transactions
            guard case .deleted(let deleted) = try context.execute(HistoryChangeRequest.deleteHistory(before: all[2].token)) else { return (all, afterMain, afterScratch, -1) }
            return (all, afterMain, afterScratch, deleted)
        }
        #expect(all.map { "\($0.token.storeIdentifier == main ? "main" : $0.token.storeIdentifier == scratch ? "scratch" : "?") \($0.transactionNumber)" }
            == ["main 1", "scratch 1", "main 2"])
        #expect(all.map { $0.changes.map(\.changedObjectID.entityName) } == [["Item"], ["Memo"], ["Item"]])
        #expect(afterMain.map(\.transactionNumber) == [2] && afterMain[0].token.storeIdentifier == main)
        #expect(afterScratch.isEmpty)
        #expect(deleted == 1)
        #expect(try setup.rows(setup.main, "SELECT Z_PK FROM ATRANSACTION") == ["2"])
        #expect(try setup.rows(setup.scratch, "SELECT Z_PK FROM ATRANSACTION") == ["1"])
        let refused = context.performAndWait { () -> Int? in
            do {
                _ = try context.execute(HistoryChangeRequest.fetchHistory(after: HistoryToken(storeIdentifier: "elsewhere", transactionNumber: 1)))
                return nil
            } catch {
                return (error as NSError).code
            }
        }
        #expect(refused == 134501)
    }

    /// Each store loaded to post remote changes is watched: another container's save into the
    /// second store is posted with that store's URL, UUID and token.
    @Test func eachStorePostsItsOwnRemoteChanges() async throws {
        let setup = try Setup()
        let watched = try await setup.container(history: true, remote: true)
        let coordinator = watched.persistentStoreCoordinator
        let posted = RemoteChangeTests.Recorder(coordinator)
        let scratch = try coordinator.storeIdentifiers()[1]
        let other = try await setup.container(history: true)
        let context = other.newBackgroundContext()
        try context.performAndWait {
            ManagedObject(entity: other.persistentStoreCoordinator.managedObjectModel.entitiesByName["Memo"]!, insertInto: context).setValue("m", forKey: "title")
            try context.save()
        }
        let note = try await posted.first(timeout: 10) { $0.userInfo?[NSStoreUUIDKey] as? String == scratch }
        #expect(note.userInfo?[NSPersistentStoreURLKey] as? URL == setup.scratch)
        #expect((note.userInfo?[NSPersistentHistoryTokenKey] as? HistoryToken) == HistoryToken(storeIdentifier: scratch, transactionNumber: 1))
    }

    @Test func eachStoreHasOnlyItsConfigurationsTablesAndEveryEntitysHashes() async throws {
        let setup = try Setup()
        _ = try await setup.container()
        // Entity numbers are the model's: roots alphabetically, each followed by its subentities.
        #expect(try setup.rows(setup.main, "SELECT Z_ENT, Z_NAME, Z_SUPER FROM Z_PRIMARYKEY ORDER BY Z_ENT") == ["1|Item|0", "3|Person|0"])
        #expect(try setup.rows(setup.scratch, "SELECT Z_ENT, Z_NAME, Z_SUPER FROM Z_PRIMARYKEY ORDER BY Z_ENT") == ["1|Item|0", "2|Memo|1"])
        let tables = "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name"
        #expect(try setup.rows(setup.main, tables) == ["ZITEM", "ZPERSON", "Z_METADATA", "Z_MODELCACHE", "Z_PRIMARYKEY"])
        #expect(try setup.rows(setup.scratch, tables) == ["ZITEM", "Z_METADATA", "Z_MODELCACHE", "Z_PRIMARYKEY"])
        for url in [setup.main, setup.scratch] {
            let metadata = try StoreMetadata.read(at: url.path)
            #expect(Set(metadata.versionHashes.keys) == ["Item", "Memo", "Person"])
        }
    }

    @Test func objectsLandInTheStoreOfTheirConfigurationWithItsUUID() async throws {
        let setup = try Setup()
        let container = try await setup.container()
        let context = container.newBackgroundContext()
        let ids = try context.performAndWait { () throws -> [String: [ManagedObjectID]] in
            try Self.fill(context)
            let objects = try context.fetch(FetchRequest<ManagedObject>(entityName: "Item"))
            return Dictionary(grouping: objects.map(\.objectID), by: \.entityName)
        }
        #expect(try setup.rows(setup.main, "SELECT Z_ENT, ZRANK FROM ZITEM ORDER BY ZRANK") == ["1|1", "1|3", "1|5"])
        #expect(try setup.rows(setup.scratch, "SELECT Z_ENT, ZRANK FROM ZITEM ORDER BY ZRANK") == ["2|2", "2|4", "2|6"])
        let mainUUID = try setup.rows(setup.main, "SELECT Z_UUID FROM Z_METADATA")
        let scratchUUID = try setup.rows(setup.scratch, "SELECT Z_UUID FROM Z_METADATA")
        #expect(mainUUID != scratchUUID)
        #expect(ids["Item"]?.map(\.storeIdentifier) == Array(repeating: mainUUID[0], count: 3))
        #expect(ids["Memo"]?.map(\.storeIdentifier) == Array(repeating: scratchUUID[0], count: 3))
        #expect(try setup.rows(setup.scratch, "SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_NAME = 'Item'") == ["3"])
    }

    @Test func aFetchSortsAndLimitsOverEveryStore() async throws {
        let setup = try Setup()
        let container = try await setup.container()
        let context = container.newBackgroundContext()
        try context.performAndWait {
            try Self.fill(context)
            let request = FetchRequest<ManagedObject>(entityName: "Item")
            request.sortDescriptors = [FetchSortDescriptor(key: "rank", ascending: false)]
            request.fetchLimit = 3
            request.fetchOffset = 1
            #expect(try context.fetch(request).map { $0.value(forKey: "title") as? String } == ["t5", "t4", "t3"])
            #expect(try context.count(for: FetchRequest<ManagedObject>(entityName: "Item")) == 6)
            #expect(try context.count(for: FetchRequest<ManagedObject>(entityName: "Memo")) == 3)
        }
        // A new container reads both stores back.
        let reopened = try await setup.container()
        let titles = try reopened.viewContext.performAndWait {
            let request = FetchRequest<ManagedObject>(entityName: "Item")
            request.sortDescriptors = [FetchSortDescriptor(key: "rank")]
            return try reopened.viewContext.fetch(request).map { $0.value(forKey: "title") as? String }
        }
        #expect(titles == ["t1", "t2", "t3", "t4", "t5", "t6"])
    }

    @Test func aRelationshipAcrossStoresIsRefusedWith133010() async throws {
        let setup = try Setup()
        let container = try await setup.container()
        let context = container.newBackgroundContext()
        let code = context.performAndWait { () -> Int? in
            let entities = context.persistentStoreCoordinator!.managedObjectModel.entitiesByName
            let person = ManagedObject(entity: entities["Person"]!, insertInto: context)
            let memo = ManagedObject(entity: entities["Memo"]!, insertInto: context)
            memo.setValue(person, forKey: "owner")
            do {
                try context.save()
                return nil
            } catch {
                return (error as NSError).code
            }
        }
        #expect(code == 133010)
        #expect(try setup.rows(setup.main, "SELECT COUNT(*) FROM ZPERSON") == ["0"])
        #expect(try setup.rows(setup.scratch, "SELECT COUNT(*) FROM ZITEM") == ["0"])
    }

    /// The item of rank 1, in the main store, and the memo of rank 2, in the scratch store.
    static func firstTwoItems() throws -> ModelObjects.FetchRequest<ManagedObject> {
        let request = FetchRequest<ManagedObject>(entityName: "Item")
        request.predicate = FetchPredicate(format: "rank <= 2")
        request.sortDescriptors = [FetchSortDescriptor(key: "rank")]
        return request
    }

    /// Fetches `request` in `context` and gives every object the title "edited", unsaved.
    static func editTitles(_ request: ModelObjects.FetchRequest<ManagedObject>, in context: ManagedObjectContext) throws -> [ManagedObject] {
        try context.performAndWait {
            let objects = try context.fetch(request)
            for object in objects { object.setValue("edited", forKey: "title") }
            return objects
        }
    }

    /// A save that fails in the second store (an optimistic-locking conflict on a memo) changes
    /// neither store: the first store's transaction is still open then and rolls back, the error
    /// is the conflict's 133020, every object keeps its change, and saving again writes both.
    /// (Before, the first store had committed: 134040 and half a save.)
    @Test func aSaveFailingInTheSecondStoreChangesNeither() async throws {
        let setup = try Setup()
        let container = try await setup.container()
        let filler = container.newBackgroundContext()
        try filler.performAndWait { try Self.fill(filler) }
        let (editor, other) = (container.newBackgroundContext(), container.newBackgroundContext())
        let request = try Self.firstTwoItems()
        let objects = try Self.editTitles(request, in: editor)
        try other.performAndWait {
            let memo = try other.fetch(request)[1]
            memo.setValue("elsewhere", forKey: "title")
            try other.save()
        }
        let error = editor.performAndWait { ContextTestSupport.saveError(editor) }
        #expect(error?.code == 133020)
        editor.performAndWait {
            #expect(objects[0].hasChanges && objects[1].hasChanges)
            #expect(editor.updatedObjects == Set(objects))
        }
        #expect(try setup.rows(setup.main, "SELECT ZTITLE, Z_OPT FROM ZITEM WHERE ZRANK = 1") == ["t1|1"])
        editor.mergePolicy = .mergeByPropertyObjectTrump
        try editor.performAndWait { try editor.save() }
        #expect(try setup.rows(setup.main, "SELECT ZTITLE, Z_OPT FROM ZITEM WHERE ZRANK = 1") == ["edited|2"])
        #expect(try setup.rows(setup.scratch, "SELECT ZTITLE, Z_OPT FROM ZITEM WHERE ZRANK = 2") == ["edited|3"])
    }

    /// A save whose second store refuses its rows (a trigger raising) changes neither store and
    /// throws 134030 with SQLite's code, not SQLite's own error; one whose second store fails only
    /// at its commit, after the first committed (a deferred foreign key a trigger broke), is
    /// 134040 naming that store: the item is saved, the memo keeps its change and is written by the
    /// next save.
    @Test func aSaveFailingAtTheSecondStoresCommitIsIncomplete() async throws {
        let setup = try Setup()
        let container = try await setup.container()
        let context = container.newBackgroundContext()
        try context.performAndWait { try Self.fill(context) }
        let scratch = container.persistentStoreCoordinator.persistentStores[1]
        let objects = try Self.editTitles(try Self.firstTwoItems(), in: context)
        try Setup.execute(setup.scratch, "CREATE TRIGGER REFUSE BEFORE UPDATE ON ZITEM BEGIN SELECT RAISE(ABORT, 'refused'); END")
        let refused = context.performAndWait { ContextTestSupport.saveError(context) }
        #expect(refused?.domain == NSCocoaErrorDomain && refused?.code == 134030, "\(String(describing: refused))")
        #expect(refused?.userInfo["NSSQLiteErrorDomain"] as? Int == 1811)  // SQLITE_CONSTRAINT_TRIGGER
        #expect(try setup.rows(setup.main, "SELECT ZTITLE, Z_OPT FROM ZITEM WHERE ZRANK = 1") == ["t1|1"])

        try Setup.execute(setup.scratch, """
            DROP TRIGGER REFUSE;
            CREATE TABLE BROKEN_PARENT(ID INTEGER PRIMARY KEY);
            CREATE TABLE BROKEN_CHILD(PARENT INTEGER REFERENCES BROKEN_PARENT(ID) DEFERRABLE INITIALLY DEFERRED);
            CREATE TRIGGER BREAK AFTER UPDATE ON ZITEM BEGIN INSERT INTO BROKEN_CHILD VALUES(1); END;
            """)
        let incomplete = context.performAndWait { ContextTestSupport.saveError(context) }
        #expect(incomplete?.code == 134040, "\(String(describing: incomplete))")
        let affected = incomplete?.userInfo["NSAffectedStoresErrorKey"] as? [PersistentStore]
        #expect(affected?.count == 1 && affected?.first === scratch)
        #expect((incomplete?.userInfo[NSUnderlyingErrorKey] as? NSError)?.code == 134030)
        context.performAndWait {
            #expect(!objects[0].hasChanges)
            #expect(context.updatedObjects == [objects[1]])
        }
        #expect(try setup.rows(setup.main, "SELECT ZTITLE, Z_OPT FROM ZITEM WHERE ZRANK = 1") == ["edited|2"])
        #expect(try setup.rows(setup.scratch, "SELECT ZTITLE, Z_OPT FROM ZITEM WHERE ZRANK = 2") == ["t2|1"])
        try Setup.execute(setup.scratch, "DROP TRIGGER BREAK")
        try context.performAndWait { try context.save() }
        #expect(try setup.rows(setup.scratch, "SELECT ZTITLE, Z_OPT FROM ZITEM WHERE ZRANK = 2") == ["edited|2"])
    }

    @Test func anObjectOfAnEntityNoLoadedStoreHoldsIsNotSaved() async throws {
        let setup = try Setup()
        let container = try PersistentContainer(name: "Notes", model: setup.model)
        var main = StoreDescription(url: setup.main)
        main.configuration = "Main"
        container.persistentStoreDescriptions = [main]
        try await container.loadPersistentStores()
        let context = container.newBackgroundContext()
        let (code, memos) = try context.performAndWait { () throws -> (Int?, Int) in
            let entities = context.persistentStoreCoordinator!.managedObjectModel.entitiesByName
            ManagedObject(entity: entities["Memo"]!, insertInto: context).setValue(Int64(1), forKey: "rank")
            let code = (Support.saveError(context))?.code
            context.rollback()
            return (code, try context.count(for: FetchRequest<ManagedObject>(entityName: "Memo")))
        }
        #expect(code == 134020)
        #expect(memos == 0)
        #expect(try setup.rows(setup.main, "SELECT COUNT(*) FROM ZITEM") == ["0"])
    }

    @Test func eachStoreChecksCleanForItsConfigurationOnly() async throws {
        let setup = try Setup()
        let container = try await setup.container()
        let context = container.newBackgroundContext()
        try context.performAndWait { try Self.fill(context) }
        let bundle = container.model
        #expect(StoreCheck.run(storeAt: setup.main.path, bundle: bundle, configuration: "Main").error == nil)
        #expect(StoreCheck.run(storeAt: setup.scratch.path, bundle: bundle, configuration: "Scratch").error == nil)
        // Checked for every entity, the Scratch store lacks the Person table.
        #expect(StoreCheck.run(storeAt: setup.scratch.path, bundle: bundle).error?.errorClass == .incompatibleSchema)
        #expect(StoreCheck.run(storeAt: setup.scratch.path, bundle: bundle, configuration: "Nothing").error?.errorClass == .incompatibleSchema)
    }
}
