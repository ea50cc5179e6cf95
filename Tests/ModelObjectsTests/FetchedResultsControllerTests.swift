import Foundation
import ModelObjects
import ModelStack
import Testing
import _ModelTestSupport

/// The fetched results controller (`NSFetchedResultsController`): sections, index paths and the
/// section index of a fetch, and the delegate's callbacks for each way a change reaches the
/// context. Expected callbacks follow Apple's documentation of NSFetchedResultsControllerDelegate:
/// `controllerWillChangeContent(_:)` before and `controllerDidChangeContent(_:)` after all the
/// object and section callbacks of one change event; the object callback's `indexPath` is nil
/// for an insertion and its `newIndexPath` nil for a deletion; a move carries both; an object
/// whose section key changes moves between sections, and a section that empties is deleted
/// (its info then holds no object) while one that appears is inserted (CoreDataPlus's
/// FetchedResultsChanges_Tests.test_SectionsChanges, run on Apple platforms). The object
/// callbacks of one event are compared as a set: their order among themselves is not documented.
struct FetchedResultsControllerTests {
    typealias Support = ContextTestSupport

    /// Records the delegate's callbacks as text: `will`, `did`, `name type old>new` (paths as
    /// `section.item`, `-` for nil), `section name type index count`.
    final class Recorder: NSObject, FetchedResultsControllerDelegate {
        enum Raw {
            case object(ObjectIdentifier, IndexPath?, FetchedResultsChangeType, IndexPath?)
            case section(Int, FetchedResultsChangeType)
        }

        var events: [String] = [] {
            didSet { if events.isEmpty { rawEvents = [] } }
        }
        var rawEvents: [Raw] = []
        /// The controllers handed to will-change and did-change, weakly.
        var handed: [AnyObject] { handedControllers.compactMap(\.controller) }
        private var handedControllers: [WeakController] = []
        struct WeakController { weak var controller: FetchedResultsController<any FetchRequestResult>? }

        func controllerWillChangeContent(_ controller: FetchedResultsController<any FetchRequestResult>) {
            events.append("will")
            handedControllers.append(WeakController(controller: controller))
        }
        func controllerDidChangeContent(_ controller: FetchedResultsController<any FetchRequestResult>) {
            events.append("did")
            handedControllers.append(WeakController(controller: controller))
        }
        func controller(_ controller: FetchedResultsController<any FetchRequestResult>, didChange anObject: Any, at indexPath: IndexPath?,
                        for type: FetchedResultsChangeType, newIndexPath: IndexPath?) {
            let name = (anObject as? ManagedObject)?.value(forKey: "name") as? String ?? "?"
            events.append("\(name) \(type) \(Self.text(indexPath))>\(Self.text(newIndexPath))")
            if let object = anObject as? ManagedObject { rawEvents.append(.object(ObjectIdentifier(object), indexPath, type, newIndexPath)) }
        }
        func controller(_ controller: FetchedResultsController<any FetchRequestResult>, didChange sectionInfo: any FetchedResultsSectionInfo,
                        atSectionIndex sectionIndex: Int, for type: FetchedResultsChangeType) {
            events.append("section \(sectionInfo.name) \(type) \(sectionIndex) \(sectionInfo.numberOfObjects)")
            rawEvents.append(.section(sectionIndex, type))
        }

        static func text(_ path: IndexPath?) -> String { path.map { "\($0.section).\($0.item)" } ?? "-" }

        /// The callbacks of one change event, checked to open with will-change and close with
        /// did-change; what lies between, sorted. Clears the record.
        func event(sourceLocation: SourceLocation = #_sourceLocation) -> [String] {
            defer { events = [] }
            #expect(events.first == "will" && events.last == "did" && events.filter { $0 == "will" }.count == 1, "\(events)", sourceLocation: sourceLocation)
            return events.filter { $0 != "will" && $0 != "did" }.sorted()
        }
    }

    /// A difference delegate (one implementing controller(_:didChangeContentWith:)): records the
    /// differences it is sent, and any other callback.
    final class DifferenceRecorder: NSObject, FetchedResultsControllerDelegate {
        var differences: [CollectionDifference<ManagedObjectID>] = []
        var others = 0

        func controllerWillChangeContent(_ controller: FetchedResultsController<any FetchRequestResult>) { others += 1 }
        func controllerDidChangeContent(_ controller: FetchedResultsController<any FetchRequestResult>) { others += 1 }
        func controller(_ controller: FetchedResultsController<any FetchRequestResult>, didChangeContentWith diff: CollectionDifference<ManagedObjectID>) {
            differences.append(diff)
        }
    }

    /// Saves authors (name, email) in a new background context of `container`.
    static func saveAuthors(_ authors: [(String, String)], in container: PersistentContainer) throws {
        let context = container.newBackgroundContext()
        try context.performAndWait {
            for (name, email) in authors { author(name, email, in: context) }
            try context.save()
        }
    }

    @discardableResult
    static func author(_ name: String, _ email: String, in context: ManagedObjectContext) -> ManagedObject {
        let author = ManagedObject(entity: context.persistentStoreCoordinator!.managedObjectModel.entitiesByName["Author"]!, insertInto: context)
        author.setValue(name, forKey: "name")
        author.setValue(email, forKey: "email")
        return author
    }

    /// A fetched controller of the authors in `context` that `predicate` accepts, by name, or in
    /// sections by email.
    static func controller(
        _ context: ManagedObjectContext, sections: Bool = false, predicate: FetchPredicate? = nil, delegate: (any FetchedResultsControllerDelegate)?
    ) throws -> FetchedResultsController<ManagedObject> {
        let request = FetchRequest<ManagedObject>(entityName: "Author")
        request.predicate = predicate
        request.sortDescriptors = (sections ? [FetchSortDescriptor(key: "email")] : []) + [FetchSortDescriptor(key: "name")]
        let controller = FetchedResultsController(fetchRequest: request, managedObjectContext: context,
                                                  sectionNameKeyPath: sections ? "email" : nil, cacheName: "ignored")
        controller.delegate = delegate
        try controller.performFetch()
        return controller
    }

    struct Step: Equatable {
        var offset: Int
        var id: ManagedObjectID
    }

    /// A step of a difference, its offset and object ID.
    static func step(_ change: CollectionDifference<ManagedObjectID>.Change) -> Step {
        switch change {
        case .insert(let offset, let id, _), .remove(let offset, let id, _): Step(offset: offset, id: id)
        }
    }

    /// The objects of each of `controller`'s sections, by identity.
    static func identities(_ controller: FetchedResultsController<ManagedObject>) -> [[ObjectIdentifier]] {
        (controller.sections ?? []).map { ($0.objects as? [ManagedObject] ?? []).map(ObjectIdentifier.init) }
    }

    static func names(_ objects: [ManagedObject]?) -> [String] { (objects ?? []).map { $0.value(forKey: "name") as? String ?? "?" } }

    /// Sections, index paths and the section index of a fetched set: one section per email, in
    /// order; index titles are each section name's capitalized first letter (Apple's
    /// sectionIndexTitle(forSectionName:) and sectionIndexTitles documentation).
    @Test func sectionsIndexPathsAndSectionIndexOfAFetchedSet() async throws {
        let container = try await Support.container(in: nil)
        try Self.saveAuthors([("Dan", "gamma"), ("Bob", "alpha"), ("Cid", "beta"), ("Ann", "alpha")], in: container)
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let controller = try Self.controller(context, sections: true, delegate: nil)
            let sections = try #require(controller.sections)
            #expect(sections.map(\.name) == ["alpha", "beta", "gamma"])
            #expect(sections.map(\.numberOfObjects) == [2, 1, 1])
            #expect(sections.map(\.indexTitle) == ["A", "B", "G"])
            #expect(Self.names(sections[0].objects as? [ManagedObject]) == ["Ann", "Bob"])
            #expect(Self.names(controller.fetchedObjects) == ["Ann", "Bob", "Cid", "Dan"])
            #expect(controller.sectionIndexTitles == ["A", "B", "G"])
            #expect(controller.section(forSectionIndexTitle: "G", at: 2) == 2)
            #expect(controller.sectionIndexTitle(forSectionName: "delta") == "D")
            let bob = controller.object(at: IndexPath(item: 1, section: 0))
            #expect(bob.value(forKey: "name") as? String == "Bob")
            let dan = try #require(controller.fetchedObjects?.last)
            #expect(controller.indexPath(forObject: dan) == IndexPath(item: 0, section: 2))
            let stranger = Self.author("Eve", "x", in: context)
            #expect(controller.indexPath(forObject: stranger) == nil)
        }
    }

    /// A request without sort descriptors, or whose first one does not sort by the section key,
    /// fails to fetch (Apple's performFetch(): "the fetch request must include a sort descriptor
    /// for the corresponding key path; otherwise, the fetch fails").
    @Test func aFetchWithoutTheSortDescriptorsItNeedsFails() async throws {
        let container = try await Support.container(in: nil)
        let context = container.newBackgroundContext()
        context.performAndWait {
            let unsorted = FetchedResultsController(fetchRequest: FetchRequest<ManagedObject>(entityName: "Author"), managedObjectContext: context,
                                                    sectionNameKeyPath: nil, cacheName: nil)
            #expect(throws: (any Error).self) { try unsorted.performFetch() }
            let request = FetchRequest<ManagedObject>(entityName: "Author")
            request.sortDescriptors = [FetchSortDescriptor(key: "name")]
            let sectioned = FetchedResultsController(fetchRequest: request, managedObjectContext: context, sectionNameKeyPath: "email", cacheName: nil)
            #expect((try? sectioned.performFetch()) == nil)
            #expect(sectioned.fetchedObjects == nil)
            // Object ID results are not offered: the fetch fails rather than finding nothing.
            let ids = FetchRequest<ManagedObjectID>(entityName: "Author")
            ids.sortDescriptors = [FetchSortDescriptor(key: "name")]
            let identifiers = FetchedResultsController(fetchRequest: ids, managedObjectContext: context, sectionNameKeyPath: nil, cacheName: nil)
            #expect(throws: (any Error).self) { try identifiers.performFetch() }
        }
    }

    /// Changes made and saved in the controller's own context: a deletion, an insertion and an
    /// update of a property that does not sort, in one event.
    @Test func aSaveInTheSameContextIsReported() async throws {
        let container = try await Support.container(in: nil)
        try Self.saveAuthors([("Ann", "a"), ("Cid", "c")], in: container)
        let context = container.newBackgroundContext()
        let recorder = Recorder()
        try context.performAndWait {
            let controller = try Self.controller(context, delegate: recorder)
            let (ann, cid) = (controller.object(at: IndexPath(item: 0, section: 0)), controller.object(at: IndexPath(item: 1, section: 0)))
            context.delete(ann)
            Self.author("Bob", "b", in: context)
            cid.setValue("c2", forKey: "email")
            try context.save()
            #expect(recorder.event() == ["Ann delete 0.0>-", "Bob insert ->0.0", "Cid update 0.1>0.1"])
            #expect(Self.names(controller.fetchedObjects) == ["Bob", "Cid"])
        }
    }

    /// A background context's save merged in, by automaticallyMergesChangesFromParent and by
    /// mergeChanges(fromContextDidSave:): an insertion, and a rename that moves an object.
    @Test func aBackgroundSaveMergedInIsReported() async throws {
        let container = try await Support.container(in: nil)
        try Self.saveAuthors([("Ann", "a"), ("Cid", "c")], in: container)
        let view = container.newBackgroundContext()
        view.automaticallyMergesChangesFromParent = true
        let recorder = Recorder()
        let controller = try view.performAndWait { try Self.controller(view, delegate: recorder) }
        let writer = container.newBackgroundContext()
        try writer.performAndWait {
            Self.author("Bob", "b", in: writer)
            let request = FetchRequest<ManagedObject>(entityName: "Author")
            request.predicate = FetchPredicate(format: "name == %@", "Cid")
            try writer.fetch(request).first?.setValue("Abe", forKey: "name")
            try writer.save()
        }
        view.performAndWait {
            #expect(recorder.event() == ["Abe move 0.1>0.0", "Bob insert ->0.2"])
            #expect(Self.names(controller.fetchedObjects) == ["Abe", "Ann", "Bob"])
        }
        // The same by hand: mergeChanges(fromContextDidSave:) with the writer's did-save.
        view.automaticallyMergesChangesFromParent = false
        let saved = NotificationRecorder(ManagedObjectContext.didSaveObjectsNotification, of: writer)
        try writer.performAndWait {
            Self.author("Aaron", "a", in: writer)
            try writer.save()
        }
        let note = try #require(saved.notifications.first)
        view.performAndWait {
            view.mergeChanges(fromContextDidSave: note)
            #expect(recorder.event() == ["Aaron insert ->0.0"])
        }
    }

    /// Another process's save, read through persistent history and merged with
    /// mergeChanges(fromRemoteContextSave:into:), as TwoProcessTests does: a rename that moves.
    @Test func anotherProcessSaveMergedThroughHistoryIsReported() async throws {
        let folder = try StackFolder()
        defer { folder.remove() }
        let container = try await RemoteChangeTests.container(in: folder.url, remote: false)
        try Self.saveAuthors([("Alice", "a"), ("Bob", "b")], in: container)
        let view = container.newBackgroundContext()
        let recorder = Recorder()
        let (controller, alice) = try view.performAndWait {
            let controller = try Self.controller(view, delegate: recorder)
            return (controller, controller.object(at: IndexPath(item: 0, section: 0)).objectID)
        }
        let history = container.newBackgroundContext()
        let lastToken = try history.performAndWait { try history.execute(HistoryChangeRequest.fetchHistory(after: nil as HistoryToken?)).transactions.last?.token }

        let worker = try WorkerProcess(store: folder.url.appendingPathComponent("Library.sqlite"), model: Support.library)
        defer { worker.finish() }
        #expect(try worker.send("get \(alice.uriRepresentation().absoluteString)")["ok"] as? Bool == true)
        #expect(try worker.send("set \(alice.uriRepresentation().absoluteString) name=Zed")["ok"] as? Bool == true)
        #expect(try worker.send("save")["ok"] as? Bool == true)

        let transactions = try history.performAndWait { try history.execute(HistoryChangeRequest.fetchHistory(after: lastToken)).transactions }
        #expect(transactions.map(\.processID) == ["ContextWorker"])
        for transaction in transactions {
            ManagedObjectContext.mergeChanges(fromRemoteContextSave: transaction.objectIDNotification().userInfo ?? [:], into: [view])
        }
        view.performAndWait {
            #expect(recorder.event() == ["Zed move 0.0>0.1"])
            #expect(Self.names(controller.fetchedObjects) == ["Bob", "Zed"])
        }
    }

    /// A batch delete's IDs merged in with mergeChanges(fromRemoteContextSave:into:) (Apple's
    /// pattern for batch requests): the deleted objects leave the results.
    @Test func aBatchDeleteMergedInIsReported() async throws {
        let container = try await Support.container(in: nil)
        try Self.saveAuthors([("Ann", "a"), ("Bob", "b"), ("Cid", "c")], in: container)
        let view = container.newBackgroundContext()
        let recorder = Recorder()
        let controller = try view.performAndWait { try Self.controller(view, delegate: recorder) }
        let worker = container.newBackgroundContext()
        let deleted = try worker.performAndWait {
            let request = FetchRequest<ManagedObject>(entityName: "Author")
            request.predicate = FetchPredicate(format: "name != %@", "Bob")
            let delete = BatchDeleteRequest(fetchRequest: request)
            delete.resultType = .objectIDs
            return try worker.execute(delete).result as? [ManagedObjectID] ?? []
        }
        #expect(deleted.count == 2)
        ManagedObjectContext.mergeChanges(fromRemoteContextSave: [NSDeletedObjectsKey: deleted], into: [view])
        view.performAndWait {
            #expect(recorder.event() == ["Ann delete 0.0>-", "Cid delete 0.2>-"])
            #expect(Self.names(controller.fetchedObjects) == ["Bob"])
        }
    }

    /// A change of the section key moves the object between sections: the section it empties
    /// is deleted (at its old index, with no object left), a section it starts is inserted (at
    /// its new index).
    @Test func aSectionKeyChangeMovesBetweenSections() async throws {
        let container = try await Support.container(in: nil)
        try Self.saveAuthors([("Ann", "alpha"), ("Bob", "alpha"), ("Cid", "beta")], in: container)
        let context = container.newBackgroundContext()
        let recorder = Recorder()
        let controller = try context.performAndWait { try Self.controller(context, sections: true, delegate: recorder) }
        context.performAndWait {
            controller.object(at: IndexPath(item: 0, section: 1)).setValue("alpha", forKey: "email")
        }
        context.performAndWait {
            #expect(recorder.event() == ["Cid move 1.0>0.2", "section beta delete 1 0"])
            #expect(controller.sections?.map(\.name) == ["alpha"])
            controller.object(at: IndexPath(item: 0, section: 0)).setValue("delta", forKey: "email")
        }
        context.performAndWait {
            #expect(recorder.event() == ["Ann move 0.0>1.0", "section delta insert 1 1"])
            #expect(controller.sections?.map(\.name) == ["alpha", "delta"])
            #expect(controller.sectionIndexTitles == ["A", "D"])
        }
    }

    /// The difference form: a delegate that implements controller(_:didChangeContentWith:) gets
    /// each event as one difference of object IDs, and no other callback ("If this method is
    /// implemented, no other delegate methods are invoked"); it is sent only without sections
    /// ("only invoked if the controller's sectionNameKeyPath property is nil").
    @Test func aDifferenceDelegateGetsOneDifferencePerEvent() async throws {
        let container = try await Support.container(in: nil)
        try Self.saveAuthors([("Ann", "a"), ("Cid", "c")], in: container)
        let context = container.newBackgroundContext()
        let recorder = DifferenceRecorder()
        try context.performAndWait {
            let controller = try Self.controller(context, delegate: recorder)
            let ann = controller.object(at: IndexPath(item: 0, section: 0))
            let annID = ann.objectID
            context.delete(ann)
            let bob = Self.author("Bob", "b", in: context)
            context.processPendingChanges()
            #expect(recorder.others == 0)
            #expect(recorder.differences.count == 1)
            let difference = try #require(recorder.differences.first)
            #expect(difference.removals.map(Self.step) == [.init(offset: 0, id: annID)])
            #expect(difference.insertions.map(Self.step) == [.init(offset: 0, id: bob.objectID)])
            #expect(Self.names(controller.fetchedObjects) == ["Bob", "Cid"])
            #expect([annID, controller.fetchedObjects![1].objectID].applying(difference) == controller.fetchedObjects!.map(\.objectID))

            // With sections, the other callbacks are sent instead.
            let sectioned = try Self.controller(context, sections: true, delegate: recorder)
            Self.author("Dan", "d", in: context)
            context.processPendingChanges()
            #expect(recorder.differences.count == 2 && recorder.others == 2)
            #expect(sectioned.sections?.count == 3)
        }
    }

    /// A delegate written as on Apple platforms (an NSObject whose methods take the erased
    /// controller) is handed a controller equal to the app's (NSObject `==`, as Core Data hands the
    /// delegate the controller itself: "controller: The fetched results controller that sent the
    /// message", NSFetchedResultsControllerDelegate documentation); the erased controller shares the
    /// results, and neither keeps the other alive once the app lets go of its controller.
    @Test func theDelegateIsHandedTheAppsControllerWhichItDoesNotKeepAlive() async throws {
        final class Follower: NSObject, FetchedResultsControllerDelegate {
            weak var followed: FetchedResultsController<ManagedObject>?
            weak var handed: FetchedResultsController<any FetchRequestResult>?
            var same: [Bool] = []
            var handedCount: Int?
            func controllerDidChangeContent(_ controller: FetchedResultsController<any FetchRequestResult>) {
                same.append(followed.map { controller == $0 && controller.hash == $0.hash } ?? false)
                handedCount = controller.fetchedObjects?.count
                handed = controller
            }
        }
        let container = try await Support.container(in: nil)
        try Self.saveAuthors([("Ann", "a")], in: container)
        let context = container.newBackgroundContext()
        let follower = Follower()
        try context.performAndWait {
            var controller: FetchedResultsController<ManagedObject>? = try Self.controller(context, delegate: follower)
            follower.followed = controller
            Self.author("Bob", "b", in: context)
            context.processPendingChanges()
            #expect(follower.same == [true])
            #expect(follower.handedCount == 2)
            #expect(follower.handed != nil)
            #expect(controller?.isEqual(try Self.controller(context, delegate: nil)) == false)
            controller = nil
            #expect(follower.followed == nil)
            #expect(follower.handed == nil)
            Self.author("Cid", "c", in: context)
            context.processPendingChanges()
            #expect(follower.same == [true])
        }
    }

    /// A controller of the erased type itself (as made from `NSManagedObject.fetchRequest()`, an
    /// `NSFetchRequest<NSFetchRequestResult>`) hands its delegate itself (Apple's "controller: The
    /// fetched results controller that sent the message").
    @Test func aControllerOfTheErasedTypeHandsItself() async throws {
        let container = try await Support.container(in: nil)
        try Self.saveAuthors([("Ann", "a")], in: container)
        let context = container.newBackgroundContext()
        let recorder = Recorder()
        try context.performAndWait {
            let request = FetchRequest<any FetchRequestResult>(entityName: "Author")
            request.sortDescriptors = [FetchSortDescriptor(key: "name")]
            let controller = FetchedResultsController(fetchRequest: request, managedObjectContext: context, sectionNameKeyPath: nil, cacheName: nil)
            controller.delegate = recorder
            try controller.performFetch()
            #expect(controller.fetchedObjects?.count == 1)
            Self.author("Bob", "b", in: context)
            context.processPendingChanges()
            #expect(recorder.event() == ["Bob insert ->0.1"])
            #expect(recorder.handed.count == 2 && recorder.handed.allSatisfy { $0 === controller })
            #expect((controller.object(at: IndexPath(item: 1, section: 0)) as? ManagedObject)?.value(forKey: "name") as? String == "Bob")
        }
    }

    /// Unsaved objects changed again: an object changed a second time before the save, and a new
    /// object deleted after its insertion was reported, are reported again (the controller shows
    /// the context's in-memory state: Apple's fetchedObjects documentation, "The results array
    /// reflects the in-memory state of managed objects in the controller's managed object
    /// context"; it learns of changes from objects-did-change, Apple's managedObjectContext
    /// documentation: "The controller registers to listen to change notifications on this context").
    @Test func unsavedObjectsChangedAgainAreReportedAgain() async throws {
        let container = try await Support.container(in: nil)
        try Self.saveAuthors([("Bob", "b"), ("Dan", "d")], in: container)
        let context = container.newBackgroundContext()
        let recorder = Recorder()
        let controller = try context.performAndWait { try Self.controller(context, delegate: recorder) }
        let (bob, new) = context.performAndWait {
            let bob = controller.object(at: IndexPath(item: 0, section: 0))
            bob.setValue("Cid", forKey: "name")
            return (bob, Self.author("Ann", "a", in: context))
        }
        context.performAndWait {
            #expect(recorder.event() == ["Ann insert ->0.0", "Cid move 0.0>0.1"])
            bob.setValue("Eve", forKey: "name")
            new.setValue("Fay", forKey: "name")
        }
        context.performAndWait {
            // Eve keeps her index path but passes Dan, whom Fay's move brings forward: a move.
            #expect(recorder.event() == ["Eve move 0.1>0.1", "Fay move 0.0>0.2"])
            #expect(Self.names(controller.fetchedObjects) == ["Dan", "Eve", "Fay"])
            context.delete(new)
        }
        context.performAndWait {
            #expect(recorder.event() == ["Fay delete 0.2>-"])
            #expect(Self.names(controller.fetchedObjects) == ["Dan", "Eve"])
        }
    }

    /// A change of a sort key is a move even where the object keeps its index path, as Core Data
    /// reports it since iOS 9 (the move "with same indexes" that DTModelStorage and CoreDataStack
    /// learnt to handle). Only a move is right for a table: here Cid keeps index 1 while Ann's
    /// deletion carries Dan ahead of him, and as an update his row would stay before Dan's.
    @Test func aSortKeyChangeIsAMoveWhereTheIndexPathStays() async throws {
        let container = try await Support.container(in: nil)
        try Self.saveAuthors([("Ann", "a"), ("Cid", "c"), ("Dan", "d")], in: container)
        let context = container.newBackgroundContext()
        let recorder = Recorder(), differences = DifferenceRecorder()
        let (controller, other, before) = try context.performAndWait {
            let other = try Self.controller(context, delegate: differences)
            return (try Self.controller(context, delegate: recorder), other, other.fetchedObjects!.map(\.objectID))
        }
        context.performAndWait {
            let (ann, cid) = (controller.object(at: IndexPath(item: 0, section: 0)), controller.object(at: IndexPath(item: 1, section: 0)))
            context.delete(ann)
            cid.setValue("Eve", forKey: "name")
        }
        context.performAndWait {
            #expect(recorder.event() == ["Ann delete 0.0>-", "Eve move 0.1>0.1"])
            #expect(Self.names(controller.fetchedObjects) == ["Dan", "Eve"])
            // The difference form says the same: applied to the IDs before, it gives those after.
            #expect(differences.differences.count == 1)
            #expect(differences.differences.first.flatMap(before.applying) == other.fetchedObjects!.map(\.objectID))
            // Alone, a rename that passes nobody is a move to the same index path too.
            controller.object(at: IndexPath(item: 1, section: 0)).setValue("Fay", forKey: "name")
        }
        context.performAndWait {
            #expect(recorder.event() == ["Fay move 0.1>0.1"])
        }
    }

    /// Many changes to a large result set (thousands of objects in a few sections, so that objects
    /// are placed into long sections and sections come and go): after each event the results are
    /// those a new fetch returns, in its order, and every delegate callback was consistent with
    /// a table applying them (Apple's fetchedObjects documentation: "The results array reflects
    /// the in-memory state of managed objects in the controller's managed object context").
    @Test func manyChangesKeepTheResultsThoseOfANewFetch() async throws {
        let container = try await Support.container(in: nil)
        var generator = TestSeed.generator(for: "FetchedResultsControllerTests.manyChanges")
        let letters = "abc".map(String.init)
        // Names are unique, so that the order of a new fetch is the only one.
        var used = Set<Int>()
        let name = { (generator: inout SeededGenerator) -> String in
            var number = Int.random(in: 0..<1_000_000, using: &generator)
            while !used.insert(number).inserted { number = Int.random(in: 0..<1_000_000, using: &generator) }
            return String(format: "n%06d", number)
        }
        var authors = [(String, String)]()
        for _ in 0..<2400 { authors.append((name(&generator), letters.randomElement(using: &generator)!)) }
        try Self.saveAuthors(authors, in: container)
        let context = container.newBackgroundContext()
        let recorder = Recorder(), differences = DifferenceRecorder(), filteredRecorder = Recorder()
        try context.performAndWait {
            let controller = try Self.controller(context, sections: true, delegate: recorder)
            // Beside it, a controller without sections whose delegate takes differences, and one
            // whose predicate objects enter and leave as their emails change.
            let flat = try Self.controller(context, delegate: differences)
            let filtered = try Self.controller(
                context, sections: true, predicate: FetchPredicate(format: "email BEGINSWITH %@ OR email == %@", "a", "cx"), delegate: filteredRecorder)
            let request = controller.fetchRequest
            for _ in 0..<25 {
                var before = Self.identities(controller)
                var filteredBefore = Self.identities(filtered)
                filteredRecorder.events = []
                let flatBefore = flat.fetchedObjects?.map(\.objectID) ?? []
                differences.differences = []
                let objects = controller.fetchedObjects ?? []
                for _ in 0..<Int.random(in: 1...6, using: &generator) {
                    let object = objects.randomElement(using: &generator)!
                    switch Int.random(in: 0..<4, using: &generator) {
                    case 0: object.setValue(name(&generator), forKey: "name")
                    case 1: object.setValue(letters.randomElement(using: &generator)! + "x", forKey: "email")
                    case 2: context.delete(object)
                    default: Self.author(name(&generator), letters.randomElement(using: &generator)!, in: context)
                    }
                }
                recorder.events = []
                context.processPendingChanges()
                let fresh = try context.fetch(request)
                let mine = Self.names(controller.fetchedObjects), theirs = Self.names(fresh)
                let mismatch = zip(mine, theirs).enumerated().first { $0.element.0 != $0.element.1 }
                #expect(mine.count == theirs.count && mismatch == nil, "first difference \(String(describing: mismatch)) of \(mine.count)/\(theirs.count)")
                let grouped = Dictionary(grouping: fresh) { $0.value(forKey: "email") as? String ?? "" }
                #expect(controller.sections?.map(\.name) == grouped.keys.sorted())
                for (index, object) in fresh.enumerated() where index % 97 == 0 {
                    let path = try #require(controller.indexPath(forObject: object))
                    #expect(controller.object(at: path) === object)
                }
                // The callbacks, applied as a table applies them, turn the old sections into the new.
                before = Self.apply(recorder.rawEvents, to: before)
                #expect(before == Self.identities(controller), "the callbacks do not turn the old sections into the new")
                // The difference, applied to the IDs before, gives those after, in a new fetch's order.
                #expect(differences.differences.count <= 1 && differences.others == 0)
                let flatAfter = flat.fetchedObjects?.map(\.objectID) ?? []
                #expect(differences.differences.reduce(flatBefore) { $0.applying($1) ?? [] } == flatAfter)
                #expect(Self.names(flat.fetchedObjects) == Self.names(fresh).sorted())
                // The filtered controller: its results are a new fetch's, and its callbacks turn
                // its old sections into the new.
                #expect(Self.names(filtered.fetchedObjects) == Self.names(try context.fetch(filtered.fetchRequest)))
                filteredBefore = Self.apply(filteredRecorder.rawEvents, to: filteredBefore)
                #expect(filteredBefore == Self.identities(filtered))
            }
        }
    }

    /// `sections` after a table's batch update with `events`: rows and sections removed at their
    /// old places (highest first), then sections and rows inserted at their new places (lowest first).
    static func apply(_ events: [Recorder.Raw], to sections: [[ObjectIdentifier]]) -> [[ObjectIdentifier]] {
        var sections = sections
        var removals = [(IndexPath)]()
        var insertions = [(IndexPath, ObjectIdentifier)]()
        var sectionRemovals = [Int]()
        var sectionInsertions = [Int]()
        for event in events {
            switch event {
            case .object(let object, let old, let type, let new):
                guard type != .update else { continue }
                if let old { removals.append(old) }
                if let new { insertions.append((new, object)) }
            case .section(let index, let type):
                if type == .delete { sectionRemovals.append(index) } else { sectionInsertions.append(index) }
            }
        }
        for path in removals.sorted(by: >) { sections[path.section].remove(at: path.item) }
        for index in sectionRemovals.sorted(by: >) { sections.remove(at: index) }
        for index in sectionInsertions.sorted() { sections.insert([], at: index) }
        for (path, object) in insertions.sorted(by: { $0.0 < $1.0 }) { sections[path.section].insert(object, at: path.item) }
        return sections
    }

    /// A reset of the context: Apple's reset() forgets every object ("All the receiver's managed
    /// objects are 'forgotten'"), and the results reflect the context's in-memory state (Apple's
    /// fetchedObjects documentation); Apple documents no callbacks for it, so the controller fetches
    /// again as one change event, between will-change and did-change (the porting guide says so).
    @Test func aResetFetchesTheResultsAgain() async throws {
        let container = try await Support.container(in: nil)
        try Self.saveAuthors([("Ann", "a")], in: container)
        let context = container.newBackgroundContext()
        let recorder = Recorder()
        let controller = try context.performAndWait { try Self.controller(context, delegate: recorder) }
        let before = context.performAndWait {
            Self.author("Bob", "b", in: context)
            return controller.fetchedObjects?.first
        }
        context.performAndWait {
            #expect(recorder.event() == ["Bob insert ->0.1"])
            context.reset()
            #expect(recorder.event() == [])
            #expect(Self.names(controller.fetchedObjects) == ["Ann"])
            #expect(controller.fetchedObjects?.first !== before)
        }
    }

    /// Without a delegate the controller does not track changes (Apple's `delegate`
    /// documentation): its results stay as fetched.
    @Test func withoutADelegateChangesAreNotTracked() async throws {
        let container = try await Support.container(in: nil)
        try Self.saveAuthors([("Ann", "a")], in: container)
        let context = container.newBackgroundContext()
        let controller = try context.performAndWait { try Self.controller(context, delegate: nil) }
        context.performAndWait { _ = Self.author("Bob", "b", in: context) }
        context.performAndWait { #expect(Self.names(controller.fetchedObjects) == ["Ann"]) }
    }
}

/// Collects the notifications named `name` that `context` posts.
final class NotificationRecorder: @unchecked Sendable {
    private let lock = NSLock()
    private var seen: [Notification] = []
    private var observer: NSObjectProtocol?

    init(_ name: Notification.Name, of context: ManagedObjectContext) {
        observer = NotificationCenter.default.addObserver(forName: name, object: context, queue: nil) { [weak self] note in
            self?.lock.withLock { self?.seen.append(note) }
        }
    }

    var notifications: [Notification] { lock.withLock { seen } }

    deinit { observer.map(NotificationCenter.default.removeObserver) }
}

