import CoreData
import Foundation
import Observation
import Synchronization
import Testing

/// Core Data code that observes one object's property, ported: on Apple platforms through key-value
/// observing (`car.observe(\.maker)`), here through Observation on the `@Managed` property, with the
/// context's per-object change sequence standing in where KVO observers watched for deletion.
struct ObservationPortTests {
    /// How many times an observer's onChange ran.
    final class Changes: Sendable {
        private let count = Mutex(0)
        var seen: Int { count.withLock { $0 } }
        func note() { count.withLock { $0 += 1 } }
    }

    /// CoreDataPlus's test_InvestigationKVO (NSManagedObjectContextInvestigation_Tests.swift, run on
    /// Apple platforms): "KVO is fired whenever a property changes (even if the object is not saved
    /// in the context)": observing `maker`, its two changes fire, the other properties' changes and
    /// the save do not. Observation's onChange fires once per tracking, so each change is tracked anew.
    @Test func anObserverOfOnePropertyIsToldOfEachOfItsChanges() async throws {
        try await GarageModel.withContainer { container in
            let context: NSManagedObjectContext = container.newBackgroundContext()
            try context.performAndWait {
                let changes = Changes()
                let car = Vehicle(context: context)
                car.garage = Garage(context: context)
                func track() { _ = withObservationTracking { car.model } onChange: { changes.note() } }
                track()
                car.model = "McLaren"
                track()
                car.plate = "203"
                car.seats = 2
                car.model = "McLaren 2"
                track()
                try context.save()
                #expect(changes.seen == 2)
                #expect(car.model == "McLaren 2")
            }
        }
    }

    /// A relationship set through a generated accessor changes its inverse too: observers of the
    /// inverse are told, as KVO observers of an inverse relationship are (Core Data maintains
    /// inverses, "Relationships and Fetched Properties").
    @Test func anInverseRelationshipsObserversAreTold() async throws {
        try await GarageModel.withContainer { container in
            let context = container.newBackgroundContext()
            context.performAndWait {
                let changes = Changes()
                let car = Vehicle(context: context)
                let driver = Driver(context: context)
                _ = withObservationTracking { car.owner } onChange: { changes.note() }
                driver.addToVehicles(car)
                #expect(changes.seen == 1)
                #expect(car.owner === driver)
            }
        }
    }

    /// An accessor of the app's own that changes a value it keeps calls `willChangeValue(forKey:)`
    /// and `didChangeValue(forKey:)`, as Core Data's documentation of NSManagedObject asks of custom
    /// accessors; observers of that property are told.
    @Test func willAndDidChangeValueTellObservers() async throws {
        try await GarageModel.withContainer { container in
            let context = container.newBackgroundContext()
            context.performAndWait {
                let changes = Changes()
                let car = Vehicle(context: context)
                _ = withObservationTracking { car.speed } onChange: { changes.note() }
                car.willChangeValue(forKey: "speed")
                car.didChangeValue(forKey: "speed")
                #expect(changes.seen == 1)
            }
        }
    }

    /// Where Core Data code watched one object through objects-did-change (its updated and
    /// deleted sets), `changes(for:)` yields that object's changes and ends once it is deleted.
    @Test func oneObjectsChangesAsAnAsyncSequence() async throws {
        try await GarageModel.withContainer { container in
            let context: NSManagedObjectContext = container.newBackgroundContext()
            let id: NSManagedObjectID = try context.performAndWait {
                let garage = Garage(context: context)
                garage.name = "North"
                try context.save()
                return garage.objectID
            }
            var changes = context.changes(for: id).makeAsyncIterator()
            try context.performAndWait { (try context.existingObject(with: id) as? Garage)?.name = "South" }
            #expect(await changes.next() == .updated)
            try context.performAndWait { context.delete(try context.existingObject(with: id)) }
            #expect(await changes.next() == .deleted)
            #expect(await changes.next() == nil)
        }
    }
}
