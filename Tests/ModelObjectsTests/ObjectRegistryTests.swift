import Foundation
import ModelStack
import Testing
import _ModelTestSupport

@testable import ModelObjects

/// The context's table of registered objects, an open-addressed table of its own: every object
/// stays reachable by its key through growth, sweeps and removals (which move later objects back
/// into the gap), whatever the keys (rows of several stores share their low bits; keys a stride
/// apart; new objects' negative keys), and it answers as a dictionary would.
struct ObjectRegistryTests {
    /// The test model's entities by their row number (`Z_ENT`).
    static func entities() async throws -> [Int: EntityDescription] {
        let container = try await ContextTestSupport.container(in: nil)
        let entities = container.persistentStoreCoordinator.managedObjectModel.entities
        return Dictionary(uniqueKeysWithValues: entities.map { ($0.shape.number, $0) })
    }

    /// A detached object whose own ID has `key`, as every registered object's does (the table
    /// keeps only a key's row value and reads the entity number from the object): an object of
    /// the entity numbered `key.number`, a new one's temporary ID for a negative value.
    static func object(at key: ObjectRegistry.Key, of entities: [Int: EntityDescription]) -> ManagedObject {
        let entity = entities[key.number]!
        let object = ManagedObject(entity: entity, insertInto: nil)
        object.objectID =
            key.value < 0
            ? ManagedObjectID(temporaryIn: entity.temporaryIDScope, number: -key.value)
            : ManagedObjectID(entityName: entity.name, storeIdentifier: "S", primaryKey: key.value)
        return object
    }

    /// Detached objects for `keys`, one each.
    static func objects(at keys: [ObjectRegistry.Key]) async throws -> [ManagedObject] {
        let entities = try await entities()
        return keys.map { object(at: $0, of: entities) }
    }

    /// Keys whose low bits collide: the same row numbers in three stores (the store in the high
    /// bits) and two entities, keys a power of two apart, and negative keys.
    static func awkwardKeys() -> [ObjectRegistry.Key] {
        var keys = [ObjectRegistry.Key]()
        for store in Int64(0)..<3 {
            for number in 1...2 {
                for row in Int64(1)...300 { keys.append(.init(number: number, value: store << 40 | row)) }
            }
        }
        for step in Int64(0)..<200 { keys.append(.init(number: 3, value: step << 20)) }
        for row in Int64(1)...100 { keys.append(.init(number: 1, value: -row)) }
        return keys
    }

    /// Two objects under one row value, one of each of two entities, are told apart by their
    /// entities, which the table reads from the objects themselves.
    @Test func oneRowValueOfTwoEntitiesFindsEachObject() async throws {
        let keys: [ObjectRegistry.Key] = [.init(number: 1, value: 7), .init(number: 2, value: 7)]
        let held = try await Self.objects(at: keys)
        var registry = ObjectRegistry()
        for (key, object) in zip(keys, held) { #expect(registry.insertNew(object, at: key) === object) }
        #expect(registry[keys[0]] === held[0])
        #expect(registry[keys[1]] === held[1])
        #expect(registry[.init(number: 3, value: 7)] == nil)
        registry.remove(held[0])
        #expect(registry[keys[0]] == nil)
        #expect(registry[keys[1]] === held[1])
    }

    @Test func everyObjectIsFoundUnderItsKeyAfterGrowthAndRemovals() async throws {
        let keys = Self.awkwardKeys()
        var held = try await Self.objects(at: keys)
        var registry = ObjectRegistry()
        registry.retainsObjects = true
        for (key, object) in zip(keys, held) { #expect(registry.insertNew(object, at: key) === object) }
        #expect(registry.count == keys.count)
        for (key, object) in zip(keys, held) { #expect(registry[key] === object) }
        // A key registered already keeps its first object.
        #expect(registry.insertNew(held[1], at: keys[0]) === held[0])

        // Letting go of every third object and looking it up removes it (only the table held it).
        registry.retainsObjects = false
        let gone = Set(stride(from: 0, to: keys.count, by: 3))
        for index in gone { held[index] = ManagedObject(entity: held[index].entity, insertInto: nil) }
        for index in gone { #expect(registry[keys[index]] == nil) }
        #expect(registry.count == keys.count - gone.count)
        for (index, key) in keys.enumerated() where !gone.contains(index) { #expect(registry[key] === held[index]) }
    }

    @Test func aSweepLetsGoOfWhatOnlyTheTableHolds() async throws {
        let keys = Self.awkwardKeys()
        var held: [ManagedObject?] = try await Self.objects(at: keys)
        var registry = ObjectRegistry()
        for (key, object) in zip(keys, held) { _ = registry.insertNew(object!, at: key) }
        for index in held.indices where index % 2 == 1 { held[index] = nil }
        #expect(registry.sweep() == keys.count / 2)
        #expect(registry.count == keys.count - keys.count / 2)
        #expect(registry.objects.count == registry.count)
        for (key, object) in zip(keys, held) {
            if let object { #expect(registry[key] === object) } else { #expect(registry[key] == nil) }
        }
    }

    /// Fetches of 500 rows each, their objects let go before the next, as a batch-faulting fetch
    /// or a paged list reads: the table stays a few batches large however many rows go through,
    /// and the objects still held stay registered.
    @Test func manySmallFetchesKeepATableOfAFewBatches() async throws {
        let entities = try await Self.entities()
        var registry = ObjectRegistry()
        let kept = Self.object(at: .init(number: 1, value: 0), of: entities)
        _ = registry.insertNew(kept, at: .init(number: 1, value: 0))
        var largest = 0
        for batch in 0..<400 {
            let keys = (1...500).map { ObjectRegistry.Key(number: 1, value: Int64(batch * 500 + $0)) }
            let objects = keys.map { Self.object(at: $0, of: entities) }
            registry.reserve(objects.count)
            for (key, object) in zip(keys, objects) { _ = registry.insertNew(object, at: key) }
            largest = max(largest, registry.count)
        }
        #expect(largest <= 4 * ObjectRegistry.sweepFloor)
        #expect(registry[.init(number: 1, value: 0)] === kept)
    }

    /// Random inserts, lookups and removals over colliding keys, checked against a dictionary.
    @Test func randomOperationsAnswerAsADictionaryWould() async throws {
        var generator = TestSeed.generator(for: "ObjectRegistryTests.randomOperations")
        let keys = Self.awkwardKeys()
        let entities = try await Self.entities()
        var registry = ObjectRegistry()
        registry.retainsObjects = true
        var expected = [ObjectRegistry.Key: ManagedObject]()
        for _ in 0..<20_000 {
            let key = keys[Int.random(in: 0..<keys.count, using: &generator)]
            switch Int.random(in: 0..<3, using: &generator) {
            case 0:
                let object = Self.object(at: key, of: entities)
                #expect(registry.insertNew(object, at: key) === (expected[key] ?? object))
                expected[key] = expected[key] ?? object
            case 1:
                #expect(registry[key] === expected[key])
            default:
                // Once the test lets go of its object, only the table holds it: a lookup removes it.
                guard expected.removeValue(forKey: key) != nil else { continue }
                registry.retainsObjects = false
                #expect(registry[key] == nil)
                registry.retainsObjects = true
            }
            #expect(registry.count == expected.count)
        }
        for (key, object) in expected { #expect(registry[key] === object) }
    }

    /// The terms of `multiplier` / 2^64's continued fraction whose convergents' denominators stay
    /// below `limit` (Euclid's algorithm, its first step dividing 2^64).
    static func continuedFractionTerms(of multiplier: UInt64, below limit: UInt64) -> [UInt64] {
        let first = multiplier.dividingFullWidth((high: 1, low: 0))
        var (divisor, remainder) = (multiplier, first.remainder)
        var terms = [first.quotient]
        var (before, last) = (UInt64(1), terms[0])
        while remainder != 0 {
            let term = divisor / remainder
            let (product, overflow) = term.multipliedReportingOverflow(by: last)
            guard !overflow, product + before < limit else { break }
            (divisor, remainder) = (remainder, divisor % remainder)
            (before, last) = (last, term * last + before)
            terms.append(term)
        }
        return terms
    }

    /// Every table's multiplier is a ratio whose continued fraction is ones and twos, the property
    /// that spreads keys following one another evenly; a multiplier drawn from all odd numbers
    /// breaks it in nearly every draw.
    @Test func multipliersHaveContinuedFractionsOfOnesAndTwos() {
        for _ in 0..<200 {
            let multiplier = ObjectRegistry.spreadingMultiplier()
            #expect(multiplier & 1 == 1)
            let terms = Self.continuedFractionTerms(of: multiplier, below: 1 << 30)
            #expect(terms.count >= 20)
            #expect(terms.allSatisfy { $0 == 1 || $0 == 2 }, "\(multiplier): \(terms)")
        }
    }

    /// A fetch of 200,000 rows registers keys 1 to 200,000: nearly every run of 16 of them has a
    /// run of slots to itself in every table, so each object goes in at its home without probing.
    /// With multipliers drawn from all odd numbers, one table in ten put a tenth or more of the
    /// runs on top of others (a fetch then probed 10 to 380 slots an object).
    @Test func rowsThatFollowOneAnotherGetRunsOfTheirOwn() {
        for _ in 0..<20 {
            var registry = ObjectRegistry()
            registry.reserve(200_000)
            let homes = Set(stride(from: Int64(0), to: 200_000, by: 16).map { registry.home(of: .init(number: 1, value: $0)) })
            #expect(homes.count >= 200_000 / 16 * 97 / 100)
        }
    }
}
