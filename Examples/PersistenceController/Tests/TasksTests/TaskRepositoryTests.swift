import Foundation
import ModelObjects
import Tasks
import Testing

/// The repository on the controller's in-memory store: what the app's tests and previews use.
struct TaskRepositoryTests {
    /// A loaded in-memory controller and its repository.
    static func loaded() async throws -> (PersistenceController, StoreTaskRepository) {
        let controller = try PersistenceController(inMemory: true)
        try await controller.load()
        return (controller, try StoreTaskRepository(controller))
    }

    @Test func theCompiledModelIsInTheBundle() throws {
        let url = try #require(PersistenceController.modelURL)
        #expect(FileManager.default.fileExists(atPath: url.appendingPathComponent("VersionInfo.plist").path))
    }

    @Test func addedTasksComeBackOldestFirstWithTheirValues() async throws {
        let (_, tasks) = try await Self.loaded()
        let first = try await tasks.add(title: "Water the plants")
        let second = try await tasks.add(title: "Call the plumber")
        let all = try await tasks.all()
        #expect(all.map(\.title) == ["Water the plants", "Call the plumber"])
        #expect(all.map(\.id) == [first.id, second.id])
        #expect(first.id != second.id)
        #expect(!first.id.isTemporaryID)
        #expect(all.allSatisfy { !$0.isDone })
        #expect(abs(all[0].createdAt.timeIntervalSince(first.createdAt)) < 0.001)
    }

    @Test func tasksAreMarkedDoneAndDeleted() async throws {
        let (_, tasks) = try await Self.loaded()
        let kept = try await tasks.add(title: "Kept")
        let removed = try await tasks.add(title: "Removed")
        let open = try await tasks.add(title: "Open")
        try await tasks.setDone(true, for: kept.id)
        try await tasks.delete(removed.id)
        let all = try await tasks.all()
        #expect(all == [
            TaskSnapshot(id: kept.id, title: "Kept", isDone: true, createdAt: all[0].createdAt),
            TaskSnapshot(id: open.id, title: "Open", isDone: false, createdAt: all[1].createdAt),
        ])
        #expect(try await tasks.open().map(\.id) == [open.id])
        // Gone already: nothing happens.
        try await tasks.delete(removed.id)
        try await tasks.setDone(true, for: removed.id)
        #expect(try await tasks.all().count == 2)
    }

    @Test func theViewContextReadsWhatBackgroundContextsSaved() async throws {
        let (controller, tasks) = try await Self.loaded()
        let added = try await tasks.add(title: "Read on the main queue")
        let viewContext = controller.container.viewContext
        #expect(viewContext.automaticallyMergesChangesFromParent)
        #expect(viewContext.mergePolicy == .mergeByPropertyObjectTrump)
        let titles = try await viewContext.perform { () -> [String] in
            let items: [TaskItem] = try controller.container.viewContext.fetch(TaskItem.fetchRequest())
            return items.compactMap(\.title)
        }
        #expect(titles == [added.title])
    }

    @Test func eachInMemoryControllerStartsEmpty() async throws {
        let (_, first) = try await Self.loaded()
        try await first.add(title: "Only here")
        let (_, second) = try await Self.loaded()
        #expect(try await second.all().isEmpty)
        #expect(try await first.all().count == 1)
    }

    @Test func aRepositoryNeedsALoadedStore() throws {
        let controller = try PersistenceController(inMemory: true)
        #expect(throws: StoreTaskRepository.RepositoryError.self) { try StoreTaskRepository(controller) }
    }
}
