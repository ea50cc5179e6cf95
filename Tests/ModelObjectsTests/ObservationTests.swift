import Foundation
import ModelStack
import Observation
import Synchronization
import Testing
import _ModelTestSupport

@testable import ModelObjects

/// Observation of objects and of a context's changes. Core Data's objects announce each
/// property's changes to observers (key-value observing: NSManagedObject's `willChangeValue(forKey:)`
/// and `didChangeValue(forKey:)`); here Swift's Observation does it: `withObservationTracking`
/// "tracks access to any property within the apply closure, and informs the caller of value
/// changes made to participating properties by way of the onChange closure" ("it doesn't track
/// changes to any other property"; Apple's documentation of withObservationTracking(_:onChange:)).
/// A refresh without merging "discards pending changes and the managed object becomes a fault", and
/// `mergeChanges(fromContextDidSave:)` "refreshes any objects which have been updated in the other
/// context" (Apple's documentation of both): the values an observer read change, so it is told.
struct ObservationTests {
    typealias Support = ContextTestSupport

    /// How many times an observer's onChange ran.
    final class Changes: Sendable {
        private let count = Mutex(0)
        var seen: Int { count.withLock { $0 } }
        func note() { count.withLock { $0 += 1 } }
    }

    /// Reads `key` of `object` under observation tracking; the returned counter counts onChange calls.
    static func observe(_ key: String, of object: ManagedObject) -> Changes {
        let changes = Changes()
        _ = withObservationTracking { object.value(forKey: key) } onChange: { changes.note() }
        return changes
    }

    static func author(_ context: ManagedObjectContext, _ container: PersistentContainer) -> ManagedObject {
        ManagedObject(entity: container.persistentStoreCoordinator.managedObjectModel.entitiesByName["Author"]!, insertInto: context)
    }

    @Test func settingAPropertyNotifiesItsObserversOnly() async throws {
        let container = try await Support.container(in: nil)
        let context = container.newBackgroundContext()
        context.performAndWait {
            let author = Self.author(context, container)
            author.setValue("Ursula", forKey: "name")
            let changes = Self.observe("name", of: author)
            author.setValue("u@x", forKey: "email")
            #expect(changes.seen == 0)
            author.setValue("Ursula K.", forKey: "name")
            #expect(changes.seen == 1)
        }
    }

    /// A generated accessor's read registers the property by the key path its key holds; a change
    /// made by name (`setValue(_:forKey:)`, `willChangeValue(forKey:)`, a refresh) announces it by
    /// the entity's: the two must be one key path, or the observer would never hear.
    @Test func aTypedReadIsToldOfChangesMadeByName() async throws {
        let container = try await Support.container(in: nil)
        let context = container.newBackgroundContext()
        context.performAndWait {
            let author = Author(context: context)
            author.name = "Ursula"
            let changes = Changes()
            func track() { _ = withObservationTracking { author.name } onChange: { changes.note() } }
            track()
            author.setValue("Ursula K.", forKey: "name")
            #expect(changes.seen == 1)
            track()
            author.email = "u@x"
            #expect(changes.seen == 1)
            author.willChangeValue(forKey: "name")
            author.didChangeValue(forKey: "name")
            #expect(changes.seen == 2)
            track()
            author.name = "Le Guin"
            #expect(changes.seen == 3)
        }
    }

    @Test func aRelationshipsInverseNotifiesItsObservers() async throws {
        let container = try await Support.container(in: nil)
        let context = container.newBackgroundContext()
        context.performAndWait {
            let author = Self.author(context, container)
            let book = ManagedObject(entity: container.persistentStoreCoordinator.managedObjectModel.entitiesByName["Book"]!, insertInto: context)
            let changes = Self.observe("publications", of: author)
            book.setValue(author, forKey: "author")
            #expect(changes.seen == 1)
            #expect((author.value(forKey: "publications") as? NSOrderedSet)?.count == 1)
        }
    }

    @Test func fulfillingAFaultDoesNotNotify() async throws {
        let container = try await Support.container(in: nil)
        let id = try NotificationTests.saveAuthor(container)
        let context = container.newBackgroundContext()
        context.performAndWait {
            let author = context.object(with: id)
            #expect(author.isFault)
            // The read under tracking fulfills the fault: no change to announce.
            let changes = Self.observe("name", of: author)
            #expect(!author.isFault)
            _ = author.value(forKey: "email")
            #expect(changes.seen == 0)
            author.setValue("Le Guin", forKey: "name")
            #expect(changes.seen == 1)
        }
    }

    @Test func aRefreshDiscardingAChangeNotifies() async throws {
        let container = try await Support.container(in: nil)
        let id = try NotificationTests.saveAuthor(container)
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let author = try context.existingObject(with: id)
            author.setValue("Le Guin", forKey: "name")
            let changes = Self.observe("name", of: author)
            context.refresh(author, mergeChanges: false)
            #expect(changes.seen == 1)
            #expect(author.value(forKey: "name") as? String == "Ursula")
        }
    }

    @Test func aMergedSaveOfAnotherContextNotifies() async throws {
        let container = try await Support.container(in: nil)
        let id = try NotificationTests.saveAuthor(container)
        let (reader, writer) = (container.newBackgroundContext(), container.newBackgroundContext())
        let (author, changes) = try reader.performAndWait {
            let author = try reader.existingObject(with: id)
            return (author, Self.observe("name", of: author))
        }
        try writer.performAndWait {
            try writer.existingObject(with: id).setValue("Le Guin", forKey: "name")
            try writer.save()
        }
        #expect(changes.seen == 0)
        ManagedObjectContext.mergeChanges(fromRemoteContextSave: [NSUpdatedObjectsKey: [id]], into: [reader])
        #expect(changes.seen == 1)
        reader.performAndWait { #expect(author.value(forKey: "name") as? String == "Le Guin") }
    }

    @Test func willAndDidChangeValueNotifyObservers() async throws {
        let container = try await Support.container(in: nil)
        let context = container.newBackgroundContext()
        context.performAndWait {
            let author = Self.author(context, container)
            let changes = Self.observe("born", of: author)
            author.willChangeValue(forKey: "name")
            author.didChangeValue(forKey: "name")
            #expect(changes.seen == 0)
            author.willChangeValue(forKey: "born")
            author.didChangeValue(forKey: "born")
            #expect(changes.seen == 1)
        }
    }

    // MARK: - Registrars

    /// An object makes its Observation registrar for the first read an observer tracks: objects
    /// only read untracked, most of a fetch's, carry none. One read untracked first is told of its
    /// changes once tracked all the same, and two objects never share a registrar (one's change
    /// would reach the other's observers).
    @Test func onlyAnObjectAnObserverReadMakesARegistrar() async throws {
        let container = try await Support.container(in: nil)
        let context = container.newBackgroundContext()
        context.performAndWait {
            let (ann, bob) = (Author(context: context), Author(context: context))
            ann.name = "Ann"
            bob.name = "Bob"
            _ = ann.name
            _ = bob.value(forKey: "name")
            #expect(ann.observation == nil && bob.observation == nil)
            let (annChanges, bobChanges) = (Changes(), Changes())
            _ = withObservationTracking { ann.name } onChange: { annChanges.note() }
            _ = withObservationTracking { bob.value(forKey: "name") } onChange: { bobChanges.note() }
            #expect(ann.observation != nil && bob.observation != nil && ann.observation !== bob.observation)
            bob.name = "Bob B."
            #expect(annChanges.seen == 0 && bobChanges.seen == 1)
            ann.setValue("Ann A.", forKey: "name")
            #expect(annChanges.seen == 1 && bobChanges.seen == 1)
        }
    }

    /// Threads reading at once, some tracked and some not, each tell their own observers only:
    /// a thread's tracked read finds its tracker whatever the others do.
    @Test func trackedReadsOnManyThreadsAtOnceEachFindTheirObserver() async throws {
        let container = try await Support.container(in: nil)
        let missed = Mutex(0)
        DispatchQueue.concurrentPerform(iterations: 16) { round in
            let context = container.newBackgroundContext()
            context.performAndWait {
                let authors = (0..<50).map { number in
                    let author = Author(context: context)
                    author.name = "\(round).\(number)"
                    return author
                }
                let changes = Changes()
                for (number, author) in authors.enumerated() {
                    if number.isMultiple(of: 2) {
                        _ = withObservationTracking { author.name } onChange: { changes.note() }
                    } else {
                        _ = author.name
                    }
                }
                for author in authors { author.name = "changed" }
                if changes.seen != 25 { missed.withLock { $0 += 1 } }
            }
        }
        #expect(missed.withLock { $0 } == 0)
    }

    /// A thread that reads objects keeps a spare registrar for its probe, let go when the thread
    /// ends: threads that come and go, each reading tracked and untracked, leave objects that tell
    /// their observers, and nothing of the threads' behind.
    @Test func threadsThatEndLetTheirSpareRegistrarGo() async throws {
        let container = try await Support.container(in: nil)
        let context = container.newBackgroundContext()
        let ids = context.performAndWait {
            (0..<8).map { number in
                let author = Author(context: context)
                author.name = "\(number)"
                return author.objectID
            }
        }
        let changes = Changes()
        for (number, id) in ids.enumerated() {
            let ended = DispatchSemaphore(value: 0)
            let thread = Thread {
                context.performAndWait {
                    let author = context.object(with: id) as! Author
                    _ = author.name
                    if number.isMultiple(of: 2) {
                        _ = withObservationTracking { author.name } onChange: { changes.note() }
                    }
                }
                ended.signal()
            }
            thread.start()
            ended.wait()
        }
        context.performAndWait {
            for id in ids { (context.object(with: id) as! Author).name = "changed" }
        }
        #expect(changes.seen == 4)
    }

    // MARK: - Async sequences

    @Test func changesYieldAfterAPerformBlockASaveAndAMerge() async throws {
        let container = try await Support.container(in: nil)
        let (context, other) = (container.newBackgroundContext(), container.newBackgroundContext())
        var changes = context.changes.makeAsyncIterator()
        var saves = context.saves.makeAsyncIterator()
        let author = context.performAndWait {
            let author = Self.author(context, container)
            author.setValue("Ursula", forKey: "name")
            return author
        }
        let temporary = author.objectID
        #expect(await changes.next()?.inserted == [temporary])
        let id = try context.performAndWait {
            try context.save()
            return author.objectID
        }
        #expect(await saves.next()?.inserted == [id])
        try other.performAndWait {
            try other.existingObject(with: id).setValue("Le Guin", forKey: "name")
            try other.save()
        }
        ManagedObjectContext.mergeChanges(fromRemoteContextSave: [NSUpdatedObjectsKey: [id]], into: [context])
        #expect(await changes.next()?.refreshed == [id])
    }

    @Test func oneObjectsChangesEndWithItsDeletion() async throws {
        let container = try await Support.container(in: nil)
        let id = try NotificationTests.saveAuthor(container)
        let context = container.newBackgroundContext()
        var changes = context.changes(for: id).makeAsyncIterator()
        context.performAndWait {
            // Another object's change is not this one's.
            Self.author(context, container).setValue("Other", forKey: "name")
        }
        try context.performAndWait { try context.existingObject(with: id).setValue("Le Guin", forKey: "name") }
        #expect(await changes.next() == .updated)
        try context.performAndWait { context.delete(try context.existingObject(with: id)) }
        #expect(await changes.next() == .deleted)
        #expect(await changes.next() == nil)
        #expect(context.changeSequenceObservers.load(ordering: .relaxed) == 0)
    }

    @Test func aCancelledConsumerRemovesItsObserver() async throws {
        let container = try await Support.container(in: nil)
        let context = container.newBackgroundContext()
        let consumer = Task {
            for await _ in context.changes {}
        }
        try await Self.wait { context.changeSequenceObservers.load(ordering: .relaxed) == 1 }
        #expect(context.changeSequenceObservers.load(ordering: .relaxed) == 1)
        consumer.cancel()
        await consumer.value
        try await Self.wait { context.changeSequenceObservers.load(ordering: .relaxed) == 0 }
        #expect(context.changeSequenceObservers.load(ordering: .relaxed) == 0)
    }

    /// Waits up to two seconds for `condition`.
    static func wait(_ condition: () -> Bool) async throws {
        for _ in 0..<200 where !condition() { try await Task.sleep(for: .milliseconds(10)) }
    }
}
