import Foundation
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
        #expect(all.allSatisfy { !$0.isDone })
        #expect(abs(all[0].createdAt.timeIntervalSince(first.createdAt)) < 0.001)
    }

    @Test func tasksAreMarkedDoneAndDeleted() async throws {
        let (_, tasks) = try await Self.loaded()
        let kept = try await tasks.add(title: "Kept")
        let removed = try await tasks.add(title: "Removed")
        try await tasks.setDone(true, for: kept.id)
        try await tasks.delete(removed.id)
        #expect(try await tasks.all() == [TaskItem(id: kept.id, title: "Kept", isDone: true, createdAt: try await tasks.all()[0].createdAt)])
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
