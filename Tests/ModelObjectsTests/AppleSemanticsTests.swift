import Foundation
import ModelObjects
import ModelStack
import Testing
import _ModelTestSupport

/// Refreshing, faulting, deleting and merging as Core Data does them, each test naming its
/// evidence: Apple's documentation, or a test of alemar11/CoreDataPlus, a suite that ran on
/// Apple's platforms and records what Core Data did there.
struct AppleSemanticsTests {
    typealias Support = ContextTestSupport
    typealias Recorder = NotificationTests.Recorder

    /// CoreDataPlus `test_InvestigationRefreshAllObjects` and `NSManagedObjectUtils_Tests.test_Refresh`:
    /// refreshAllObjects (a refresh merging changes) leaves an object with unsaved changes a
    /// non-fault with its change kept and turns an unchanged one into a fault; a refresh without
    /// merging turns the object into a fault with its saved values back.
    @Test func refreshFaultsOnlyObjectsWithoutChangesWhenMerging() async throws {
        let container = try await Support.container(in: nil)
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let (changed, unchanged) = (Self.author("car1", in: context), Self.author("car2", in: context))
            try context.save()
            changed.setValue("car1_updated", forKey: "name")
            context.refreshAllObjects()
            #expect(!changed.isFault)
            #expect(unchanged.isFault)
            #expect(changed.value(forKey: "name") as? String == "car1_updated")

            context.refresh(changed, mergeChanges: true)
            #expect(!changed.isFault && changed.hasChanges)
            context.refresh(changed, mergeChanges: false)
            #expect(changed.isFault && !changed.hasChanges)
            #expect(changed.value(forKey: "name") as? String == "car1")
        }
    }

    /// CoreDataPlus `test_InvestigationTransientProperties`: a transient value set before a save is
    /// gone after refreshAllObjects (the unchanged object turned into a fault), and one set after
    /// is gone after a reset.
    @Test func transientValuesGoWhenTheObjectTurnsIntoAFault() async throws {
        let folder = try StackFolder()
        defer { folder.remove() }
        let container = try await ObjectLifetimeTests.container(in: folder.url)
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let counter = ManagedObject(entity: ObjectLifetimeTests.entity(container), insertInto: context)
            counter.setValue("50", forKey: "label")
            try context.save()
            #expect(counter.value(forKey: "label") as? String == "50")
            context.refreshAllObjects()
            #expect(counter.value(forKey: "label") == nil)
            counter.setValue("100", forKey: "label")
            #expect(counter.value(forKey: "label") as? String == "100")
            context.reset()
            #expect(counter.value(forKey: "label") == nil)
        }
    }

    /// Apple's `changedValues()` documentation: it "only reports changes to properties that are
    /// persistent properties of the receiver, not changes to transient properties"; and
    /// `committedValues(forKeys:)` likewise reports persistent properties only, nil as `NSNull`.
    @Test func changedAndCommittedValuesLeaveTransientsOut() async throws {
        let folder = try StackFolder()
        defer { folder.remove() }
        let container = try await ObjectLifetimeTests.container(in: folder.url)
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let counter = ManagedObject(entity: ObjectLifetimeTests.entity(container), insertInto: context)
            try context.save()
            counter.setValue("changed", forKey: "label")
            #expect(counter.hasChanges)
            #expect(counter.changedValues().isEmpty)
            counter.setValue(7, forKey: "count")
            #expect(Set(counter.changedValues().keys) == ["count"])
            #expect(Set(counter.committedValues(forKeys: nil).keys) == ["count"])
        }
    }

    /// Apple's documentation of `willTurnIntoFault()` ("before converting it to a fault ... (re)set
    /// state which requires access to property values") and `didTurnIntoFault()` ("transient values
    /// declared as entity properties are typically already cleared out by the time this method is
    /// invoked"): both run when a refresh turns the object into a fault, and neither when a refresh
    /// merging changes keeps a changed object.
    @Test func faultHooksRunAroundTurningIntoAFault() async throws {
        let folder = try StackFolder()
        defer { folder.remove() }
        let container = try await ObjectLifetimeTests.container(in: folder.url)
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let counter = FaultProbe(entity: ObjectLifetimeTests.entity(container), insertInto: context)
            counter.setValue(Int64(7), forKey: "count")
            counter.setValue("kept", forKey: "label")
            try context.save()
            counter.setValue(Int64(8), forKey: "count")
            context.refresh(counter, mergeChanges: true)
            #expect(counter.events.isEmpty)
            context.refresh(counter, mergeChanges: false)
            #expect(counter.events == ["will count=7 label=kept", "did label=nil"])
        }
    }

    /// CoreDataPlus `test_InvestigationStalenessInterval`: a batch update bypasses the context and
    /// the row cache, so a refresh still reads the cached values under the default (infinite)
    /// staleness, and the store's with a staleness interval of 0. CoreDataPlus
    /// `test_InvestigationShouldRefreshRefetchedObjectsIsStillBroken`: another context's save is
    /// seen by a refresh without merging.
    @Test func aRefreshReadsTheRowCacheUnlessItIsStale() async throws {
        let container = try await Support.container(in: nil)
        let context = container.newBackgroundContext()
        let author = try context.performAndWait {
            let author = Self.author("FIAT", in: context)
            try context.save()
            let update = BatchUpdateRequest(entityName: "Author")
            update.predicate = FetchPredicate(format: "name == %@", "FIAT")
            update.propertiesToUpdate = ["name": "FCA"]
            update.resultType = .count
            #expect(try context.execute(update).result as? Int == 1)
            #expect(context.stalenessInterval < 0)
            context.refresh(author, mergeChanges: true)
            #expect(author.value(forKey: "name") as? String == "FIAT")
            context.refreshAllObjects()
            #expect(author.value(forKey: "name") as? String == "FIAT")
            context.stalenessInterval = 0
            context.refresh(author, mergeChanges: true)
            #expect(author.value(forKey: "name") as? String == "FCA")
            context.stalenessInterval = -1
            return author
        }
        let writer = container.newBackgroundContext()
        try writer.performAndWait {
            try writer.existingObject(with: author.objectID).setValue("Stellantis", forKey: "name")
            try writer.save()
        }
        context.performAndWait {
            #expect(author.value(forKey: "name") as? String == "FCA")
            context.refresh(author, mergeChanges: false)
            #expect(author.value(forKey: "name") as? String == "Stellantis")
        }
    }

    /// CoreDataPlus `NSManagedObjectUtils_Tests.test_Delete`: a new object deleted before any save
    /// reads as deleted; Apple's `deletedObjects` documentation: such an object "may not be
    /// included in the set" (it never reaches the store).
    @Test func aNewObjectDeletedReadsAsDeleted() async throws {
        let container = try await Support.container(in: nil)
        let context = container.newBackgroundContext()
        context.performAndWait {
            let author = Self.author("McLaren", in: context)
            context.delete(author)
            #expect(author.isDeleted)
            #expect(context.insertedObjects.isEmpty && context.deletedObjects.isEmpty && !context.hasChanges)
        }
    }

    /// CoreDataPlus `NotificationMerge_Tests.test_InvestigationMergeChanges`, and Apple's
    /// `mergeChanges(fromContextDidSave:)` documentation ("invokes delete(_:) on those which have
    /// been deleted"): after merging a save that deleted one of two held objects, updated the
    /// other and inserted a third, both stay registered, the deleted one is among the context's
    /// deleted objects, the updated one has the new values, and nothing is inserted here.
    @Test func mergingADeletionDeletesTheObjectHere() async throws {
        let container = try await Support.container(in: nil)
        let (viewContext, background) = (container.newBackgroundContext(), container.newBackgroundContext())
        let (gone, kept) = try viewContext.performAndWait {
            let people = (Self.author("Alessandro", in: viewContext), Self.author("Andrea", in: viewContext))
            try viewContext.save()
            return people
        }
        let recorder = Recorder([ManagedObjectContext.didSaveObjectsNotification], of: background)
        try background.performAndWait {
            background.delete(try background.existingObject(with: gone.objectID))
            try background.existingObject(with: kept.objectID).setValue("Andrea**", forKey: "name")
            _ = Self.author("Edythe", in: background)
            try background.save()
        }
        let notification = Notification(name: ManagedObjectContext.didSaveObjectsNotification, object: background, userInfo: recorder.notifications.first?.1)
        try viewContext.performAndWait {
            viewContext.mergeChanges(fromContextDidSave: notification)
            #expect(viewContext.registeredObjects.count == 2)
            #expect(viewContext.insertedObjects.isEmpty)
            #expect(viewContext.deletedObjects == [gone] && gone.isDeleted)
            #expect(kept.value(forKey: "name") as? String == "Andrea**")
            // The row is gone already: saving the deletion writes nothing and conflicts with nothing.
            try viewContext.save()
            #expect(!viewContext.hasChanges)
        }
    }

    /// CoreDataPlus `NotificationMerge_Tests.test_Merge`: merging a save that updated two objects
    /// registered here and inserted one posts objects-did-change with the two as refreshed, none
    /// updated and the new one inserted, and did-merge-changes-object-IDs with one inserted, two
    /// updated, none deleted and two refreshed IDs; a save afterwards has nothing to write.
    @Test func aMergeAnnouncesInsertsAndRefreshes() async throws {
        let container = try await Support.container(in: nil)
        let (viewContext, background) = (container.newBackgroundContext(), container.newBackgroundContext())
        let people = try viewContext.performAndWait {
            let people = [Self.author("Edythe", in: viewContext), Self.author("Ellis", in: viewContext)]
            try viewContext.save()
            return people
        }
        let saves = Recorder([ManagedObjectContext.didSaveObjectsNotification], of: background)
        try background.performAndWait {
            for person in people {
                let mine = try background.existingObject(with: person.objectID)
                mine.setValue("\(mine.value(forKey: "name") ?? "") Updated", forKey: "name")
            }
            _ = Self.author("Alessandro", in: background)
            try background.save()
        }
        let merged = Recorder([ManagedObjectContext.didChangeObjectsNotification, ManagedObjectContext.didMergeChangesObjectIDsNotification], of: viewContext)
        let notification = Notification(name: ManagedObjectContext.didSaveObjectsNotification, object: background, userInfo: saves.notifications.first?.1)
        try viewContext.performAndWait {
            viewContext.mergeChanges(fromContextDidSave: notification)
            try viewContext.save()
            #expect(!viewContext.hasChanges)
        }
        let change = merged.notifications.first { $0.0 == ManagedObjectContext.didChangeObjectsNotification }?.1 ?? [:]
        #expect((change[NSRefreshedObjectsKey] as? Set<ManagedObject>) == Set(people))
        #expect((change[NSUpdatedObjectsKey] as? Set<ManagedObject>)?.count ?? 0 == 0)
        #expect((change[NSInsertedObjectsKey] as? Set<ManagedObject>)?.count == 1)
        let ids = merged.notifications.first { $0.0 == ManagedObjectContext.didMergeChangesObjectIDsNotification }?.1 ?? [:]
        #expect((ids[NSInsertedObjectIDsKey] as? Set<ManagedObjectID>)?.count == 1)
        #expect((ids[NSUpdatedObjectIDsKey] as? Set<ManagedObjectID>) == Set(people.map(\.objectID)))
        #expect((ids[NSDeletedObjectIDsKey] as? Set<ManagedObjectID>)?.isEmpty == true)
        #expect((ids[NSRefreshedObjectIDsKey] as? Set<ManagedObjectID>) == Set(people.map(\.objectID)))
    }

    /// CoreDataPlus `NotificationMerge_Tests.test_NSFetchedResultControllerWithContextReset`: a reset
    /// posts objects-did-change listing the context's objects' IDs under `NSInvalidatedAllObjectsKey`.
    @Test func aResetInvalidatesEveryObject() async throws {
        let container = try await Support.container(in: nil)
        let context = container.newBackgroundContext()
        let recorder = Recorder([ManagedObjectContext.didChangeObjectsNotification], of: context)
        let id = try context.performAndWait {
            let author = Self.author("Ellis", in: context)
            try context.save()
            context.reset()
            return author.objectID
        }
        #expect(recorder.notifications.last?.1[NSInvalidatedAllObjectsKey] as? [ManagedObjectID] == [id])
    }

    /// A new author named `name` in `context`.
    static func author(_ name: String, in context: ManagedObjectContext) -> ManagedObject {
        let author = ManagedObject(entity: context.persistentStoreCoordinator!.managedObjectModel.entitiesByName["Author"]!, insertInto: context)
        author.setValue(name, forKey: "name")
        return author
    }
}

/// A counter recording its fault hooks and what it could read in each.
final class FaultProbe: ManagedObject {
    var events: [String] = []

    override func willTurnIntoFault() {
        events.append("will count=\(value(forKey: "count") ?? "nil") label=\(value(forKey: "label") ?? "nil")")
    }

    override func didTurnIntoFault() {
        events.append("did label=\(value(forKey: "label") ?? "nil")")
    }
}
