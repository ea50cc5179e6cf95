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
    /// Detached objects to register, `count` of them.
    static func objects(_ count: Int) async throws -> [ManagedObject] {
        let container = try await ContextTestSupport.container(in: nil)
        let entity = container.persistentStoreCoordinator.managedObjectModel.entitiesByName["Author"]!
        return (0..<count).map { _ in ManagedObject(entity: entity, insertInto: nil) }
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

    @Test func everyObjectIsFoundUnderItsKeyAfterGrowthAndRemovals() async throws {
        let keys = Self.awkwardKeys()
        var held = try await Self.objects(keys.count)
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
        var held: [ManagedObject?] = try await Self.objects(keys.count)
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

    /// Random inserts, lookups and removals over colliding keys, checked against a dictionary.
    @Test func randomOperationsAnswerAsADictionaryWould() async throws {
        var generator = TestSeed.generator(for: "ObjectRegistryTests.randomOperations")
        let keys = Self.awkwardKeys()
        let entity = try await Self.objects(1)[0].entity
        var registry = ObjectRegistry()
        registry.retainsObjects = true
        var expected = [ObjectRegistry.Key: ManagedObject]()
        for _ in 0..<20_000 {
            let key = keys[Int.random(in: 0..<keys.count, using: &generator)]
            switch Int.random(in: 0..<3, using: &generator) {
            case 0:
                let object = ManagedObject(entity: entity, insertInto: nil)
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
}
