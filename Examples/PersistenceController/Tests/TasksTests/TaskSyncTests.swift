import Foundation
import ModelObjects
import Tasks
import Testing

/// The background-sync pattern on the controller's store: an import on a background context
/// reaches a task the view context already holds, and history is processed once, by token.
struct TaskSyncTests {
    @Test func anImportReachesTheViewContextsObjects() async throws {
        let (controller, tasks) = try await TaskRepositoryTests.loaded()
        let added = try await tasks.add(title: "Draft")
        let viewContext = controller.container.viewContext
        let shown = try await viewContext.perform { try viewContext.existingObject(with: added.id).objectID }
        #expect(shown == added.id)
        try await controller.container.performBackgroundTask { context in
            let task = try context.existingObject(with: added.id) as? TaskItem
            task?.title = "Final"
            try context.save()
        }
        // The view context merges the save on its own queue: what it shows changes without a fetch.
        var title: String?
        for _ in 0..<100 {
            title = try await viewContext.perform { (try viewContext.existingObject(with: added.id) as? TaskItem)?.title }
            if title == "Final" { break }
            try await Task.sleep(for: .milliseconds(10))
        }
        #expect(title == "Final")
    }

    @Test func historyIsProcessedOnceByToken() async throws {
        let (controller, tasks) = try await TaskRepositoryTests.loaded()
        let sync = TaskSync(controller)
        try await sync.importTasks(titles: ["One", "Two"])
        try await tasks.add(title: "Typed by the user")
        // The importer's save is skipped (the view context merged it as it happened); the other is merged.
        #expect(try await sync.processHistory() == 1)
        let token = try #require(sync.token)
        #expect(try await sync.processHistory() == 0)
        #expect(sync.token == token)
        // The token survives archiving, as apps keep it between runs.
        let restored = try JSONDecoder().decode(HistoryToken.self, from: JSONEncoder().encode(token))
        let resumed = TaskSync(controller, after: restored)
        try await tasks.add(title: "Later")
        #expect(try await resumed.processHistory() == 1)
        #expect(try await tasks.all().count == 4)
    }
}
