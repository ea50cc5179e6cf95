import Foundation
import ModelObjects
import ModelSchema
import ModelStack
import Testing
import _ModelTestSupport

/// Dictionary results: the attributes asked for, one dictionary per group with
/// `propertiesToGroupBy`, equal ones once with `returnsDistinctResults`, aggregate expressions
/// per group or over every row, and Core Data's refusal of a grouped fetch that asks for a
/// property it does not group by.
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

    @Test func aggregateExpressionsAreComputedPerGroupAsTheStoresSQLWould() async throws {
        let container = try await ContextTestSupport.container(in: nil)
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let model = container.persistentStoreCoordinator.managedObjectModel
            // The grouped attribute: summary, holding the author's name, or nil.
            let books: [(String?, Int32)] = [("Ursula", 250), (nil, 180), ("Iain", 400), ("Ursula", 300)]
            for (group, pages) in books {
                let book = ManagedObject(entity: model.entitiesByName["Book"]!, insertInto: context)
                book.setValue("\(group ?? "-") \(pages)", forKey: "title")
                book.setValue("isbn-\(pages)", forKey: "isbn")
                book.setValue(pages, forKey: "pages")
                book.setValue(group, forKey: "summary")
            }
            try context.save()
            func expression(_ name: String, _ format: String, _ type: AttributeType) throws -> ExpressionDescription {
                ExpressionDescription(name: name, expression: try FetchExpression(format: format), expressionResultType: type)
            }
            let request = FetchRequest<NSDictionary>(entityName: "Book")
            request.propertiesToFetch = [
                "summary", try expression("total", "sum:(pages)", .integer64), try expression("books", "count:(title)", .integer64),
                try expression("fewest", "min:(pages)", .integer32), try expression("mean", "average:(pages)", .double),
                ExpressionDescription(name: "most", expression: FetchExpression(forFunction: "max:", arguments: [FetchExpression(forKeyPath: "pages")]), expressionResultType: .integer32),
            ]
            request.propertiesToGroupBy = ["summary"]
            request.sortDescriptors = [FetchSortDescriptor(key: "summary")]
            let groups = try context.fetch(request)
            // Rows whose summary is nil form a group of their own, with no summary key (SQL's NULL group, first in order).
            #expect(groups.map { $0["summary"] as? String } == [nil, "Iain", "Ursula"])
            #expect(groups.map { $0["total"] as? Int64 } == [180, 400, 550])
            #expect(groups.map { $0["books"] as? Int64 } == [1, 1, 2])
            #expect(groups.map { $0["fewest"] as? Int64 } == [180, 400, 250])
            #expect(groups.map { $0["most"] as? Int64 } == [180, 400, 300])
            #expect(groups.map { $0["mean"] as? Double } == [180, 400, 275])

            // Without a group: one dictionary over every matching row; none match, count 0 and no sum.
            let everything = FetchRequest<NSDictionary>(entityName: "Book")
            everything.propertiesToFetch = [try expression("total", "sum:(pages)", .integer64), try expression("books", "count:(title)", .integer64)]
            #expect(try context.fetch(everything).map { $0["total"] as? Int64 } == [1130])
            everything.predicate = FetchPredicate(format: "pages > 1000")
            let empty = try context.fetch(everything)
            #expect(empty.count == 1 && empty[0]["books"] as? Int64 == 0 && empty[0]["total"] == nil)

            // An attribute beside an aggregate must be grouped; an expression the store cannot compute is named.
            everything.propertiesToFetch = ["title", try expression("total", "sum:(pages)", .integer64)]
            #expect(throws: NSError.self) { try context.fetch(everything) }
            everything.propertiesToFetch = [try expression("odd", "uppercase:(title)", .string)]
            do {
                _ = try context.fetch(everything)
                Issue.record("uppercase: was taken")
            } catch let error as NSError {
                #expect(error.code == 134060 && error.localizedDescription.contains("uppercase:"))
            }
        }
    }
}
