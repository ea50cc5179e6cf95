import Foundation
import ModelObjects
import ModelStack
import Testing
import _ModelTestSupport

/// A class only the models of these tests name, so that no other test's model can be the newest
/// one naming it while they run.
final class ContextlessMemo: ManagedObject {}

/// Objects made with `init()`, which take their entity from the newest model naming their class,
/// inserted into a context of another coordinator: as tests with many containers do. An equal
/// model's entity is traded for the context's; another model's, where the entity has another
/// number, fails the save before anything is written, instead of writing its row with the other
/// model's numbers (a `Z_PK` taken from another entity's `Z_MAX`, a wrong `Z_ENT`). Serialized:
/// each test decides which model is the newest to name the class.
@Suite(.serialized) struct ContextlessObjectTests {
    /// Memo is entity 2 after Item: the store's model.
    static let memoSecond = """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" lastSavedToolsVersion="22758" systemVersion="23E224" minimumToolsVersion="Automatic" sourceLanguage="Swift" userDefinedModelVersionIdentifier="">
            <entity name="Item" representedClassName="Item" syncable="YES">
                <attribute name="timestamp" optional="YES" attributeType="Date" usesScalarValueType="NO"/>
            </entity>
            <entity name="Memo" representedClassName="ContextlessMemo" syncable="YES">
                <attribute name="title" optional="YES" attributeType="String"/>
            </entity>
        </model>
        """
    /// Memo is entity 1, before Tag: another app's model naming the same class.
    static let memoFirst = """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" lastSavedToolsVersion="22758" systemVersion="23E224" minimumToolsVersion="Automatic" sourceLanguage="Swift" userDefinedModelVersionIdentifier="">
            <entity name="Memo" representedClassName="ContextlessMemo" syncable="YES">
                <attribute name="title" optional="YES" attributeType="String"/>
            </entity>
            <entity name="Tag" representedClassName="Tag" syncable="YES">
                <attribute name="label" optional="YES" attributeType="String"/>
            </entity>
        </model>
        """

    /// A container of `contents` on a new store in a folder of `folder` named `name`.
    static func container(_ contents: String, named name: String, in folder: URL) async throws -> PersistentContainer {
        let store = folder.appendingPathComponent(name)
        let model = store.appendingPathComponent("Memos.xcdatamodel")
        try FileManager.default.createDirectory(at: model, withIntermediateDirectories: true)
        try contents.write(to: model.appendingPathComponent("contents"), atomically: true, encoding: .utf8)
        return try await ContextTestSupport.container(model.path, in: store)
    }

    /// A store of the first model with three memos (keys 1 to 3 of entity 2) and four items saved:
    /// a key of the items' entity number would be free among the memos.
    static func storeWithMemos(in folder: URL) async throws -> (PersistentContainer, ManagedObjectContext) {
        let container = try await container(memoSecond, named: "store", in: folder)
        let context = container.newBackgroundContext()
        try context.performAndWait {
            for title in ["a", "b", "c"] { ContextlessMemo(context: context).setValue(title, forKey: "title") }
            let item = try #require(context.persistentStoreCoordinator?.managedObjectModel.entitiesByName["Item"])
            for _ in 0..<4 { _ = ManagedObject(entity: item, insertInto: context) }
            try context.save()
        }
        return (container, context)
    }

    /// The entity of a memo made (not saved) in a context of `container`, whose coordinator is
    /// then the newest to have made objects of the class.
    static func madeMemo(in container: PersistentContainer) throws -> EntityDescription {
        let context = container.newBackgroundContext()
        return context.performAndWait { ContextlessMemo(context: context).entity }
    }

    /// A newer model naming the class, whose coordinator made none of its objects, does not take
    /// the class from the coordinator that did.
    @Test func theClassKeepsTheEntityOfTheCoordinatorThatMadeItsObjects() async throws {
        let folder = try StackFolder()
        defer { folder.remove() }
        let (container, _) = try await Self.storeWithMemos(in: folder.url)
        let other = try await Self.container(Self.memoFirst, named: "other", in: folder.url)
        let newest = other.persistentStoreCoordinator.managedObjectModel
        #expect(newest.entitiesByName["Memo"] != nil)
        #expect(ContextlessMemo().entity === container.persistentStoreCoordinator.managedObjectModel.entitiesByName["Memo"])
        #expect(ContextlessMemo.registeredEntity === container.persistentStoreCoordinator.managedObjectModel.entitiesByName["Memo"])
    }

    @Test func anObjectOfAnotherModelsEntityFailsTheSaveAndWritesNothing() async throws {
        let folder = try StackFolder()
        defer { folder.remove() }
        let (container, context) = try await Self.storeWithMemos(in: folder.url)
        let other = try await Self.container(Self.memoFirst, named: "other", in: folder.url)
        let foreign = try Self.madeMemo(in: other)
        let before = try ContextTestSupport.rows(container, "SELECT Z_ENT, Z_NAME, Z_MAX FROM Z_PRIMARYKEY ORDER BY Z_ENT")
        context.performAndWait {
            let memo = ContextlessMemo()
            #expect(memo.entity === foreign)
            memo.setValue("later", forKey: "title")
            context.insert(memo)
            let error = ContextTestSupport.saveError(context)
            #expect(error?.domain == NSCocoaErrorDomain && error?.code == 134020)
            #expect((error?.userInfo[NSAffectedObjectsErrorKey] as? [ManagedObject])?.first === memo)
            #expect(memo.objectID.isTemporaryID && context.hasChanges)
        }
        #expect(try ContextTestSupport.rows(container, "SELECT Z_PK, Z_ENT, ZTITLE FROM ZMEMO ORDER BY Z_PK") == ["1|2|a", "2|2|b", "3|2|c"])
        #expect(try ContextTestSupport.rows(container, "SELECT Z_ENT, Z_NAME, Z_MAX FROM Z_PRIMARYKEY ORDER BY Z_ENT") == before)
    }

    @Test func anObjectOfAnEqualModelsEntityTakesTheContextsEntityAndSaves() async throws {
        let folder = try StackFolder()
        defer { folder.remove() }
        let (container, context) = try await Self.storeWithMemos(in: folder.url)
        let again = try await Self.container(Self.memoSecond, named: "again", in: folder.url)
        let equal = try Self.madeMemo(in: again)
        try context.performAndWait {
            let memo = ContextlessMemo()
            #expect(memo.entity === equal)
            memo.setValue("later", forKey: "title")
            context.insert(memo)
            #expect(memo.entity === container.persistentStoreCoordinator.managedObjectModel.entitiesByName["Memo"])
            try context.save()
            #expect(memo.objectID.entityName == "Memo" && !memo.objectID.isTemporaryID)
        }
        #expect(try ContextTestSupport.rows(container, "SELECT Z_PK, Z_ENT, ZTITLE FROM ZMEMO ORDER BY Z_PK") == ["1|2|a", "2|2|b", "3|2|c", "4|2|later"])
        #expect(try ContextTestSupport.rows(container, "SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_NAME IN ('Item', 'Memo') ORDER BY Z_ENT") == ["4", "4"])
    }

    /// `insert` of an object the context holds does nothing, and one it deleted comes back (not
    /// inserted again over its own row); an object that left its context deleted is inserted
    /// anew with its values: a new object into another context, a saved one whose deletion was
    /// saved under a new key.
    @Test func insertingAnObjectAgainKeepsItsValuesAndItsRow() async throws {
        let folder = try StackFolder()
        defer { folder.remove() }
        let (container, context) = try await Self.storeWithMemos(in: folder.url)
        let other = container.newBackgroundContext()
        try context.performAndWait {
            let request = FetchRequest<ContextlessMemo>(entityName: "Memo")
            request.sortDescriptors = [FetchSortDescriptor(key: "title", ascending: true)]
            let memos = try context.fetch(request)
            context.insert(memos[0])
            #expect(!memos[0].isInserted && memos[0].value(forKey: "title") as? String == "a" && !context.hasChanges)
            context.delete(memos[1])
            context.insert(memos[1])
            #expect(!memos[1].isInserted && !memos[1].isDeleted && memos[1].value(forKey: "title") as? String == "b" && !context.hasChanges)
            let fresh = ContextlessMemo(context: context)
            fresh.setValue("fresh", forKey: "title")
            context.delete(fresh)
            try other.performAndWait {
                other.insert(fresh)
                #expect(fresh.isInserted && !fresh.isDeleted && fresh.managedObjectContext === other)
                try other.save()
            }
            context.delete(memos[2])
            try context.save()
            let gone = memos[2].objectID
            context.insert(memos[2])
            #expect(memos[2].isInserted && !memos[2].isDeleted && memos[2].objectID.isTemporaryID)
            try context.save()
            #expect(memos[2].objectID != gone && memos[2].value(forKey: "title") as? String == "c")
        }
        #expect(try ContextTestSupport.rows(container, "SELECT Z_PK, ZTITLE FROM ZMEMO ORDER BY Z_PK") == ["1|a", "2|b", "4|fresh", "5|c"])
    }

    /// A relationship to an object of another context, or of none, fails the save (Core Data
    /// raises when it is set) and writes nothing, instead of saving the row without its link.
    @Test(arguments: [false, true]) func aRelationshipToAnObjectOfAnotherContextFailsTheSave(contextless: Bool) async throws {
        let folder = try StackFolder()
        defer { folder.remove() }
        let (container, model, elsewhere) = try await Self.libraryWithAnotherContext(in: folder)
        let author = try elsewhere.performAndWait {
            try Self.newAuthor(of: model, in: contextless ? nil : elsewhere)
        }
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let book = try Self.newBook(of: model, in: context)
            book.setValue(author, forKey: "author")
            let error = ContextTestSupport.saveError(context)
            #expect(error?.code == 133010 && (error?.userInfo[NSAffectedObjectsErrorKey] as? [ManagedObject])?.last === author)
        }
        #expect(try ContextTestSupport.rows(container, "SELECT Z_PK FROM ZPUBLICATION") == [])
        // The other context's author was not touched from this context's queue: its side of the
        // link was never made (a contextless object is anyone's, so it gets its side).
        elsewhere.performAndWait {
            let publications = (author.value(forKey: "publications") as? NSOrderedSet)?.count
            #expect(publications == (contextless ? 1 : 0))
        }
    }

    /// Adding an object of another context to a to-many, and taking it out, leaves that object's
    /// inverse as it was; the save refuses the link.
    @Test func aToManyMemberOfAnotherContextKeepsItsInverse() async throws {
        let folder = try StackFolder()
        defer { folder.remove() }
        let (container, model, elsewhere) = try await Self.libraryWithAnotherContext(in: folder)
        let book = try elsewhere.performAndWait { try Self.newBook(of: model, in: elsewhere) }
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let author = try Self.newAuthor(of: model, in: context)
            author.addObject(book, toRelationship: "publications")
            #expect(ContextTestSupport.saveError(context)?.code == 133010)
            author.removeObject(book, fromRelationship: "publications")
            #expect(context.updatedObjects.isEmpty && context.insertedObjects == [author])
        }
        elsewhere.performAndWait {
            #expect(book.value(forKey: "author") == nil)
            #expect(book.changedValues()["author"] == nil)
        }
    }

    /// A link to an object another context deleted fails the save and writes nothing: while the
    /// deletion is unsaved the object is still that context's (133010); once it is saved the
    /// object is gone from every context, a dangling reference (1550, the relationship's name as
    /// the key and the deleted object as the value), as Core Data's validation reports it.
    @Test(arguments: [false, true]) func aRelationshipToAnObjectDeletedElsewhereFailsTheSave(deletionSaved: Bool) async throws {
        let folder = try StackFolder()
        defer { folder.remove() }
        let (container, model, elsewhere) = try await Self.libraryWithAnotherContext(in: folder)
        let author = try elsewhere.performAndWait {
            let author = try Self.newAuthor(of: model, in: elsewhere)
            try elsewhere.save()
            return author
        }
        let context = container.newBackgroundContext()
        let book = try context.performAndWait {
            let book = try Self.newBook(of: model, in: context)
            book.setValue(author, forKey: "author")
            return book
        }
        try elsewhere.performAndWait {
            elsewhere.delete(author)
            if deletionSaved { try elsewhere.save() }
        }
        context.performAndWait {
            let error = ContextTestSupport.saveError(context)
            if deletionSaved {
                #expect(error?.code == 1550)
                #expect(error?.userInfo[NSValidationObjectErrorKey] as? ManagedObject === book)
                #expect(error?.userInfo[NSValidationKeyErrorKey] as? String == "author")
                #expect(error?.userInfo[NSValidationValueErrorKey] as? ManagedObject === author)
            } else {
                #expect(error?.code == 133010)
            }
        }
        #expect(try ContextTestSupport.rows(container, "SELECT Z_PK FROM ZPUBLICATION") == [])
        #expect(try ContextTestSupport.rows(container, "SELECT ZNAME FROM ZAUTHOR") == (deletionSaved ? [] : ["Ann"]))
    }

    /// A to-one without an inverse keeps pointing at a new object deleted before the save (no
    /// inverse takes the link back): the save fails with Core Data's 1550, "Dangling reference
    /// to an invalid object", and writes nothing, where the row would otherwise name no row.
    @Test func aLinkWithoutAnInverseToANewObjectDeletedBeforeTheSaveFailsIt() async throws {
        let folder = try StackFolder()
        defer { folder.remove() }
        let container = try await ObjectLifetimeTests.container(in: folder.url)
        let model = container.persistentStoreCoordinator.managedObjectModel
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let counter = ManagedObject(entity: try #require(model.entitiesByName["Counter"]), insertInto: context)
            let loan = ManagedObject(entity: try #require(model.entitiesByName["Loan"]), insertInto: context)
            loan.setValue(counter, forKey: "borrower")
            context.delete(counter)
            #expect(loan.value(forKey: "borrower") as? ManagedObject === counter)
            let error = ContextTestSupport.saveError(context)
            #expect(error?.code == 1550)
            #expect(error?.userInfo[NSValidationObjectErrorKey] as? ManagedObject === loan)
            #expect(error?.userInfo[NSValidationKeyErrorKey] as? String == "borrower")
        }
        #expect(try ContextTestSupport.rows(container, "SELECT COUNT(*) FROM ZLOAN") == ["0"])
        #expect(try ContextTestSupport.rows(container, "SELECT COUNT(*) FROM ZCOUNTER") == ["0"])
    }

    /// A Library store in `folder`, its model, and a background context other than the one the
    /// test saves in.
    private static func libraryWithAnotherContext(in folder: StackFolder) async throws -> (PersistentContainer, ManagedObjectModel, ManagedObjectContext) {
        let container = try await ContextTestSupport.container(in: folder.url)
        return (container, container.persistentStoreCoordinator.managedObjectModel, container.newBackgroundContext())
    }

    /// A new author named Ann in `context` (or in none).
    private static func newAuthor(of model: ManagedObjectModel, in context: ManagedObjectContext?) throws -> ManagedObject {
        let author = ManagedObject(entity: try #require(model.entitiesByName["Author"]), insertInto: context)
        author.setValue("Ann", forKey: "name")
        return author
    }

    /// A new book with the title and ISBN the model requires, in `context`.
    private static func newBook(of model: ManagedObjectModel, in context: ManagedObjectContext) throws -> ManagedObject {
        let book = ManagedObject(entity: try #require(model.entitiesByName["Book"]), insertInto: context)
        book.setValue("Title", forKey: "title")
        book.setValue("isbn-1", forKey: "isbn")
        return book
    }
}
