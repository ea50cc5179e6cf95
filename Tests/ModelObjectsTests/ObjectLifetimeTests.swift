import Foundation
import GRDB
import ModelObjects
import ModelStack
import Synchronization
import Testing
import _ModelTestSupport

/// How long objects live and what they keep: an object the app lets go leaves the context's table
/// (on the context's queue, whichever thread let it go) and is read again; a context has one
/// object per ID, whatever brings a second (an upsert, IDs of other coordinators' stores); a
/// context that goes leaves its objects without one; checked mode reports wrong-queue use and keeps it from racing;
/// unsaved values live in row slots and transient values outlive a save, and integers keep every
/// digit on their way to the column.
struct ObjectLifetimeTests {
    @Test func anObjectTheAppLetsGoLeavesTheContextAndIsReadAgain() async throws {
        let folder = try StackFolder()
        defer { folder.remove() }
        let container = try await Self.container(in: folder.url)
        let context = container.newBackgroundContext()
        let kept = try context.performAndWait {
            let id: ManagedObjectID = try {
                let object = ManagedObject(entity: Self.entity(container), insertInto: context)
                object.setValue(Int64(7), forKey: "count")
                try context.save()
                #expect(context.registeredObject(for: object.objectID) === object)
                return object.objectID
            }()
            // Saved and unchanged, held by nobody: gone from the table.
            #expect(context.registeredObject(for: id) == nil)
            #expect(context.registeredObjects.isEmpty)
            let again = try context.existingObject(with: id)
            #expect(again.value(forKey: "count") as? Int64 == 7)
            #expect(context.registeredObject(for: id) === again)

            // Retaining registered objects keeps them; turning it off lets them go.
            context.retainsRegisteredObjects = true
            _ = try context.fetch(FetchRequest<ManagedObject>(entityName: "Counter"))
            #expect(context.registeredObjects.count == 1)
            context.retainsRegisteredObjects = false
            #expect(context.registeredObject(for: id) === again)
            return again
        }
        // An ID of another store names nothing here, though its entity and key are those of an object here.
        let other = try await Self.container(in: folder.url.appendingPathComponent("other"))
        let foreign: ManagedObjectID = try other.viewContext.performAndWait {
            let object = ManagedObject(entity: Self.entity(other), insertInto: other.viewContext)
            try other.viewContext.save()
            return object.objectID
        }
        context.performAndWait {
            #expect(foreign.primaryKey == kept.objectID.primaryKey)
            #expect(context.registeredObject(for: foreign) == nil)
            #expect(context.registeredObject(for: kept.objectID) === kept)
        }
    }

    @Test func objectsOutliveTheirContextWithoutIt() async throws {
        let folder = try StackFolder()
        defer { folder.remove() }
        let container = try await Self.container(in: folder.url)
        var context: ManagedObjectContext? = container.newBackgroundContext()
        let object = try context!.performAndWait {
            let object = ManagedObject(entity: Self.entity(container), insertInto: context)
            try context!.save()
            return object
        }
        weak let gone = context
        context = nil
        #expect(gone == nil)
        #expect(object.managedObjectContext == nil)
    }

    /// Core Data's uniquing: "in a given managed object context, you never have more than one
    /// managed object to represent a given record" (Core Data Programming Guide, Faulting and
    /// Uniquing). So a new object that takes over the row of an object the app holds here (an
    /// upsert under a uniqueness constraint) leaves that object the context's one for the row, with
    /// the values the save wrote, and itself leaves the context, usable and inert; before, it
    /// overwrote the table's entry and the held object kept a dangling context (a use after free,
    /// or, with retained objects, an access conflict trap in the save).
    @Test(arguments: [false, true])
    func anUpsertKeepsTheObjectTheAppHoldsForTheRow(retainsObjects: Bool) async throws {
        let folder = try StackFolder()
        defer { folder.remove() }
        let container = try await UniquenessConstraintTests.container(in: folder.url)
        let stored = try UniquenessConstraintTests.insertTag("swift", uses: 1, in: container.newBackgroundContext(), container)
        weak var gone: ManagedObjectContext?
        let (held, new) = try {
            let context = container.newBackgroundContext()
            gone = context
            context.mergePolicy = .mergeByPropertyObjectTrump
            return try context.performAndWait {
            context.retainsRegisteredObjects = retainsObjects
            let held = try context.existingObject(with: stored)
            #expect(held.value(forKey: "uses") as? Int64 == 1)
            let new = ManagedObject(entity: UniquenessConstraintTests.entity(container), insertInto: context)
            new.setValue("swift", forKey: "name")
            new.setValue(Int64(2), forKey: "uses")
            try context.save()
            #expect(context.registeredObject(for: stored) === held)
            #expect(held.managedObjectContext === context && new.managedObjectContext == nil)
            #expect(held.value(forKey: "uses") as? Int64 == 2)
            #expect(new.objectID == stored && !new.hasChanges && new.value(forKey: "uses") as? Int64 == 2)
            // The one object for the row is the held one; the new one changes nothing any more.
            #expect(try context.fetch(FetchRequest<ManagedObject>(entityName: "Tag")).map { $0 === held } == [true])
            new.setValue(Int64(3), forKey: "uses")
            #expect(!context.hasChanges)
            held.setValue(Int64(4), forKey: "uses")
            try context.save()
            return (held, new)
            }
        }()
        #expect(try ContextTestSupport.rows(container, "SELECT ZNAME, ZUSES FROM ZTAG") == ["swift|4"])
        // Both outlive the context, and can be let go anywhere.
        #expect(gone == nil)
        #expect(held.managedObjectContext == nil && new.managedObjectContext == nil)
        #expect(held.value(forKey: "uses") as? Int64 == 4)
    }

    /// IDs of two other coordinators' stores with the same entity and primary key name two
    /// objects, each under its own ID; before, the second took the first's place in the table.
    /// Core Data's objects hold their related objects ("each object maintains a strong reference
    /// to the object or objects to which it is related", Core Data Programming Guide, Breaking
    /// Strong References Between Objects): a to-one read twice is one object though the app kept
    /// neither, until a refresh lets it go; the cycles this makes through an inverse to-many end
    /// with the context.
    @Test func anObjectHoldsWhatItsToOnesWereReadAs() async throws {
        let folder = try StackFolder()
        defer { folder.remove() }
        let container = try await ContextTestSupport.container(in: folder.url)
        var context: ManagedObjectContext? = container.newBackgroundContext()
        let model = container.persistentStoreCoordinator.managedObjectModel
        let (book, author) = (Unheld(), Unheld())
        try context!.performAndWait {
            let context = context!
            let writer = ManagedObject(entity: model.entitiesByName["Author"]!, insertInto: context)
            writer.setValue("Ursula", forKey: "name")
            for title in ["A", "B"] {
                let book = ManagedObject(entity: model.entitiesByName["Book"]!, insertInto: context)
                book.setValue(title, forKey: "title")
                book.setValue("isbn-\(title)", forKey: "isbn")
                book.setValue(writer, forKey: "author")
            }
            try context.save()
            context.reset()

            let books = try context.fetch(FetchRequest<ManagedObject>(entityName: "Book"))
            author.object = books[0].value(forKey: "author") as? ManagedObject
            #expect(author.object != nil, "the book holds the author it read")
            #expect(books[0].value(forKey: "author") as? ManagedObject === author.object)
            #expect(books[1].value(forKey: "author") as? ManagedObject === author.object)
            #expect(context.registeredObjects.count == 3)

            // Refreshed, the books let the author go, and the table with them.
            for book in books { context.refresh(book, mergeChanges: false) }
            #expect(context.registeredObjects.count == 2)
            #expect(author.object == nil)

            // Both ways read: a cycle, which only the context's end breaks.
            author.object = books[0].value(forKey: "author") as? ManagedObject
            #expect((author.object?.value(forKey: "publications") as? NSOrderedSet)?.count == 2)
            book.object = books[0]
        }
        #expect(author.object != nil && book.object != nil)
        context = nil
        #expect(author.object == nil, "the author the books held went with the context")
        #expect(book.object == nil)
    }

    /// An object with several to-ones holds each it read, whichever it read first.
    @Test func everyToOneReadIsHeld() async throws {
        let folder = try StackFolder()
        defer { folder.remove() }
        let (container, context, loans) = try await Self.loanStore(in: folder.url)
        try context.performAndWait {
            let loan = ManagedObject(entity: loans, insertInto: context)
            for key in ["lender", "borrower"] {
                loan.setValue(ManagedObject(entity: Self.entity(container), insertInto: context), forKey: key)
            }
            try context.save()
            context.reset()

            let (lender, borrower) = (Unheld(), Unheld())
            let fetched = try #require(try context.fetch(FetchRequest<ManagedObject>(entityName: "Loan")).first)
            lender.object = fetched.value(forKey: "lender") as? ManagedObject
            borrower.object = fetched.value(forKey: "borrower") as? ManagedObject
            #expect(lender.object != nil && borrower.object != nil && lender.object !== borrower.object)
            #expect(fetched.value(forKey: "lender") as? ManagedObject === lender.object)
            #expect(fetched.value(forKey: "borrower") as? ManagedObject === borrower.object)
            #expect(context.registeredObjects.count == 3)

            // A save that changes one to-one lets go of the object it held, and keeps the other.
            fetched.setValue(ManagedObject(entity: Self.entity(container), insertInto: context), forKey: "borrower")
            try context.save()
            #expect(context.registeredObjects.count == 2, "the loan and its lender: the new borrower was never read")
            #expect(lender.object != nil && borrower.object == nil)
            #expect(fetched.value(forKey: "lender") as? ManagedObject === lender.object)
            borrower.object = fetched.value(forKey: "borrower") as? ManagedObject
            #expect(borrower.object?.objectID.isTemporaryID == false)

            context.refresh(fetched, mergeChanges: false)
            #expect(context.registeredObjects.count == 1)
            #expect(lender.object == nil && borrower.object == nil)
        }
    }

    /// An object keeps the to-one it holds, its unsaved change, its transient value and the
    /// to-many it read whichever it gets first: the first three share one word of the object
    /// until it needs more than one, and then move into its extras, where the last always goes.
    @Test(arguments: Self.orders(of: ["hold", "change", "transient", "to-many"]))
    func aHeldToOneAChangeAndATransientAreKeptInAnyOrder(order: [String]) async throws {
        let folder = try StackFolder()
        defer { folder.remove() }
        let (container, context, loans) = try await Self.loanStore(in: folder.url)
        try context.performAndWait {
            let loan = ManagedObject(entity: loans, insertInto: context)
            loan.setValue(ManagedObject(entity: Self.entity(container), insertInto: context), forKey: "lender")
            loan.setValue(NSSet(object: ManagedObject(entity: Self.entity(container), insertInto: context)), forKey: "witnesses")
            try context.save()
            context.reset()

            let lender = Unheld()
            let fetched = try #require(try context.fetch(FetchRequest<ManagedObject>(entityName: "Loan")).first)
            for step in order {
                switch step {
                case "hold": lender.object = fetched.value(forKey: "lender") as? ManagedObject
                case "change": fetched.setValue("changed", forKey: "note")
                case "transient": fetched.setValue("marked", forKey: "mark")
                default: #expect((fetched.value(forKey: "witnesses") as? NSSet)?.count == 1)
                }
            }
            #expect(context.registeredObjects.count == 3, "the loan holds the lender it read")
            #expect(lender.object != nil)
            #expect(fetched.value(forKey: "lender") as? ManagedObject === lender.object)
            #expect(fetched.changedValues()["note"] as? String == "changed")
            #expect(fetched.isUpdated && fetched.value(forKey: "mark") as? String == "marked")

            try context.save()
            #expect(fetched.changedValues().isEmpty && !fetched.hasChanges)
            #expect(fetched.value(forKey: "note") as? String == "changed")
            #expect(fetched.value(forKey: "mark") as? String == "marked")
            #expect(context.registeredObjects.count == 3, "a save of other values keeps the lender held")
            #expect(lender.object != nil && fetched.value(forKey: "lender") as? ManagedObject === lender.object)

            fetched.setValue("again", forKey: "note")
            context.refresh(fetched, mergeChanges: false)
            #expect(context.registeredObjects.count == 1)
            #expect(lender.object == nil, "a refresh lets the held lender go")
            #expect(!fetched.hasChanges && fetched.value(forKey: "note") as? String == "changed")
        }
        let stored = try await container.database!.read { try String.fetchOne($0, sql: "SELECT ZNOTE FROM ZLOAN") }
        #expect(stored == "changed")
    }

    @Test func idsOfTwoForeignStoresNameTwoObjects() async throws {
        let folder = try StackFolder()
        defer { folder.remove() }
        let container = try await Self.container(in: folder.url)
        var foreign = [ManagedObjectID]()
        for name in ["first", "second"] {
            let other = try await Self.container(in: folder.url.appendingPathComponent(name))
            let context = other.newBackgroundContext()
            foreign.append(try context.performAndWait {
                let object = ManagedObject(entity: Self.entity(other), insertInto: context)
                try context.save()
                return object.objectID
            })
        }
        #expect(foreign[0].primaryKey == foreign[1].primaryKey && foreign[0] != foreign[1])
        let context = container.newBackgroundContext()
        context.performAndWait {
            let objects = foreign.map { context.object(with: $0) }
            #expect(objects[0] !== objects[1])
            #expect(objects.map { $0.objectID.uriRepresentation() } == foreign.map { $0.uriRepresentation() })
            #expect(context.registeredObject(for: foreign[0]) === objects[0])
            #expect(context.registeredObject(for: foreign[1]) === objects[1])
            #expect(context.object(with: foreign[0]) === objects[0])
            // Still no object of this coordinator's stores.
            for id in foreign { #expect(AffectedStoresTests.code { _ = try context.existingObject(with: id) } == 133000) }
        }
    }

    /// Objects handed out of `performAndWait` and let go by the caller's thread end on the
    /// context's queue (in a sweep of its table), never under the caller's hands, where they
    /// changed the context's table while its queue used it.
    @Test func objectsLetGoOffTheQueueEndOnIt() async throws {
        let folder = try StackFolder()
        defer { folder.remove() }
        let container = try await Self.container(in: folder.url)
        let context = container.newBackgroundContext()
        var objects: [ManagedObject]? = try Self.onQueue(context) {
            let entity = Self.entity(container)
            let made = (0..<50).map { _ in Probe(entity: entity, insertInto: context) }
            try context.save()
            return made
        }
        Probe.ends.withLock { $0 = [] }
        #expect(objects?.count == 50)
        objects = nil
        #expect(Probe.ends.withLock { $0 }.isEmpty)
        #expect(Self.onQueue(context) { context.registeredObjects.count } == 0)
        #expect(Probe.ends.withLock { $0 } == Array(repeating: true, count: 50))
    }

    /// Checked mode, modelc's `-com.apple.CoreData.ConcurrencyDebug 1`, in a process that turns it
    /// on: a fetch from off the context's queue throws 134060 naming the call, a read of an
    /// object's value there runs on the queue and gives the value, and each is reported on
    /// standard error; letting objects go there is allowed. With the mode off, nothing is reported.
    @Test func checkedModeReportsUseFromOffTheQueueAndKeepsItFromRacing() async throws {
        let folder = try StackFolder()
        defer { folder.remove() }
        _ = try await ContextTestSupport.container(in: folder.url)
        let store = folder.url.appendingPathComponent("Library.sqlite")
        let checked = try WorkerProcess(store: store, model: ContextTestSupport.library, environment: ["MODELC_CONCURRENCY_DEBUG": "1"])
        #expect(try checked.send("insert Author name=Ann")["ok"] as? Bool == true)
        #expect(try checked.send("save")["ok"] as? Bool == true)
        #expect(try checked.send("offqueue release Author")["count"] as? Int == 1)
        let fetch = try checked.send("offqueue fetch Author")
        #expect(fetch["ok"] as? Bool == false)
        #expect(fetch["code"] as? Int == 134060)
        let read = try checked.send("offqueue read Author")
        #expect(read["ok"] as? Bool == true)
        #expect(read["value"] as? String == "Ann")
        checked.finish()
        let ending = checked.ending()
        #expect(!ending.signaled)
        #expect(ending.errors.contains("modelc concurrency debug: ManagedObjectContext.fetch(_:)"))
        #expect(ending.errors.contains("modelc concurrency debug: ManagedObject.value(forKey:)"))
        let unchecked = try WorkerProcess(store: store, model: ContextTestSupport.library, environment: ["MODELC_CONCURRENCY_DEBUG": "0"])
        #expect(try unchecked.send("offqueue fetch Author")["count"] as? Int == 1)
        #expect(try unchecked.send("offqueue read Author")["ok"] as? Bool == true)
        unchecked.finish()
        #expect(!unchecked.ending().errors.contains("modelc concurrency debug"))
    }

    /// An app that wants Core Data's behaviour, where checked mode ends the process at the first
    /// wrong-queue use, sets a violation handler that ends it: the worker stops at the fetch,
    /// naming the call.
    @Test func aViolationHandlerCanEndTheProcess() async throws {
        let folder = try StackFolder()
        defer { folder.remove() }
        _ = try await ContextTestSupport.container(in: folder.url)
        let store = folder.url.appendingPathComponent("Library.sqlite")
        let stopping = try WorkerProcess(
            store: store, model: ContextTestSupport.library,
            environment: ["MODELC_CONCURRENCY_DEBUG": "1", "CONTEXT_WORKER_STOP_ON_VIOLATION": "1"])
        stopping.start("offqueue fetch Author")
        let answered = try? stopping.answer(for: "offqueue fetch", timeout: 60)
        #expect(answered == nil)
        if answered != nil { stopping.kill() }
        let ending = stopping.ending()
        #expect(ending.signaled)
        #expect(ending.errors.contains("modelc concurrency debug: ManagedObjectContext.fetch(_:)"))
    }

    /// In this process: the handler is given each violation, naming the call and the context, and
    /// a wrong-queue insert, read and `hasChanges` go on on the queue with their effect, while a
    /// save throws the violation's error and saves nothing.
    @Test(.enabled(if: ConcurrencyDebug.isEnabled)) func theHandlerIsGivenEachViolation() async throws {
        let folder = try StackFolder()
        defer { folder.remove() }
        let container = try await ContextTestSupport.container(in: folder.url)
        let context = container.newBackgroundContext()
        let name = "violations-\(UUID().uuidString)"
        context.name = name
        let seen = Mutex<[ConcurrencyViolation]>([])
        let previous = ConcurrencyDebug.violationHandler
        ConcurrencyDebug.violationHandler = { violation in
            if violation.contextName == name { seen.withLock { $0.append(violation) } } else { previous(violation) }
        }
        defer { ConcurrencyDebug.violationHandler = previous }
        let entity = try #require(container.persistentStoreCoordinator.managedObjectModel.entitiesByName["Author"])
        let author = ManagedObject(entity: entity, insertInto: nil)
        context.insert(author)
        author.setValue("Ann", forKey: "name")
        #expect(author.value(forKey: "name") as? String == "Ann")
        #expect(context.hasChanges)
        #expect(throws: (any Error).self) { try context.save() }
        do {
            try context.save()
        } catch let error as NSError {
            #expect(error.domain == NSCocoaErrorDomain && error.code == 134060)
            #expect((error.userInfo[ConcurrencyViolation.errorKey] as? String)?.contains("save()") == true)
        }
        let calls = seen.withLock { $0 }.map { "\($0.receiver).\($0.call)" }
        #expect(calls == [
            "ManagedObjectContext.insert(_:)", "ManagedObject.setValue(_:forKey:)", "ManagedObject.value(forKey:)",
            "ManagedObjectContext.hasChanges", "ManagedObjectContext.save()", "ManagedObjectContext.save()",
        ])
        #expect(seen.withLock { $0 }.allSatisfy { !$0.isMainQueue && $0.description.contains(name) })
        let stored = try ContextTestSupport.rows(container, "SELECT ZNAME FROM ZAUTHOR")
        #expect(stored.isEmpty)
        #expect(context.performAndWait { context.insertedObjects.count } == 1)
    }

    /// Runs `body` on `context`'s queue, marked so that a ``Probe`` ending there knows it.
    static func onQueue<T>(_ context: ManagedObjectContext, _ body: () throws -> T) rethrows -> T {
        try context.performAndWait {
            Thread.current.threadDictionary[Probe.marker] = true
            defer { Thread.current.threadDictionary[Probe.marker] = nil }
            return try body()
        }
    }

    /// An object that records, when it ends, whether it ended inside ``onQueue(_:_:)``.
    final class Probe: ManagedObject {
        static let marker = "ObjectLifetimeTests.onQueue"
        static let ends = Mutex<[Bool]>([])

        deinit {
            let onQueue = Thread.current.threadDictionary[Self.marker] != nil
            Self.ends.withLock { $0.append(onQueue) }
        }
    }

    @Test func transientValuesAndLargeIntegersSurviveASave() async throws {
        let folder = try StackFolder()
        defer { folder.remove() }
        let container = try await Self.container(in: folder.url)
        let context = container.newBackgroundContext()
        let large = Int64.max - 1  // not a double: 2^63 - 2 has no exact one
        let id = try context.performAndWait {
            let object = ManagedObject(entity: Self.entity(container), insertInto: context)
            #expect(object.value(forKey: "label") as? String == "new")
            #expect(object.changedValues()["count"] as? Int64 == 0)
            object.setValue(large, forKey: "count")
            object.setValue("kept", forKey: "label")
            // A transient is not among changedValues(), which lists persistent properties only.
            #expect(object.changedValues()["label"] == nil && object.hasChanges)
            try context.save()
            #expect(object.value(forKey: "label") as? String == "kept")
            #expect(object.changedValues().isEmpty)
            return object.objectID
        }
        let stored = try await container.database!.read { try Int64.fetchOne($0, sql: "SELECT ZCOUNT FROM ZCOUNTER") }
        #expect(stored == large)
        let reader = container.newBackgroundContext()
        try reader.performAndWait {
            let object = try reader.existingObject(with: id)
            #expect(object.value(forKey: "count") as? Int64 == large)
            #expect(object.value(forKey: "label") == nil)
        }
    }

    /// A fresh store's container, a background context of it, and the entity of loans.
    static func loanStore(in folder: URL) async throws -> (PersistentContainer, ManagedObjectContext, EntityDescription) {
        let container = try await container(in: folder)
        let loans = container.persistentStoreCoordinator.managedObjectModel.entitiesByName["Loan"]!
        return (container, container.newBackgroundContext(), loans)
    }

    /// Every order of `steps`.
    static func orders(of steps: [String]) -> [[String]] {
        guard steps.count > 1 else { return [steps] }
        return steps.indices.flatMap { index in
            var rest = steps
            let first = rest.remove(at: index)
            return orders(of: rest).map { [first] + $0 }
        }
    }

    /// Whatever `Z_OPT` a row holds, even one no count of saves reaches (a row written otherwise),
    /// its object's update finds the row at that version and leaves it one version further, the
    /// count wrapping around past the largest; and a conflict names the version read. An object
    /// keeps small versions in a field of 47 bits and larger ones apart: these sit at both ends.
    @Test(arguments: [1 << 46 - 1, 1 << 46, -(1 << 46) + 1, -(1 << 46), -1, .max, .min] as [Int64])
    func everyRowVersionIsWrittenBackExactly(version: Int64) async throws {
        let folder = try StackFolder()
        defer { folder.remove() }
        let container = try await Self.container(in: folder.url)
        let writer = container.newBackgroundContext()
        try writer.performAndWait {
            _ = ManagedObject(entity: Self.entity(container), insertInto: writer)
            try writer.save()
        }
        try await container.database!.write { try $0.execute(sql: "UPDATE ZCOUNTER SET Z_OPT = ?", arguments: [version]) }
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let counter = try #require(try context.fetch(FetchRequest<ManagedObject>(entityName: "Counter")).first)
            counter.setValue(Int64(2), forKey: "count")
            try context.save()
            counter.setValue(Int64(3), forKey: "count")
        }
        let saved = try await container.database!.read { try Int64.fetchOne($0, sql: "SELECT Z_OPT FROM ZCOUNTER") }
        #expect(saved == version &+ 1)

        try await container.database!.write { try $0.execute(sql: "UPDATE ZCOUNTER SET Z_OPT = ?", arguments: [version]) }
        let error = context.performAndWait { ContextTestSupport.saveError(context) }
        #expect(error?.code == 133020)
        let conflict = (error?.userInfo[NSPersistentStoreSaveConflictsErrorKey] as? [MergeConflict])?.first
        #expect(conflict?.oldVersionNumber == Int(version &+ 1) && conflict?.newVersionNumber == Int(version))
    }

    /// An object a test watches without holding it.
    final class Unheld { weak var object: ManagedObject? }

    static func entity(_ container: PersistentContainer) -> EntityDescription {
        container.persistentStoreCoordinator.managedObjectModel.entitiesByName["Counter"]!
    }

    static func container(in folder: URL) async throws -> PersistentContainer {
        let bundle = folder.appendingPathComponent("Counters.xcdatamodeld")
        let version = bundle.appendingPathComponent("Counters.xcdatamodel")
        try FileManager.default.createDirectory(at: version, withIntermediateDirectories: true)
        try Data("""
            <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
            <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" lastSavedToolsVersion="22758" systemVersion="23E224" minimumToolsVersion="Automatic" sourceLanguage="Swift" userDefinedModelVersionIdentifier="">
                <entity name="Counter" representedClassName="Counter" syncable="YES" codeGenerationType="class">
                    <attribute name="count" optional="YES" attributeType="Integer 64" defaultValueString="0" usesScalarValueType="YES"/>
                    <attribute name="label" optional="YES" transient="YES" attributeType="String" defaultValueString="new"/>
                </entity>
                <entity name="Loan" representedClassName="Loan" syncable="YES" codeGenerationType="class">
                    <attribute name="mark" optional="YES" transient="YES" attributeType="String"/>
                    <attribute name="note" optional="YES" attributeType="String"/>
                    <relationship name="borrower" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Counter"/>
                    <relationship name="lender" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Counter"/>
                    <relationship name="witnesses" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Counter"/>
                </entity>
            </model>
            """.utf8).write(to: version.appendingPathComponent("contents"))
        let container = try PersistentContainer(name: "Counters", model: bundle)
        container.persistentStoreDescriptions = [StoreDescription(url: folder.appendingPathComponent("Counters.sqlite"))]
        try await container.loadPersistentStores()
        return container
    }
}
