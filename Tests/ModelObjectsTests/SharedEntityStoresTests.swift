import Foundation
import GRDB
import ModelObjects
import ModelStack
import Testing

/// Entities in the configurations of two stores, as an app's private and shared stores hold the
/// same entities: each store numbers its rows from 1, so both hold a `Note` with `Z_PK` 1, and
/// the context keeps them apart. New objects go to the first store unless assigned to another
/// (`assign(_:to:)`); fetches, counts, faults, relationships, predicates naming objects, saves
/// and batch requests each reach the right store; another coordinator that added the stores in
/// the other order resolves the same IDs to the same rows.
struct SharedEntityStoresTests {
    static let contents = """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" lastSavedToolsVersion="22758" systemVersion="23E224" minimumToolsVersion="Automatic" sourceLanguage="Swift" userDefinedModelVersionIdentifier="">
            <entity name="Note" representedClassName="Note" syncable="YES">
                <attribute name="title" optional="YES" attributeType="String"/>
                <relationship name="tags" optional="YES" toMany="YES" deletionRule="Cascade" destinationEntity="Tag" inverseName="note" inverseEntity="Tag"/>
            </entity>
            <entity name="Tag" representedClassName="Tag" syncable="YES">
                <attribute name="label" optional="YES" attributeType="String"/>
                <relationship name="note" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Note" inverseName="tags" inverseEntity="Note"/>
            </entity>
            <configuration name="Private"><memberEntity name="Note"/><memberEntity name="Tag"/></configuration>
            <configuration name="Shared"><memberEntity name="Note"/><memberEntity name="Tag"/></configuration>
        </model>
        """

    struct Setup {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("modelc-shared-\(UUID().uuidString)")
        var model: URL { folder.appendingPathComponent("Notes.xcdatamodeld") }

        init() throws {
            let version = model.appendingPathComponent("Notes.xcdatamodel")
            try FileManager.default.createDirectory(at: version, withIntermediateDirectories: true)
            try Data(SharedEntityStoresTests.contents.utf8).write(to: version.appendingPathComponent("contents"))
        }

        func url(_ name: String) -> URL { folder.appendingPathComponent("\(name).sqlite") }

        /// A container with the stores of `names`, added in that order, waiting `timeout` seconds for a lock.
        func container(_ names: [String] = ["Private", "Shared"], timeout: TimeInterval = 240) async throws -> PersistentContainer {
            let container = try PersistentContainer(name: "Notes", model: model)
            container.persistentStoreDescriptions = names.map { name in
                var description = StoreDescription(url: url(name))
                description.configuration = name
                description.timeout = timeout
                description.persistentHistoryTracking = true
                return description
            }
            try await container.loadPersistentStores()
            return container
        }

        func rows(_ name: String, _ sql: String) throws -> [String] {
            var configuration = GRDB.Configuration()
            configuration.readonly = true
            return try DatabaseQueue(path: url(name).path, configuration: configuration).read { db in
                try Row.fetchAll(db, sql: sql).map { row in row.databaseValues.map { $0.isNull ? "NULL" : "\($0.storage.value ?? "")" }.joined(separator: "|") }
            }
        }
    }

    static func make(_ entity: String, _ values: [String: Any], in context: ManagedObjectContext) -> ManagedObject {
        let object = ManagedObject(entity: context.persistentStoreCoordinator!.managedObjectModel.entitiesByName[entity]!, insertInto: context)
        for (key, value) in values { object.setValue(value, forKey: key) }
        return object
    }

    static func titles(_ context: ManagedObjectContext, _ predicate: FetchPredicate? = nil, in stores: [PersistentStore]? = nil) throws -> [String] {
        let request = FetchRequest<ManagedObject>(entityName: "Note")
        request.predicate = predicate
        request.sortDescriptors = [FetchSortDescriptor(key: "title")]
        request.affectedStores = stores
        return try context.fetch(request).map { $0.value(forKey: "title") as? String ?? "-" }
    }

    /// Saves a note "mine" into the first store and a note "theirs" assigned to the second, with
    /// `more` run before the save; returns their IDs.
    static func saveMineAndTheirs(
        _ context: ManagedObjectContext, _ stores: [PersistentStore], _ more: (ManagedObject, ManagedObject) -> Void = { _, _ in }
    ) throws -> (mine: ManagedObjectID, theirs: ManagedObjectID) {
        try context.performAndWait {
            let mine = Self.make("Note", ["title": "mine"], in: context)
            let theirs = Self.make("Note", ["title": "theirs"], in: context)
            context.assign(theirs, to: stores[1])
            more(mine, theirs)
            try context.save()
            return (mine.objectID, theirs.objectID)
        }
    }

    @Test func objectsWithTheSameKeyInTwoStoresStayApart() async throws {
        let setup = try Setup()
        defer { try? FileManager.default.removeItem(at: setup.folder) }
        let container = try await setup.container()
        let stores = container.persistentStoreCoordinator.persistentStores
        let context = container.newBackgroundContext()
        let (mine, theirs) = try Self.saveMineAndTheirs(context, stores) { mine, theirs in
            let tag = Self.make("Tag", ["label": "shared tag"], in: context)
            context.assign(tag, to: stores[1])
            tag.setValue(theirs, forKey: "note")
            Self.make("Tag", ["label": "own tag"], in: context).setValue(mine, forKey: "note")
        }
        // Each store holds its own rows, both numbered from 1.
        #expect(try setup.rows("Private", "SELECT Z_PK, ZTITLE FROM ZNOTE") == ["1|mine"])
        #expect(try setup.rows("Shared", "SELECT Z_PK, ZTITLE FROM ZNOTE") == ["1|theirs"])
        #expect(try setup.rows("Shared", "SELECT Z_PK, ZLABEL, ZNOTE FROM ZTAG") == ["1|shared tag|1"])
        #expect(mine.storeIdentifier == stores[0].identifier && theirs.storeIdentifier == stores[1].identifier)
        #expect(mine.uriRepresentation().lastPathComponent == "p1" && theirs.uriRepresentation().lastPathComponent == "p1")
        #expect(mine != theirs)
        // History records the store's own primary keys, and reads back as the same IDs.
        #expect(try setup.rows("Shared", "SELECT ZENTITYPK FROM ACHANGE ORDER BY Z_PK") == ["1", "1"])
        let history = try context.performAndWait {
            let request = HistoryChangeRequest.fetchHistory(after: nil as HistoryToken?)
            request.affectedStores = [stores[1]]
            return try context.execute(request).transactions.flatMap(\.changes).map(\.changedObjectID)
        }
        #expect(history.contains(theirs))

        let reader = container.newBackgroundContext()
        try reader.performAndWait {
            #expect(try Self.titles(reader) == ["mine", "theirs"])
            #expect(try Self.titles(reader, in: [stores[1]]) == ["theirs"])
            #expect(try reader.count(for: FetchRequest<ManagedObject>(entityName: "Note")) == 2)
            // Faults and relationships read their own store.
            let note = reader.object(with: theirs)
            #expect(note.value(forKey: "title") as? String == "theirs")
            #expect(((note.value(forKey: "tags") as? NSSet)?.allObjects as? [ManagedObject])?.map { $0.value(forKey: "label") as? String } == ["shared tag"])
            // A predicate naming an object matches in that object's store only.
            let tags = FetchRequest<ManagedObject>(entityName: "Tag")
            tags.predicate = FetchPredicate(format: "note == %@", note)
            #expect(try reader.fetch(tags).map { $0.value(forKey: "label") as? String } == ["shared tag"])
            // An ID from a URI is the fetched object's.
            let uri = try #require(reader.persistentStoreCoordinator?.managedObjectID(forURIRepresentation: theirs.uriRepresentation()))
            #expect(reader.object(with: uri) === note)
            // A change is saved into the object's own store.
            note.setValue("theirs, edited", forKey: "title")
            try reader.save()
        }
        #expect(try setup.rows("Shared", "SELECT ZTITLE, Z_OPT FROM ZNOTE") == ["theirs, edited|2"])
        #expect(try setup.rows("Private", "SELECT ZTITLE, Z_OPT FROM ZNOTE") == ["mine|1"])

        // A relationship across the stores is refused.
        let refused = context.performAndWait { () -> Int? in
            let tag = Self.make("Tag", ["label": "stray"], in: context)
            tag.setValue(context.object(with: theirs), forKey: "note")
            defer { context.rollback() }
            return ContextTestSupport.saveError(context)?.code
        }
        #expect(refused == 133010)

        // Another coordinator, with the stores added the other way round, finds the same rows by the same IDs.
        let other = try await setup.container(["Shared", "Private"])
        let otherContext = other.newBackgroundContext()
        try otherContext.performAndWait {
            let theirsThere = try otherContext.existingObject(with: theirs)
            let mineThere = try otherContext.existingObject(with: mine)
            #expect(theirsThere.value(forKey: "title") as? String == "theirs, edited")
            #expect(mineThere.value(forKey: "title") as? String == "mine")
            #expect(try Self.titles(otherContext) == ["mine", "theirs, edited"])
        }

        // A batch delete runs in every store holding the entity.
        let deleted = try context.performAndWait {
            let request = BatchDeleteRequest(fetchRequest: FetchRequest<ManagedObject>(entityName: "Tag"))
            request.resultType = .objectIDs
            return try context.execute(request).result as? [ManagedObjectID] ?? []
        }
        #expect(Set(deleted.map(\.storeIdentifier)) == Set(stores.map(\.identifier)))
        #expect(try setup.rows("Shared", "SELECT COUNT(*) FROM ZTAG") == ["0"])
        #expect(try setup.rows("Private", "SELECT COUNT(*) FROM ZTAG") == ["0"])
    }

    /// A batch update or delete over both stores that the second refuses (a trigger raising)
    /// changes neither store and throws 134030 with SQLite's code, not SQLite's own error; one
    /// whose second store fails only at its commit (a deferred foreign key a trigger broke) is
    /// 134040 naming that store, the first store's rows changed. (Before, the first store had
    /// committed and the second's raw SQLite error came out.)
    @Test func aBatchRequestFailingInOneStoreChangesNoneOrNamesTheStoreThatKeptNothing() async throws {
        let setup = try Setup()
        let container = try await setup.container()
        let stores = container.persistentStoreCoordinator.persistentStores
        let context = container.newBackgroundContext()
        _ = try Self.saveMineAndTheirs(context, stores)
        func failure(_ request: PersistentStoreRequest) -> NSError? {
            context.performAndWait {
                do {
                    _ = try context.execute(request)
                    return nil
                } catch {
                    return error as NSError
                }
            }
        }
        try MultipleStoreTests.Setup.execute(setup.url("Shared"), """
            CREATE TRIGGER REFUSE_UPDATE BEFORE UPDATE ON ZNOTE BEGIN SELECT RAISE(ABORT, 'refused'); END;
            CREATE TRIGGER REFUSE_DELETE BEFORE DELETE ON ZNOTE BEGIN SELECT RAISE(ABORT, 'refused'); END;
            """)
        let update = BatchUpdateRequest(entityName: "Note")
        update.propertiesToUpdate = ["title": "batch"]
        let delete = BatchDeleteRequest(fetchRequest: FetchRequest<ManagedObject>(entityName: "Note"))
        for request in [update, delete] as [PersistentStoreRequest] {
            let error = failure(request)
            #expect(error?.domain == NSCocoaErrorDomain && error?.code == 134030, "\(String(describing: error))")
            #expect(error?.userInfo["NSSQLiteErrorDomain"] as? Int == 1811)  // SQLITE_CONSTRAINT_TRIGGER
            #expect(try setup.rows("Private", "SELECT ZTITLE FROM ZNOTE") == ["mine"])
        }

        try MultipleStoreTests.Setup.execute(setup.url("Shared"), """
            DROP TRIGGER REFUSE_UPDATE;
            CREATE TABLE BROKEN_PARENT(ID INTEGER PRIMARY KEY);
            CREATE TABLE BROKEN_CHILD(PARENT INTEGER REFERENCES BROKEN_PARENT(ID) DEFERRABLE INITIALLY DEFERRED);
            CREATE TRIGGER BREAK AFTER UPDATE ON ZNOTE BEGIN INSERT INTO BROKEN_CHILD VALUES(1); END;
            """)
        let incomplete = failure(update)
        #expect(incomplete?.code == 134040, "\(String(describing: incomplete))")
        let affected = incomplete?.userInfo["NSAffectedStoresErrorKey"] as? [PersistentStore]
        #expect(affected?.count == 1 && affected?.first === stores[1])
        #expect(try setup.rows("Private", "SELECT ZTITLE FROM ZNOTE") == ["batch"])
        #expect(try setup.rows("Shared", "SELECT ZTITLE FROM ZNOTE") == ["theirs"])
    }

    /// Two coordinators that added the stores in opposite orders save into both stores at once,
    /// again and again: every save takes the stores' locks in the order of their UUIDs, so none
    /// waits on another crosswise until its lock timeout (2 seconds here, then 134030).
    @Test func savesOverBothStoresFromCoordinatorsOfOppositeOrdersNeverWaitCrosswise() async throws {
        let setup = try Setup()
        let containers = [try await setup.container(["Private", "Shared"], timeout: 2), try await setup.container(["Shared", "Private"], timeout: 2)]
        let failures = Failures()
        DispatchQueue.concurrentPerform(iterations: containers.count) { index in
            let context = containers[index].newBackgroundContext()
            let second = containers[index].persistentStoreCoordinator.persistentStores[1]
            context.performAndWait {
                for round in 0..<40 {
                    _ = Self.make("Note", ["title": "\(index).\(round) first"], in: context)
                    context.assign(Self.make("Note", ["title": "\(index).\(round) second"], in: context), to: second)
                    if let error = ContextTestSupport.saveError(context) { failures.add(error.code) }
                }
            }
        }
        #expect(failures.codes.isEmpty, "\(failures.codes)")
        #expect(try setup.rows("Private", "SELECT COUNT(*) FROM ZNOTE") == ["80"])
        #expect(try setup.rows("Shared", "SELECT COUNT(*) FROM ZNOTE") == ["80"])
    }

    /// Error codes gathered from several threads.
    final class Failures: @unchecked Sendable {
        private let lock = NSLock()
        private var gathered = [Int]()

        var codes: [Int] { lock.withLock { gathered } }

        func add(_ code: Int) { lock.withLock { gathered.append(code) } }
    }

    /// A save's IDs merged into a context of another coordinator that added the stores in the
    /// other order refresh that context's objects of the same rows; a child context reads and
    /// saves its parent's objects of the second store by their own keys.
    @Test func mergesAndChildrenKeepTheStoresApart() async throws {
        let setup = try Setup()
        defer { try? FileManager.default.removeItem(at: setup.folder) }
        let writer = try await setup.container()
        let stores = writer.persistentStoreCoordinator.persistentStores
        let context = writer.newBackgroundContext()
        let (mine, theirs) = try Self.saveMineAndTheirs(context, stores)
        let reader = try await setup.container(["Shared", "Private"])
        let view = reader.viewContext
        let (held, other) = try view.performAndWait { (try view.existingObject(with: theirs), try view.existingObject(with: mine)) }
        try context.performAndWait {
            context.object(with: theirs).setValue("theirs, changed", forKey: "title")
            try context.save()
        }
        ManagedObjectContext.mergeChanges(fromRemoteContextSave: [NSUpdatedObjectIDsKey: [theirs]], into: [view])
        view.performAndWait {
            #expect(held.value(forKey: "title") as? String == "theirs, changed")
            #expect(other.value(forKey: "title") as? String == "mine")
        }

        let child = ManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        child.parent = context
        try child.performAndWait {
            #expect(try Self.titles(child) == ["mine", "theirs, changed"])
            child.object(with: theirs).setValue("edited in a child", forKey: "title")
            try child.save()
        }
        try context.performAndWait { try context.save() }
        #expect(try setup.rows("Shared", "SELECT ZTITLE FROM ZNOTE") == ["edited in a child"])
        #expect(try setup.rows("Private", "SELECT ZTITLE FROM ZNOTE") == ["mine"])
    }

    /// An ID of a store the coordinator does not have names no object there, even when its
    /// primary key is one of this store's: Core Data's IDs are of one store.
    @Test func anIDOfAnotherStoreNamesNoObject() async throws {
        let (first, second) = (try Setup(), try Setup())
        defer { [first, second].forEach { try? FileManager.default.removeItem(at: $0.folder) } }
        var ids = [ManagedObjectID]()
        for setup in [first, second] {
            let container = try await setup.container()
            let context = container.newBackgroundContext()
            ids.append(try context.performAndWait {
                let note = Self.make("Note", ["title": "in \(setup.folder.lastPathComponent)"], in: context)
                try context.save()
                return note.objectID
            })
        }
        #expect(ids[0].primaryKey == ids[1].primaryKey && ids[0].storeIdentifier != ids[1].storeIdentifier)
        let reopened = try await second.container()
        let other = reopened.newBackgroundContext()
        #expect(other.performAndWait { AffectedStoresTests.code { _ = try other.existingObject(with: ids[0]) } } == 133000)
    }

    /// A new object assigned to a store whose configuration lacks its entity fails the save.
    @Test func anAssignmentToAStoreWithoutTheEntityFailsTheSave() async throws {
        let setup = try Setup()
        defer { try? FileManager.default.removeItem(at: setup.folder) }
        let container = try await setup.container()
        let context = container.newBackgroundContext()
        let elsewhere = try await ContextTestSupport.container(in: nil)
        let code = context.performAndWait { () -> Int? in
            let note = Self.make("Note", ["title": "lost"], in: context)
            context.assign(note, to: elsewhere.persistentStoreCoordinator.persistentStores[0])
            return ContextTestSupport.saveError(context)?.code
        }
        #expect(code == 134020)
    }
}
