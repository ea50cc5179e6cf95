import Foundation
import GRDB
import ModelObjects
import ModelStack
import ModelStore
import Testing
import _ModelTestSupport

/// One context inserting, saving, fetching and deleting objects of the project's Library model,
/// checked on the rows the saves wrote against what Core Data writes (OBJECT-LAYER §A6, §A9).
struct ContextTests {
    typealias Support = ContextTestSupport

    @Test func aSaveWritesRowsKeysVersionsLinksAndOrderAsCoreDataDoes() async throws {
        let folder = try StackFolder()
        defer { folder.remove() }
        let container = try await Support.container(in: folder.url)
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let model = container.persistentStoreCoordinator.managedObjectModel
            let author = ManagedObject(entity: model.entitiesByName["Author"]!, insertInto: context)
            author.setValue("Ursula", forKey: "name")
            var publications = [ManagedObject]()
            for (entity, title) in [("Book", "A Wizard"), ("Magazine", "Asimov's"), ("Book", "The Dispossessed")] {
                let publication = ManagedObject(entity: model.entitiesByName[entity]!, insertInto: context)
                publication.setValue(title, forKey: "title")
                if entity == "Book" { publication.setValue("isbn-\(title.count)", forKey: "isbn") }
                publications.append(publication)
            }
            author.setValue(NSOrderedSet(array: publications), forKey: "publications")
            let topic = ManagedObject(entity: model.entitiesByName["Topic"]!, insertInto: context)
            topic.setValue("fantasy", forKey: "name")
            topic.addObject(publications[0], toRelationship: "publications")
            topic.addObject(publications[2], toRelationship: "publications")
            #expect(publications[0].value(forKey: "author") as? ManagedObject === author)
            #expect((publications[2].value(forKey: "topics") as? NSSet)?.count == 1)
            #expect(context.hasChanges)
            try context.save()
            #expect(!context.hasChanges)
            #expect(!author.objectID.isTemporaryID)
            #expect(author.objectID.uriRepresentation().absoluteString.hasPrefix("x-coredata://"))
            #expect(author.objectID.uriRepresentation().absoluteString.hasSuffix("/Author/p1"))
        }
        let layout = StoreLayout(container.model.currentVersion!)
        let book = layout.entity(named: "Book")!.number
        let magazine = layout.entity(named: "Magazine")!.number
        let publication = layout.entity(named: "Publication")!
        let authorColumn = publication.columns["author"]!
        // One hierarchy, one table and one key sequence; Z_OPT 1 for a row saved once; the
        // ordered to-many's order column 1024 apart from 2048, as Core Data writes a new list.
        #expect(try Support.rows(container, "SELECT Z_PK, Z_ENT, Z_OPT, \(authorColumn), \(publication.orderColumns["author"]!) FROM \(publication.table) ORDER BY Z_PK") == [
            "1|\(book)|1|1|2048", "2|\(magazine)|1|1|3072", "3|\(book)|1|1|4096",
        ])
        #expect(try Support.rows(container, "SELECT Z_NAME, Z_MAX FROM Z_PRIMARYKEY WHERE Z_MAX > 0 ORDER BY Z_ENT") == ["Author|1", "Publication|3", "Topic|1"])
        let join = layout.joinTables.first { $0.relationship == "topics" || $0.relationship == "publications" }!
        #expect(try Support.rows(container, "SELECT \(join.sourceColumn), \(join.destinationColumn) FROM \(join.table.name) ORDER BY 1, 2").count == 2)
        #expect(StoreCheck.run(storeAt: folder.url.appendingPathComponent("Library.sqlite").path, bundle: container.model).error == nil)

        // A new context reads the same graph back.
        let reader = container.newBackgroundContext()
        try reader.performAndWait {
            let authors = try reader.fetch(FetchRequest<ManagedObject>(entityName: "Author"))
            #expect(authors.count == 1)
            let titles = (authors[0].value(forKey: "publications") as? NSOrderedSet)?.array.compactMap { ($0 as? ManagedObject)?.value(forKey: "title") as? String }
            #expect(titles == ["A Wizard", "Asimov's", "The Dispossessed"])
            let books = FetchRequest<ManagedObject>(entityName: "Book")
            books.sortDescriptors = [FetchSortDescriptor(key: "title", ascending: false)]
            #expect(try reader.fetch(books).map { $0.value(forKey: "title") as? String } == ["The Dispossessed", "A Wizard"])
            #expect(try reader.fetch(books).allSatisfy { $0.entity.name == "Book" })
            #expect(try reader.count(for: FetchRequest<ManagedObject>(entityName: "Publication")) == 3)
        }
    }

    @Test func updatesBumpTheVersionAndDeletesApplyTheRules() async throws {
        let container = try await Support.container(in: nil)
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let model = container.persistentStoreCoordinator.managedObjectModel
            let book = ManagedObject(entity: model.entitiesByName["Book"]!, insertInto: context)
            book.setValue("Dune", forKey: "title")
            book.setValue("1", forKey: "isbn")
            let review = ManagedObject(entity: model.entitiesByName["Review"]!, insertInto: context)
            review.setValue(book, forKey: "publication")
            let author = ManagedObject(entity: model.entitiesByName["Author"]!, insertInto: context)
            author.setValue("Frank", forKey: "name")
            book.setValue(author, forKey: "author")
            try context.save()
            book.setValue(412, forKey: "pages")
            try context.save()
            #expect(try Support.rows(container, "SELECT Z_OPT FROM ZPUBLICATION") == ["2"])
            #expect(book.value(forKey: "pages") as? Int32 == 412)

            // Cascade takes the review, nullify clears the author's list.
            context.delete(book)
            try context.save()
            #expect(try Support.rows(container, "SELECT COUNT(*) FROM ZREVIEW") == ["0"])
            #expect(try Support.rows(container, "SELECT COUNT(*) FROM ZPUBLICATION") == ["0"])
            #expect((author.value(forKey: "publications") as? NSOrderedSet)?.count == 0)
        }
    }

    @Test func validationRefusesTheSaveWithCoreDatasCodesAndWritesNothing() async throws {
        let container = try await Support.container(in: nil)
        let context = container.newBackgroundContext()
        try context.performAndWait { () throws in
            let model = container.persistentStoreCoordinator.managedObjectModel
            let review = ManagedObject(entity: model.entitiesByName["Review"]!, insertInto: context)
            review.setValue(9, forKey: "rating")
            do {
                try context.save()
                Issue.record("the save should fail")
            } catch let error as NSError {
                // Rating above its maximum (1610) and the required publication missing (1570).
                #expect(error.code == 1560)
                let details = (error.userInfo[NSDetailedErrorsKey] as? [NSError]) ?? []
                #expect(Set(details.map(\.code)) == [1610, 1570])
                #expect(details.contains { $0.userInfo[NSValidationKeyErrorKey] as? String == "rating" && $0.userInfo[NSValidationObjectErrorKey] as? ManagedObject === review })
            }
            #expect(try Support.rows(container, "SELECT COUNT(*) FROM ZREVIEW") == ["0"])
            #expect(context.hasChanges)
            review.setValue(3, forKey: "rating")
            do {
                try context.save()
            } catch let error as NSError {
                #expect(error.code == 1570)
            }
        }
    }

    @Test func fetchesMergeUnsavedChanges() async throws {
        let container = try await Support.container(in: nil)
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let model = container.persistentStoreCoordinator.managedObjectModel
            for name in ["b", "a"] {
                let topic = ManagedObject(entity: model.entitiesByName["Topic"]!, insertInto: context)
                topic.setValue(name, forKey: "name")
            }
            try context.save()
            let request = FetchRequest<ManagedObject>(entityName: "Topic")
            request.sortDescriptors = [FetchSortDescriptor(key: "name")]
            let saved = try context.fetch(request)
            #expect(saved.map { $0.value(forKey: "name") as? String } == ["a", "b"])
            let new = ManagedObject(entity: model.entitiesByName["Topic"]!, insertInto: context)
            new.setValue("c", forKey: "name")
            context.delete(saved[0])
            saved[1].setValue("d", forKey: "name")
            #expect(try context.fetch(request).map { $0.value(forKey: "name") as? String } == ["c", "d"])
            request.predicate = FetchPredicate(format: "name == 'd'")
            #expect(try context.fetch(request).map { $0.value(forKey: "name") as? String } == ["d"])
            #expect(try context.count(for: request) == 1)
            request.includesPendingChanges = false
            #expect(try context.fetch(request).isEmpty)
            context.rollback()
            #expect(saved[1].value(forKey: "name") as? String == "b")
            #expect(!context.hasChanges)
        }
    }
}

/// A temporary folder an async test removes itself.
struct StackFolder {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("modelc-context-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    func remove() { try? FileManager.default.removeItem(at: url) }
}
