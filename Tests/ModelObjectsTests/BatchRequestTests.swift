import Foundation
import ModelObjects
import ModelStack
import Testing
import _ModelTestSupport

/// Batch requests run in the store: inserts take keys from Z_PRIMARYKEY with defaults and Z_OPT 1,
/// updates raise Z_OPT (so an object read before is in conflict when saved), deletes take links
/// with the rows; results come as status, IDs or a count, and the context's objects are untouched.
struct BatchRequestTests {
    typealias Support = ContextTestSupport

    @Test func insertUpdateAndDeleteInTheStore() async throws {
        let folder = try StackFolder()
        defer { folder.remove() }
        let container = try await Support.container(in: folder.url)
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let insert = BatchInsertRequest(entityName: "Book", objects: [
                ["title": "Dune", "isbn": "1", "pages": 412], ["title": "Excession", "isbn": "2", "pages": 451], ["title": "Tehanu", "isbn": "3"],
            ])
            insert.resultType = .objectIDs
            let ids = try context.execute(insert).result as? [ManagedObjectID] ?? []
            #expect(ids.count == 3 && ids.allSatisfy { !$0.isTemporaryID && $0.entityName == "Book" })
        }
        let book = try Support.rows(container, "SELECT Z_ENT FROM ZPUBLICATION LIMIT 1")[0]
        #expect(try Support.rows(container, "SELECT ZTITLE, ZPAGES, Z_OPT, Z_ENT FROM ZPUBLICATION ORDER BY Z_PK")
            == ["Dune|412|1|\(book)", "Excession|451|1|\(book)", "Tehanu|0|1|\(book)"])
        #expect(try Support.rows(container, "SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_NAME = 'Publication'") == ["3"])

        // An object read before the batch update is in conflict when it is saved.
        let stale = container.newBackgroundContext()
        let dune = try stale.performAndWait {
            let request = FetchRequest<ManagedObject>(entityName: "Book")
            request.predicate = FetchPredicate(format: "title == %@", "Dune")
            return try stale.fetch(request)[0]
        }
        try context.performAndWait { () throws in
            let update = BatchUpdateRequest(entityName: "Book")
            update.predicate = FetchPredicate(format: "pages > 400")
            update.propertiesToUpdate = ["summary": "long", "pages": 999, "publishedAt": NSNull()]
            update.resultType = .count
            #expect(try context.execute(update).result as? Int == 2)
        }
        #expect(try Support.rows(container, "SELECT ZTITLE, ZSUMMARY, ZPAGES, Z_OPT FROM ZPUBLICATION ORDER BY Z_PK")
            == ["Dune|long|999|2", "Excession|long|999|2", "Tehanu|NULL|0|1"])
        stale.performAndWait {
            dune.setValue("Dune Messiah", forKey: "title")
            #expect(throws: NSError.self) { try stale.save() }
        }

        try context.performAndWait {
            let topic = ManagedObject(entity: container.persistentStoreCoordinator.managedObjectModel.entitiesByName["Topic"]!, insertInto: context)
            topic.setValue("sf", forKey: "name")
            let request = FetchRequest<ManagedObject>(entityName: "Book")
            for book in try context.fetch(request) { topic.addObject(book, toRelationship: "publications") }
            try context.save()
            request.predicate = FetchPredicate(format: "summary == %@", "long")
            let delete = BatchDeleteRequest(fetchRequest: request)
            delete.resultType = .count
            #expect(try context.execute(delete).result as? Int == 2)
            let byID = BatchDeleteRequest(objectIDs: [topic.objectID])
            #expect(try context.execute(byID).result as? Bool == true)
        }
        #expect(try Support.rows(container, "SELECT ZTITLE FROM ZPUBLICATION") == ["Tehanu"])
        #expect(try Support.rows(container, "SELECT COUNT(*) FROM ZTOPIC") == ["0"])
        let joinTables = try Support.rows(container, "SELECT name FROM sqlite_master WHERE type = 'table' AND name GLOB 'Z_[0-9]*'")
        for table in joinTables { #expect(try Support.rows(container, "SELECT COUNT(*) FROM \(table)") == ["0"]) }

        // A name the entity has no attribute of is refused, naming it; nothing is written.
        context.performAndWait {
            let update = BatchUpdateRequest(entityName: "Book")
            update.propertiesToUpdate = ["colour": "red"]
            do {
                _ = try context.execute(update)
                Issue.record("an unknown attribute was taken")
            } catch {
                #expect((error as NSError).code == 134060 && error.localizedDescription.contains("colour"))
            }
        }
    }
}
