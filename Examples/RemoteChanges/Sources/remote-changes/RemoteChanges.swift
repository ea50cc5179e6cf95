import Foundation
import ModelObjects
import ModelStack

/// `remote-changes [COUNT]`: makes a store, starts a copy of itself as a writer (`remote-changes
/// write STORE COUNT`) that saves COUNT notes one save at a time, and prints each remote change
/// the writer's saves post here, with the notes history says each one inserted; fails if they
/// do not all arrive within 30 seconds.
@main
struct RemoteChanges {
    static func main() async throws {
        let arguments = Array(CommandLine.arguments.dropFirst())
        if arguments.first == "write", arguments.count == 3, let count = Int(arguments[2]) {
            try await write(count, into: URL(fileURLWithPath: arguments[1]))
        } else {
            try await watch(Int(arguments.first ?? "") ?? 3)
        }
    }

    /// A container on `store` that tracks history and posts remote changes.
    static func container(_ store: URL) async throws -> PersistentContainer {
        guard let model = Bundle.module.url(forResource: "Notes", withExtension: "momd") else {
            throw CocoaError(.fileNoSuchFile, userInfo: [NSDebugDescriptionErrorKey: "no Notes.momd in the bundle: the build plugin did not run"])
        }
        let container = try PersistentContainer(name: "Notes", model: model)
        var description = StoreDescription(url: store)
        description.persistentHistoryTracking = true
        description.postsRemoteChangeNotifications = true
        container.persistentStoreDescriptions = [description]
        try await container.loadPersistentStores()
        return container
    }

    /// The writer: `count` saves of one note each, a moment apart.
    static func write(_ count: Int, into store: URL) async throws {
        let container = try await container(store)
        let context = container.newBackgroundContext()
        context.transactionAuthor = "writer"
        for number in 1...max(count, 1) {
            try await context.perform {
                let note = ManagedObject(entity: container.persistentStoreCoordinator.managedObjectModel.entitiesByName["Note"]!, insertInto: context)
                note.setValue("note \(number)", forKey: "text")
                try context.save()
            }
            try await Task.sleep(for: .milliseconds(100))
        }
    }

    /// The watcher: starts the writer and follows its saves through remote changes and history.
    static func watch(_ count: Int) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("remote-changes-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = folder.appendingPathComponent("Notes.sqlite")
        let container = try await container(store)
        let changes = container.persistentStoreCoordinator.remoteChanges()

        let writer = Process()
        writer.executableURL = Bundle.main.executableURL
        writer.arguments = ["write", store.path, "\(count)"]
        try writer.run()
        print("writer started: process \(writer.processIdentifier)")

        let reader = container.newBackgroundContext()
        var lastToken: HistoryToken?
        var seen = 0
        let deadline = Task {
            try await Task.sleep(for: .seconds(30))
            print("error: the writer's \(count) saves did not all arrive within 30 s")
            exit(1)
        }
        for await _ in changes {
            let after = lastToken
            let transactions = try await reader.perform {
                try reader.execute(HistoryChangeRequest.fetchHistory(after: after)).transactions.map { transaction in
                    (token: transaction.token, author: transaction.author, changes: transaction.changes.map { change in
                        "\(change.changeType) \((try? reader.existingObject(with: change.changedObjectID).value(forKey: "text")) ?? "?")"
                    })
                }
            }
            for (token, author, described) in transactions where author == "writer" {
                seen += 1
                print("remote change: transaction \(token.transactionNumber) by \(author ?? "?"): \(described.joined(separator: ", "))")
            }
            lastToken = transactions.last?.token ?? lastToken
            if seen >= count { break }
        }
        deadline.cancel()
        writer.waitUntilExit()
        print("received \(seen) remote changes from the other process")
    }
}
