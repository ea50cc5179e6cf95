import Foundation
import ModelContext
import ModelStack
import Testing
import _ModelTestSupport

/// Dictionary results: the attributes asked for, one dictionary per group with
/// `propertiesToGroupBy`, equal ones once with `returnsDistinctResults`, and Core Data's refusal
/// of a grouped fetch that asks for a property it does not group by.
struct DictionaryResultTests {
    @Test func groupsAndDistinctResultsCollapseEqualDictionaries() async throws {
        let container = try await ContextTestSupport.container(in: nil)
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let entity = container.persistentStoreCoordinator.managedObjectModel.entitiesByName["Author"]!
            for (name, email) in [("Ursula", "u@a"), ("Ursula", "u@b"), ("Iain", "i@a"), ("Ursula", "u@a")] {
                let author = ManagedObject(entity: entity, insertInto: context)
                author.setValue(name, forKey: "name")
                author.setValue(email, forKey: "email")
            }
            try context.save()

            let grouped = FetchRequest<NSDictionary>(entityName: "Author")
            grouped.propertiesToGroupBy = ["name"]
            grouped.sortDescriptors = [FetchSortDescriptor(key: "name")]
            #expect(try context.fetch(grouped).map { $0["name"] as? String } == ["Iain", "Ursula"])

            let distinct = FetchRequest<NSDictionary>(entityName: "Author")
            distinct.propertiesToFetch = ["name", "email"]
            distinct.returnsDistinctResults = true
            #expect(try context.fetch(distinct).count == 3)
            distinct.fetchOffset = 1
            distinct.fetchLimit = 1
            #expect(try context.fetch(distinct).count == 1)

            grouped.propertiesToFetch = ["name", "email"]
            #expect(throws: NSError.self) { try context.fetch(grouped) }
            do {
                _ = try context.fetch(grouped)
            } catch let error as NSError {
                #expect(error.code == 134060)
            }
        }
    }
}
