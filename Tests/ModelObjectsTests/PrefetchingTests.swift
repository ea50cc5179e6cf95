import Foundation
import GRDB
import ModelObjects
import ModelStack
import Testing
import _ModelTestSupport

/// `relationshipKeyPathsForPrefetching`: the relationships a fetch names, through several steps,
/// are read with the fetch, so the objects they lead to are there, values and all, even once the
/// rows are gone from the store; without prefetching, the same walk reads the store and finds
/// nothing.
struct PrefetchingTests {
    typealias Support = ContextTestSupport

    @Test func prefetchedRelationshipsAreReadWithTheFetch() async throws {
        let folder = try StackFolder()
        defer { folder.remove() }
        let container = try await Support.container(in: folder.url)
        let writer = container.newBackgroundContext()
        try writer.performAndWait {
            let model = container.persistentStoreCoordinator.managedObjectModel
            let fantasy = ManagedObject(entity: model.entitiesByName["Topic"]!, insertInto: writer)
            fantasy.setValue("fantasy", forKey: "name")
            for (name, titles) in [("Ursula", ["A Wizard", "Tehanu", "The Farthest Shore"]), ("Frank", ["Dune"]), ("Nobody", [])] {
                let author = ManagedObject(entity: model.entitiesByName["Author"]!, insertInto: writer)
                author.setValue(name, forKey: "name")
                for title in titles {
                    let book = ManagedObject(entity: model.entitiesByName["Book"]!, insertInto: writer)
                    book.setValue(title, forKey: "title")
                    book.setValue("isbn-\(title)", forKey: "isbn")
                    book.setValue(author, forKey: "author")
                    if name == "Ursula" { book.addObject(fantasy, toRelationship: "topics") }
                }
            }
            try writer.save()
        }
        let prefetching = container.newBackgroundContext()
        let plain = container.newBackgroundContext()
        let request = FetchRequest<ManagedObject>(entityName: "Author")
        request.sortDescriptors = [FetchSortDescriptor(key: "name")]
        let fetched = try prefetching.performAndWait {
            request.relationshipKeyPathsForPrefetching = ["publications.topics"]
            return try prefetching.fetch(request)
        }
        let unprefetched = try plain.performAndWait {
            request.relationshipKeyPathsForPrefetching = nil
            return try plain.fetch(request)
        }
        // The rows go; what was prefetched stays, in the relationship's order.
        try await container.database!.write { db in
            let joinTables = try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name GLOB 'Z_[0-9]*'")
            for table in ["ZPUBLICATION", "ZTOPIC"] + joinTables { try db.execute(sql: "DELETE FROM \(table)") }
        }
        prefetching.performAndWait {
            let walk = fetched.map { author in
                ((author.value(forKey: "publications") as? NSOrderedSet)?.array ?? []).map { book in
                    let topics = (book as? ManagedObject)?.value(forKey: "topics") as? NSSet
                    let names = topics?.allObjects.compactMap { ($0 as? ManagedObject)?.value(forKey: "name") as? String } ?? []
                    return "\((book as? ManagedObject)?.value(forKey: "title") as? String ?? "?")/\(names.joined())"
                }
            }
            #expect(walk == [["Dune/"], [], ["A Wizard/fantasy", "Tehanu/fantasy", "The Farthest Shore/fantasy"]])
        }
        plain.performAndWait {
            #expect(unprefetched.map { ($0.value(forKey: "publications") as? NSOrderedSet)?.count ?? -1 } == [0, 0, 0])
        }
    }
}
