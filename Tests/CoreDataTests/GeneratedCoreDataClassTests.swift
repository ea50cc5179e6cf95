import CoreData
import Foundation
import ModelCompiler
import Testing
import _ModelTestSupport

/// The classes `modelc generate --api coredata` writes for the Library model (checked in under
/// `generated/`): Xcode's `+CoreDataClass`/`+CoreDataProperties` text with `@Managed` and
/// `@ManagedAccessor` for `@NSManaged`, compiled into these tests and used as an app uses
/// Xcode's generated classes.
struct GeneratedCoreDataClassTests {
    static let library = Corpus.packagePath("Models/Library.xcdatamodeld")
    static let generated = "Tests/CoreDataTests/generated/Library+CoreDataModel.swift"

    @Test func theCheckedInClassesAreUpToDate() throws {
        let bundle = try #require(ModelSources.reader.read(at: Self.library).bundle)
        let generator = ClassGenerator(try #require(bundle.currentVersion), modelName: "Library.xcdatamodeld", api: .coreData)
        let checkedIn = try String(contentsOfFile: Corpus.packagePath(Self.generated), encoding: .utf8)
        #expect(
            checkedIn == generator.singleFile(named: "Library").contents,
            "stale: run `swift run modelc generate Models/Library.xcdatamodeld -o Tests/CoreDataTests/generated --single-file --api coredata`")
    }

    @Test func generatedClassesSaveAndFetch() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("modelc-generated-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let container = try PersistentContainer(name: "Library", model: URL(fileURLWithPath: Self.library))
        container.persistentStoreDescriptions = [StoreDescription(url: folder.appendingPathComponent("Library.sqlite"))]
        try await container.loadPersistentStores()
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let author = Author(context: context)
            author.name = "Ursula K. Le Guin"
            let books = ["The Dispossessed", "The Lathe of Heaven", "Always Coming Home", "The Word for World Is Forest"].map { title in
                let book = Book(context: context)
                book.title = title
                book.isbn = title
                book.pages = 300
                return book
            }
            author.addToPublications(books[0])
            author.insertIntoPublications([books[1], books[2]], at: NSIndexSet(indexesIn: NSRange(location: 0, length: 2)))
            author.replacePublications(at: 1, with: books[3])
            author.removeFromPublications(at: 0)
            #expect(books[1].author == nil)
            let review = Review(context: context)
            review.rating = 5
            review.publication = books[0]
            #expect(books[0].reviews?.count == 1)
            try context.save()
        }
        let reader = container.newBackgroundContext()
        try reader.performAndWait {
            let authors = try reader.fetch(Author.fetchRequest())
            let titles = authors.first?.publications?.array.compactMap { ($0 as? Book)?.title }
            #expect(titles == ["The Word for World Is Forest", "The Dispossessed"])
            let book = try #require(authors.first?.publications?.lastObject as? Book)
            #expect(book.pages == 300)
            #expect((book.reviews?.anyObject() as? Review)?.rating == 5)
        }
    }
}
