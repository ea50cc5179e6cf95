import CoreData
import Testing
@testable import Items

/// The guide's stack on a store file: a container subclass, history, and merging other authors.
@Suite(.serialized) struct ItemsContainerTests {
    /// A folder of its own for each test's store.
    private static func freshDirectory() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ItemsContainerTests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    /// The overridden `defaultDirectoryURL()` places the store, and the overridden
    /// `newBackgroundContext()` gives contexts the app's author and merge policy.
    @Test func theSubclassPlacesTheStoreAndConfiguresItsContexts() throws {
        let folder = try Self.freshDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        ItemsContainer.storeDirectory = folder
        let container = ItemsContainer.make()
        #expect(container.persistentStoreDescriptions.first?.url == folder.appendingPathComponent("Items.sqlite"))
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("Items.sqlite").path))
        let background = container.newBackgroundContext()
        #expect(background.transactionAuthor == ItemsContainer.appAuthor)
        #expect(background.mergePolicy == NSMergeByPropertyObjectTrumpMergePolicy)
    }

    /// History fetched with an author predicate leaves out the app's own saves and brings another
    /// author's into the view context.
    @Test func anotherAuthorsSaveIsMergedThroughHistory() throws {
        let folder = try Self.freshDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        ItemsContainer.storeDirectory = folder
        let container = ItemsContainer.make()
        let merger = HistoryMerger(container: container)

        let own = container.newBackgroundContext()
        try own.performAndWait {
            Item(context: own).timestamp = Date()
            try own.save()
        }
        #expect(try merger.mergeNewTransactions() == 0)

        let other = container.newBackgroundContext()
        other.transactionAuthor = "widget"
        try other.performAndWait {
            Item(context: other).timestamp = Date()
            try other.save()
        }
        #expect(try merger.mergeNewTransactions() == 1)
        #expect(try merger.mergeNewTransactions() == 0)
        #expect(merger.lastToken != nil)
    }
}
