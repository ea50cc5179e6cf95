import ArgumentParser

/// `modelc store`: Core Data SQLite stores.
struct StoreCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "store",
        abstract: "Create, inspect and check Core Data SQLite stores.",
        discussion: """
            Stores are read from a private copy of their files (database, -wal, -shm), so \
            inspecting or checking a store never changes a byte of it, even a store in WAL mode \
            that an app has open. modelc never deletes or replaces a store.
            """,
        subcommands: [StoreCreateCommand.self, StoreInfoCommand.self, StoreCheckCommand.self, StoreOpenCommand.self]
    )
}
