import Foundation
import ModelExpression
import Testing
import _ModelTestSupport

@testable import ModelObjects

/// The chunked rows of a fetched results controller's section: thousands of random insertions
/// and removals leave them as an array given the same steps, and the binary search finds where
/// a value goes, across chunk boundaries and chunk splits.
struct ResultRowsTests {
    @Test func randomStepsMatchAnArray() async throws {
        let container = try await ContextTestSupport.container(in: nil)
        let entity = try #require(container.persistentStoreCoordinator.managedObjectModel.entitiesByName["Author"])
        var generator = TestSeed.generator(for: "ResultRowsTests.randomSteps")
        var expected = [Int64]()
        var rows = ResultRows<ManagedObject>([])
        for step in 0..<6000 {
            if !expected.isEmpty, step % 3 == 2 {
                let index = Int.random(in: 0..<expected.count, using: &generator)
                expected.remove(at: index)
                rows.remove(at: index)
            } else {
                let value = Int64.random(in: 0..<1000, using: &generator)
                let index = rows.firstIndex { row in row.values[0].number.map { $0 <= Double(value) } ?? false }
                #expect(index == expected.firstIndex { $0 > value } ?? expected.count)
                expected.insert(value, at: index)
                rows.insert(ResultRow(object: ManagedObject(entity: entity, insertInto: nil), values: [.integer(value)]), at: index)
            }
        }
        #expect(rows.count == expected.count)
        #expect((0..<rows.count).map { rows[$0].values[0] } == expected.map { .integer($0) })
    }
}
