import Foundation
import GRDB
import ModelObjects
import ModelStack
import Testing
import _ModelTestSupport

/// Batch requests on a store that tracks history are recorded as saves are: one transaction per
/// request with the executing context's author and name, an insert, update (with the properties
/// it set) or delete change per row, and a deleted row's preserved values as its tombstone. Apps
/// rely on this to bring batch changes into their contexts (Apple's "Loading and displaying a
/// large data feed" merges its batch inserts and deletes from history); without tracking nothing
/// is recorded.
struct BatchHistoryTests {
    typealias Support = ContextTestSupport

    static func tracked(_ model: String, _ name: String, in folder: URL, tracking: Bool = true) async throws -> PersistentContainer {
        let container = try PersistentContainer(name: name, model: URL(fileURLWithPath: model))
        var description = StoreDescription(url: folder.appendingPathComponent("\(name).sqlite"))
        description.persistentHistoryTracking = tracking
        container.persistentStoreDescriptions = [description]
        try await container.loadPersistentStores()
        return container
    }

    @Test func eachRequestIsOneTransactionOfItsRows() async throws {
        let folder = try StackFolder()
        defer { folder.remove() }
        let container = try await Self.tracked(Support.library, "Library", in: folder.url)
        let context = container.newBackgroundContext()
        context.transactionAuthor = "importer"
        context.name = "import"
        let storeID = try context.performAndWait { try context.persistentStoreCoordinator!.storeIdentifier() }
        let transactions = try context.performAndWait {
            let insert = BatchInsertRequest(entityName: "Book", objects: [
                ["title": "Dune", "isbn": "1", "pages": 412], ["title": "Excession", "isbn": "2", "pages": 451], ["title": "Tehanu", "isbn": "3"],
            ])
            _ = try context.execute(insert)
            let update = BatchUpdateRequest(entityName: "Book")
            update.predicate = FetchPredicate(format: "pages > 400")
            update.propertiesToUpdate = ["summary": "long", "pages": 999]
            _ = try context.execute(update)
            let nothing = BatchUpdateRequest(entityName: "Book")
            nothing.predicate = FetchPredicate(format: "pages < 0")
            nothing.propertiesToUpdate = ["summary": "none"]
            _ = try context.execute(nothing)
            let request = FetchRequest<ManagedObject>(entityName: "Book")
            request.predicate = FetchPredicate(format: "title == %@", "Tehanu")
            _ = try context.execute(BatchDeleteRequest(fetchRequest: request))
            return try context.execute(HistoryChangeRequest.fetchHistory(after: nil as HistoryToken?)).transactions
        }
        // A request that changed no row records nothing.
        #expect(transactions.map(\.transactionNumber) == [1, 2, 3])
        #expect(transactions.allSatisfy { $0.author == "importer" && $0.contextName == "import" && $0.processID == ProcessInfo.processInfo.processName })
        let book = "x-coredata://\(storeID)/Book/p"
        #expect(transactions.map { $0.changes.map { "\($0.changeType) \($0.changedObjectID)" } } == [
            ["insert \(book)1", "insert \(book)2", "insert \(book)3"], ["update \(book)1", "update \(book)2"], ["delete \(book)3"],
        ])
        #expect(transactions[1].changes.map(\.updatedProperties) == [["pages", "summary"], ["pages", "summary"]])
        #expect(transactions[2].changes.first?.tombstone?.isEmpty == true)
        #expect(try Support.rows(container, "SELECT Z_ENT, Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT > 16000 ORDER BY Z_ENT") == ["16001|6", "16002|3", "16003|3"])
    }

    /// CoreDataPlus's SampleModel preserves `Person.id` on deletion: a batch delete's change
    /// keeps it, as a save's does.
    @Test(Corpus.required)
    func aBatchDeleteKeepsTheTombstone() async throws {
        let folder = try StackFolder()
        defer { folder.remove() }
        let container = try await Self.tracked(Corpus.path("\(CorpusStores.plus)/SampleModel/SampleModel.xcdatamodeld"), "People", in: folder.url)
        let context = container.newBackgroundContext()
        let id = UUID()
        let changes = try context.performAndWait {
            let insert = BatchInsertRequest(entityName: "Person", objects: [["id": id, "firstName": "Ada", "updatedAt": Date(timeIntervalSinceReferenceDate: 0)]])
            _ = try context.execute(insert)
            _ = try context.execute(BatchDeleteRequest(fetchRequest: FetchRequest<ManagedObject>(entityName: "Person")))
            return try context.execute(HistoryChangeRequest.fetchHistory(after: nil as HistoryToken?)).transactions.flatMap(\.changes)
        }
        #expect(changes.map(\.changeType) == [.insert, .delete])
        #expect(changes.last?.tombstone?["id"] as? UUID == id)
    }

    @Test func withoutTrackingNothingIsRecorded() async throws {
        let folder = try StackFolder()
        defer { folder.remove() }
        let container = try await Self.tracked(Support.library, "Library", in: folder.url, tracking: false)
        let context = container.newBackgroundContext()
        try context.performAndWait {
            _ = try context.execute(BatchInsertRequest(entityName: "Book", objects: [["title": "Dune", "isbn": "1"]]))
        }
        #expect(try Support.rows(container, "SELECT COUNT(*) FROM sqlite_master WHERE name = 'ATRANSACTION'") == ["0"])
        #expect(try Support.rows(container, "SELECT COUNT(*) FROM ZPUBLICATION") == ["1"])
    }
}
