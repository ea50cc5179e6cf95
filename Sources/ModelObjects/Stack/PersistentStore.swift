import Foundation
import GRDB
import ModelSchema

/// A store added to a coordinator (`NSPersistentStore`): its file, its configuration and its
/// `NSStoreUUID`, as ``PersistentStoreCoordinator/persistentStores`` lists them in the order the
/// stores were added; what a request's `affectedStores` names to run in some stores only.
public final class PersistentStore: Sendable, CustomStringConvertible {
    /// The store's `NSStoreUUID`, which the store part of its objects' IDs carries.
    public let identifier: String
    /// The store's file; nil for a store in memory.
    public let url: URL?
    /// The configuration the store was added for; Core Data's name of the default one,
    /// `PF_DEFAULT_CONFIGURATION_NAME`, when it holds every entity.
    public let configurationName: String
    /// `"SQLite"`, the value of Core Data's `NSSQLiteStoreType`: every store here is one.
    public let type = "SQLite"
    /// Whether the store was opened read-only (its description asked, or it records history
    /// its description does not track).
    public let isReadOnly: Bool
    /// The store's place among the coordinator's stores.
    let index: Int

    init(identifier: String, database: any DatabaseReader, configuration: String?, index: Int) {
        self.identifier = identifier
        let path = database.path
        url = path.isEmpty || path == ":memory:" || path.hasPrefix("file::memory:") ? nil : URL(fileURLWithPath: path)
        configurationName = ModelVersion.isDefaultConfiguration(configuration) ? "PF_DEFAULT_CONFIGURATION_NAME" : configuration ?? ""
        isReadOnly = database.configuration.readonly
        self.index = index
    }

    /// The store's identifier, configuration and file.
    public var description: String {
        "<PersistentStore \(identifier) \(configurationName) \(url?.path ?? "in memory")>"
    }
}

extension PersistentStoreCoordinator {
    /// The loaded stores, in the order they were added; empty before any is loaded.
    public var persistentStores: [PersistentStore] {
        (try? stores().all.map(\.persistentStore)) ?? []
    }

    /// The store whose file is `url`, if the coordinator has one.
    public func persistentStore(for url: URL) -> PersistentStore? {
        let path = url.standardizedFileURL.resolvingSymlinksInPath().path
        return persistentStores.first { $0.url?.standardizedFileURL.resolvingSymlinksInPath().path == path }
    }

    /// The store whose `NSStoreUUID` is `identifier` (an object ID's store part), if the coordinator has one.
    public func persistentStore(withIdentifier identifier: String) -> PersistentStore? {
        persistentStores.first { $0.identifier == identifier }
    }
}

extension PersistentStoreCoordinator.OpenedStores {
    /// The stores among `stores` a request naming `affected` runs in: all of them without it;
    /// 134060 for a store of another coordinator, which Core Data refuses too.
    func restricted(_ stores: [PersistentStoreCoordinator.OpenedStore], to affected: [PersistentStore]?) throws -> [PersistentStoreCoordinator.OpenedStore] {
        guard let affected else { return stores }
        for store in affected where !all.contains(where: { $0.persistentStore === store }) {
            throw ContextError.make(134060, "affectedStores names \(store), which is not one of this coordinator's stores")
        }
        return stores.filter { store in affected.contains { $0 === store.persistentStore } }
    }
}
