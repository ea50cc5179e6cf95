import Foundation
import ModelStore

/// How one store is loaded, as `NSPersistentStoreDescription` says it: where it is, what kind,
/// and what the loader may do to it (migrate, how long to wait for a lock).
public struct StoreDescription: Sendable, Equatable, CustomStringConvertible {
    /// The kind of store.
    public enum StoreType: String, Sendable, Equatable {
        /// A SQLite file in Core Data's layout.
        case sqlite
        /// An in-memory SQLite database with Core Data's layout, gone with its container.
        case inMemory
    }

    /// How a SQLite store journals; Core Data's default is WAL.
    public typealias JournalMode = StoreCreator.JournalMode

    /// The store file; `/dev/null` selects an in-memory store, as apps do on Apple platforms,
    /// whenever it is set and whatever ``type`` says (``isInMemory``).
    public var url: URL
    /// `.inMemory` for a `/dev/null` URL given to ``init(url:)``, else `.sqlite`.
    public var type: StoreType
    /// Whether the store lives in memory only: of type `.inMemory`, or a SQLite store at
    /// `/dev/null`, which Core Data opens in memory (the Xcode template's preview and test stores
    /// set that URL on a description made for a file).
    public var isInMemory: Bool { type == .inMemory || url.path == "/dev/null" }
    /// The model configuration whose entities the store holds (`NSPersistentStoreDescription.configuration`):
    /// a store created for it has only their tables, and only their hashes must match to open it;
    /// nil (or "Default") is the default configuration, every entity.
    public var configuration: String?
    /// Open for reading only: never create, migrate or recover the store.
    public var isReadOnly = false
    /// Migrate a store made by another version of the model (Core Data's
    /// `NSMigratePersistentStoresAutomaticallyOption`); off, such a store fails with 134100.
    public var shouldMigrateStoreAutomatically = true
    /// Infer the mapping when no mapping model fits (`NSInferMappingModelAutomaticallyOption`);
    /// off, a migration needs a mapping model from ``mappingModelLocations``, or fails with 134140.
    public var shouldInferMappingModelAutomatically = true
    /// Where to look for mapping models (`.xcmappingmodel`, `.cdm`, or folders holding them), as
    /// Core Data looks in the app's bundles: the first whose hashes match the store's version
    /// and the current version is used, with the container's ``PersistentContainer/migrationPolicies``.
    public var mappingModelLocations: [URL] = []
    /// The journal mode of a store this loader creates or opens for writing.
    public var journalMode: JournalMode = .wal
    /// How long to keep retrying a store another process holds locked, in seconds
    /// (as `NSPersistentStoreTimeoutOption`); 240 s by default.
    public var timeout: TimeInterval = 240
    /// Record persistent history (`NSPersistentHistoryTrackingKey`): a store created or opened for
    /// writing gets Core Data's history tables. Off (Core Data's default), a store that has them
    /// opens read-only, as Core Data forces it ("Store opened without
    /// NSPersistentHistoryTrackingKey but previously had been opened with").
    public var persistentHistoryTracking = false
    /// Post a remote-change notification for every commit to the store, by this process or any
    /// other (Core Data's `NSPersistentStoreRemoteChangeNotificationPostOptionKey`, whose string
    /// is "NSPersistentStoreRemoteChangeNotificationOptionKey"): the object layer's coordinator
    /// watches the store's files and posts `NSPersistentStoreRemoteChange`. Off by default.
    public var postsRemoteChangeNotifications = false
    /// Load the store on a background thread, the completion handler of
    /// ``PersistentContainer/loadPersistentStores(completionHandler:)`` called from there later
    /// (`shouldAddStoreAsynchronously`); off (Core Data's default), the store is loaded on the
    /// calling thread and the handler called before the call returns, so the next line can use it.
    public var shouldAddStoreAsynchronously = false
    /// Back the store up beside it before migrating (`NAME.pre-VERSION-TIME.EXT`). Core Data
    /// makes no backup; the migration itself is atomic either way.
    public var backsUpBeforeMigration = true

    /// A description of the store at `url`.
    public init(url: URL) {
        self.url = url
        type = url.path == "/dev/null" ? .inMemory : .sqlite
    }

    /// An in-memory store (the `/dev/null` URL).
    public static var inMemory: StoreDescription { StoreDescription(url: URL(fileURLWithPath: "/dev/null")) }

    /// The store's path, or "in-memory store".
    public var description: String { isInMemory ? "in-memory store" : url.path }
}
