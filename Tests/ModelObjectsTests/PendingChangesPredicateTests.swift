import Foundation
import ModelObjects
import Testing

/// A fetch with unsaved changes (store rows plus objects the evaluator matches) returns the
/// objects the same fetch returns from the store once the changes are saved: the merge follows
/// the store's rule for nil and its to-many, collection-operator and SUBQUERY semantics.
struct PendingChangesPredicateTests {
    typealias Support = ContextTestSupport

    @Test func unsavedObjectsMatchAsTheyWillOnceSaved() async throws {
        let container = try await Support.container(in: nil)
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let model = container.persistentStoreCoordinator.managedObjectModel
            func insert(_ entity: String, _ values: [String: Any?]) -> ManagedObject {
                let object = ManagedObject(entity: model.entitiesByName[entity]!, insertInto: context)
                for (key, value) in values { object.setValue(value, forKey: key) }
                return object
            }
            let early = Date(timeIntervalSinceReferenceDate: 1_000)
            let ann = insert("Author", ["name": "Ann", "born": early])
            let bob = insert("Author", ["name": "Bob", "email": "b@x"])
            let swift = insert("Topic", ["name": "swift"])
            let alpha = insert("Book", ["title": "Alpha", "isbn": "1", "pages": 100, "author": ann, "topics": [swift]])
            _ = insert("Review", ["rating": 4, "publication": alpha])
            try context.save()

            let cid = insert("Author", ["name": "Cid"])
            let dee = insert("Author", ["name": "Dee", "born": Date(timeIntervalSinceReferenceDate: 2_000), "email": "d@x"])
            let beta = insert("Book", ["title": "Beta", "isbn": "2", "pages": 300, "author": cid, "topics": [swift]])
            _ = insert("Magazine", ["title": "Gamma", "issue": 3, "author": dee])
            _ = insert("Review", ["rating": 2, "publication": beta])
            _ = insert("Review", ["rating": 5, "publication": beta, "text": "great"])
            alpha.setValue(150, forKey: "pages")
            bob.setValue(nil, forKey: "email")

            let fetches: [(String, String, [Any])] = [
                ("Author", "born != %@", [early]), ("Author", "NOT (email == 'b@x')", []), ("Author", "email != nil", []),
                ("Author", "ANY publications.title BEGINSWITH[c] 'b'", []), ("Author", "publications.@count == 0", []),
                ("Author", "ALL publications.title != 'Alpha'", []), ("Author", "SUBQUERY(publications, $p, ANY $p.reviews.rating >= 5).@count > 0", []),
                ("Author", "SELF IN %@ OR name ENDSWITH 'e'", [[ann]]),
                ("Publication", "author.born == nil", []), ("Publication", "author.name IN {'Cid', 'Ann'}", []),
                ("Publication", "reviews.@avg.rating > 3", []), ("Publication", "reviews.@max.rating == 5", []),
                ("Publication", "entity.name == 'Magazine'", []), ("Publication", "ANY topics.name ==[c] 'SWIFT'", []),
                ("Publication", "NONE reviews.rating < 3", []), ("Publication", "title LIKE '?e*'", []), ("Publication", "author == %@", [ann]),
                ("Review", "publication.author.name == 'Cid'", []), ("Review", "rating BETWEEN {2, 4}", []), ("Review", "text == nil", []),
                ("Book", "pages > 120", []), ("Topic", "publications.@count == 2", []),
            ]
            func results() throws -> [[ObjectIdentifier]] {
                try fetches.map { entity, format, arguments in
                    let request = FetchRequest<ManagedObject>(entityName: entity)
                    request.predicate = FetchPredicate(format: format, argumentArray: arguments)
                    return try context.fetch(request).map(ObjectIdentifier.init).sorted { "\($0)" < "\($1)" }
                }
            }
            let merged = try results()
            try context.save()
            let stored = try results()
            for (index, fetch) in fetches.enumerated() {
                #expect(merged[index] == stored[index], "\(fetch.0): \(fetch.1): \(merged[index].count) unsaved, \(stored[index].count) saved")
            }
            #expect(merged.filter(\.isEmpty).count <= 2)
        }
    }
}
