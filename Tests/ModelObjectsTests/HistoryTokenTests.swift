import Foundation
import ModelObjects
import ModelStack
import Testing
import _ModelTestSupport

/// The coordinator's current history token (`currentPersistentHistoryToken(fromStores:)`) and the
/// token a save's did-save notification carries ("newChangeToken"), as CoreDataPlus's
/// `NSManagedObjectContextHistory_Tests` find them on Apple platforms: a store that tracks history
/// has a token before any save, the token after a save is that save's transaction's, two
/// coordinators of one store agree on it, and a store without history has none.
struct HistoryTokenTests {
    typealias Support = ContextTestSupport

    /// The current token of every store of `container`.
    static func current(_ container: PersistentContainer) -> HistoryToken? {
        let coordinator = container.persistentStoreCoordinator
        return coordinator.currentPersistentHistoryToken(fromStores: coordinator.persistentStores)
    }

    /// Inserts an author named `name` through `context` and saves.
    static func insertAuthor(_ name: String, _ context: ManagedObjectContext) throws -> ManagedObjectID {
        try context.performAndWait {
            let author = ManagedObject(entity: context.persistentStoreCoordinator!.managedObjectModel.entitiesByName["Author"]!, insertInto: context)
            author.setValue(name, forKey: "name")
            try context.save()
            return author.objectID
        }
    }

    /// `test_MergeHistoryAfterNilTokenWithoutAnyHistoryChanges`, `test_InvestigationHistoryFetches`.
    @Test func theCurrentTokenStandsForTheNewestTransaction() async throws {
        let folder = try StackFolder()
        defer { folder.remove() }
        let container = try await BatchHistoryTests.tracked(Support.library, "Library", in: folder.url)
        let other = try await BatchHistoryTests.tracked(Support.library, "Library", in: folder.url)
        let context = container.newBackgroundContext()
        // A new store: a token, and no history after it.
        let initial = try #require(Self.current(container))
        #expect(try context.performAndWait { try context.execute(HistoryChangeRequest.fetchHistory(after: initial)).transactions }.isEmpty)
        var tokens = [initial]
        for name in ["Le Guin", "Banks"] {
            _ = try Self.insertAuthor(name, context)
            let token = try #require(Self.current(container))
            #expect(token == Self.current(other))
            tokens.append(token)
        }
        let transactions = try context.performAndWait { try context.execute(HistoryChangeRequest.fetchHistory(after: initial)).transactions }
        #expect(transactions.map(\.token) == Array(tokens.dropFirst()))
        // nil or no stores: every store.
        #expect(container.persistentStoreCoordinator.currentPersistentHistoryToken(fromStores: nil) == tokens.last)
        #expect(container.persistentStoreCoordinator.currentPersistentHistoryToken(fromStores: []) == tokens.last)
    }

    /// A store that does not track history has no token ("nil if the coordinator can't create one").
    @Test func aStoreWithoutHistoryHasNoToken() async throws {
        let folder = try StackFolder()
        defer { folder.remove() }
        let container = try await BatchHistoryTests.tracked(Support.library, "Library", in: folder.url, tracking: false)
        _ = try Self.insertAuthor("Le Guin", container.newBackgroundContext())
        #expect(Self.current(container) == nil)
    }

    /// `test_PersistentStoreWithHistoryTrackingEnabledGeneratesHistoryTokens` and its
    /// `…DisabledDoesntGenerateHistoryTokens`: did-save's user info holds the save's token under
    /// "newChangeToken" when the store tracks history, and nothing there otherwise.
    @Test(arguments: [true, false])
    func didSaveCarriesTheNewChangeToken(tracking: Bool) async throws {
        let folder = try StackFolder()
        defer { folder.remove() }
        let container = try await BatchHistoryTests.tracked(Support.library, "Library", in: folder.url, tracking: tracking)
        let context = container.newBackgroundContext()
        let posted = Posted()
        let observer = NotificationCenter.default.addObserver(forName: ManagedObjectContext.didSaveObjectsNotification, object: context, queue: nil) { note in
            posted.append(note.userInfo?["newChangeToken"] as? HistoryToken)
        }
        defer { NotificationCenter.default.removeObserver(observer) }
        _ = try Self.insertAuthor("Le Guin", context)
        let tokens = posted.tokens
        #expect(tokens.count == 1)
        if tracking {
            let saved = try context.performAndWait { try context.execute(HistoryChangeRequest.fetchHistory(after: nil as HistoryToken?)).transactions }
            #expect(tokens.first == saved.last?.token && tokens.first == Self.current(container))
            #expect(tokens.first??.transactionNumber == 1)
        } else {
            #expect(tokens.first == .some(nil))
        }
    }
}

/// The tokens did-save notifications carried, gathered from the saving queue.
private final class Posted: @unchecked Sendable {
    private let lock = NSLock()
    private var gathered = [HistoryToken?]()

    func append(_ token: HistoryToken?) { lock.withLock { gathered.append(token) } }

    var tokens: [HistoryToken?] { lock.withLock { gathered } }
}
