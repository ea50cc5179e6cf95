import Foundation
import ModelCompiler
import ModelObjects
import ModelStack
import Testing
import _ModelTestSupport

/// The classes `modelc generate` writes for the Library model (checked in under `generated/`),
/// compiled into these tests and used as an app uses Xcode's: made with `init(context:)`,
/// fetched with `fetchRequest()`, changed through typed properties and generated accessors.
struct GeneratedClassTests {
    typealias Support = ContextTestSupport
    static let generated = "Tests/ModelObjectsTests/generated/Library+CoreDataModel.swift"

    @Test func theCheckedInClassesAreUpToDate() throws {
        let bundle = try #require(ModelSources.reader.read(at: Support.library).bundle)
        let expected = ClassGenerator(try #require(bundle.currentVersion), modelName: "Library.xcdatamodeld").singleFile(named: "Library")
        let checkedIn = try String(contentsOfFile: Corpus.packagePath(Self.generated), encoding: .utf8)
        #expect(
            checkedIn == expected.contents,
            "stale: run `swift run modelc generate Models/Library.xcdatamodeld -o Tests/ModelObjectsTests/generated --single-file`")
    }

    @Test func objectsAreMadeSavedAndFetchedAsTheirClasses() async throws {
        let folder = try StackFolder()
        defer { folder.remove() }
        let container = try await Support.container(in: folder.url)
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let author = Author(context: context)
            author.name = "Ursula K. Le Guin"
            let book = Book(context: context)
            book.title = "The Dispossessed"
            book.isbn = "978-0-06-051275-4"
            book.pages = 387
            let magazine = Magazine(context: context)
            magazine.title = "Asimov's"
            magazine.issue = 7
            author.addToPublications(book)
            author.insertIntoPublications(magazine, at: 0)
            let review = Review(context: context)
            review.rating = 5
            review.publication = book
            #expect(book.author === author)
            #expect(book.reviews?.count == 1)
            try context.save()
        }
        // Another container on the same store: there, the first use of the classes is a fetch,
        // typed by its request; the objects it reaches through relationships are of their classes too.
        let second = try await Support.container(in: folder.url)
        let reader = second.newBackgroundContext()
        // The coordinator holds its container weakly: keep it for the reads.
        try withExtendedLifetime(second) { try reader.performAndWait {
            let authors = try reader.fetch(Author.fetchRequest())
            #expect(authors.map(\.name) == ["Ursula K. Le Guin"])
            let publications = try #require(authors.first?.publications)
            #expect(publications.array.allSatisfy { $0 is Publication })
            #expect(publications.array.compactMap { ($0 as? Publication)?.title } == ["Asimov's", "The Dispossessed"])
            let book = try #require(publications.array.last as? Book)
            #expect(book.pages == 387)
            #expect(book.isbn == "978-0-06-051275-4")
            // A saved to-one read through its typed property: the registered author, of its class.
            #expect(book.author === authors[0])
            #expect(authors[0].publications?.array.compactMap { ($0 as? Publication)?.author?.name } == ["Ursula K. Le Guin", "Ursula K. Le Guin"])
            #expect((book.reviews?.anyObject() as? Review)?.rating == 5)
            #expect((publications.array.first as? Magazine)?.issue == 7)
            #expect(authors[0].born == nil)
        } }
        withExtendedLifetime(container) {}
    }

    @Test func orderedAccessorsWorkAtIndexes() async throws {
        let container = try await Support.container(in: nil)
        let context = container.newBackgroundContext()
        context.performAndWait {
            let author = Author(context: context)
            author.name = "Octavia E. Butler"
            let books = ["Kindred", "Dawn", "Imago", "Fledgling"].map { title in
                let book = Book(context: context)
                book.title = title
                return book
            }
            author.insertIntoPublications([books[0], books[1], books[2]], at: NSIndexSet(indexesIn: NSRange(location: 0, length: 3)))
            author.replacePublications(at: 1, with: books[3])
            author.removeFromPublications(at: NSIndexSet(index: 0))
            #expect(author.publications?.array.compactMap { ($0 as? Book)?.title } == ["Fledgling", "Imago"])
            #expect(books[1].author == nil)
            author.removeFromPublications(NSOrderedSet(array: [books[2]]))
            #expect(author.publications?.count == 1)
        }
        withExtendedLifetime(container) {}
    }

    /// A generated property's key remembers where its property is in the last entity it was used
    /// with: read alternately from objects of two subentities, and from two containers whose
    /// models were loaded apart (two descriptions of each entity), each read still gets its own
    /// object's value; a key of a property the entity lacks reads nil and writes nothing.
    @Test func propertyKeysFindTheirPropertyInEveryEntityTheyMeet() async throws {
        let (first, second) = (try StackFolder(), try StackFolder())
        defer { first.remove(); second.remove() }
        let containers = [try await Support.container(in: first.url), try await Support.container(in: second.url)]
        let contexts = containers.map { $0.newBackgroundContext() }
        var publications = [Publication]()
        for (index, context) in contexts.enumerated() {
            context.performAndWait {
                let book = Book(context: context)
                book.title = "Book \(index)"
                let magazine = Magazine(context: context)
                magazine.title = "Magazine \(index)"
                magazine.issue = Int16(index + 7)
                publications += [book, magazine]
            }
        }
        #expect(contexts[0].performAndWait { publications[0].entity } !== contexts[1].performAndWait { publications[2].entity })
        for _ in 0..<3 {
            for (index, publication) in publications.enumerated() {
                let title = publication.managedObjectContext!.performAndWait { publication.title }
                #expect(title == "\(index % 2 == 0 ? "Book" : "Magazine") \(index / 2)")
            }
        }
        let issue = ManagedPropertyKey("issue")
        contexts[0].performAndWait {
            #expect(publications[1].managedValue(for: issue, as: Int16.self) == 7)
            #expect(publications[0].value(for: issue) == nil)
            publications[0].setValue(Int16(3), for: issue)
            #expect(publications[0].value(forKey: "issue") == nil)
            #expect(publications[1].managedValue(for: issue, as: Int16.self) == 7)
        }
        withExtendedLifetime(containers) {}
    }

    /// A fetch's results are of the type its request names: the classes of an entity and its
    /// subentities together when that is their superclass, only the matching ones when it is a
    /// subclass, and any object when it is a protocol every object conforms to.
    @Test func resultsOfSeveralClassesComeAsTheRequestsType() async throws {
        let container = try await Support.container(in: nil)
        let context = container.newBackgroundContext()
        try context.performAndWait {
            for index in 0..<3 {
                let book = Book(context: context)
                book.title = "Book \(index)"
                book.isbn = "isbn \(index)"
                Magazine(context: context).title = "Magazine \(index)"
            }
            try context.save()
            context.reset()
            let publications = try context.fetch(FetchRequest<Publication>(entityName: "Publication"))
            #expect(publications.count == 6)
            #expect(publications.filter { $0 is Book }.count == 3 && publications.filter { $0 is Magazine }.count == 3)
            let books = try context.fetch(FetchRequest<Book>(entityName: "Publication"))
            #expect(books.count == 3 && books.allSatisfy { $0.title?.hasPrefix("Book") == true })
            let results = try context.fetch(FetchRequest<any FetchRequestResult>(entityName: "Publication"))
            #expect(results.count == 6 && results.allSatisfy { $0 is Publication })
            let objects = try context.fetch(FetchRequest<ManagedObject>(entityName: "Magazine"))
            #expect(objects.count == 3 && objects.allSatisfy { $0 is Magazine })
        }
    }
}
