import Foundation
import GRDB
import ModelObjects
import ModelStack
import _ModelTestSupport

/// Shared steps of the object-layer tests: the project's Library model, containers on fresh
/// stores, and raw reads of what a save wrote.
enum ContextTestSupport {
    static let library = Corpus.packagePath("Models/Library.xcdatamodeld")

    /// A loaded container for `model` on a new store file in `folder` (or in memory).
    static func container(_ model: String = library, in folder: URL?) async throws -> PersistentContainer {
        let container = try PersistentContainer(name: "Library", model: URL(fileURLWithPath: model))
        container.persistentStoreDescriptions = [
            folder.map { StoreDescription(url: $0.appendingPathComponent("Library.sqlite")) } ?? .inMemory
        ]
        try await container.loadPersistentStores()
        return container
    }

    /// The error `context`'s save throws, or nil when it saves (called on its queue).
    static func saveError(_ context: ManagedObjectContext) -> NSError? {
        do {
            try context.save()
            return nil
        } catch {
            return error as NSError
        }
    }

    /// Rows of `sql` as text, columns joined by `|`.
    static func rows(_ container: PersistentContainer, _ sql: String) throws -> [String] {
        try container.database!.read { db in
            try Row.fetchAll(db, sql: sql).map { row in
                row.databaseValues.map { $0.isNull ? "NULL" : "\($0.storage.value ?? "")" }.joined(separator: "|")
            }
        }
    }
}

extension DatabaseValue.Storage {
    /// The stored value, for printing.
    var value: Any? {
        switch self {
        case .null: nil
        case .int64(let value): value
        case .double(let value): value
        case .string(let value): value
        case .blob(let value): value
        }
    }
}
