import Foundation
import ModelStack

/// How one store of an ``NSPersistentContainer`` is loaded (`NSPersistentStoreDescription`): a
/// class, so that the container's own descriptions can be changed in place before loading
/// (`container.persistentStoreDescriptions.first!.url = URL(fileURLWithPath: "/dev/null")`
/// makes the store in-memory, as the Xcode template's preview does). The loading flags are kept
/// in ``options`` under Core Data's keys, so setting either one sets both.
open class NSPersistentStoreDescription: CustomStringConvertible, @unchecked Sendable {
    /// The store file; `/dev/null` for a store in memory.
    open var url: URL? {
        get { locked { $0.url } }
        set { locked { $0.url = newValue } }
    }
    /// `NSSQLiteStoreType` (the default) or `NSInMemoryStoreType`; another type fails to load
    /// with Core Data's 134000.
    open var type: String {
        get { locked { $0.type } }
        set { locked { $0.type = newValue } }
    }
    /// The model configuration whose entities the store holds; nil for every entity.
    open var configuration: String? {
        get { locked { $0.configuration } }
        set { locked { $0.configuration = newValue } }
    }
    /// Load the store on another thread, the completion handler called from there.
    open var shouldAddStoreAsynchronously: Bool {
        get { locked { $0.addsAsynchronously } }
        set { locked { $0.addsAsynchronously = newValue } }
    }
    /// The options under Core Data's keys (``NSPersistentHistoryTrackingKey`` and the others).
    open var options: [String: NSObject] { locked { $0.options } }
    /// The SQLite pragmas set with ``setValue(_:forPragmaNamed:)``.
    open var sqlitePragmas: [String: NSObject] { locked { $0.pragmas } }

    /// What a description holds, under the lock that lets it cross threads (a description is
    /// handed to a completion handler on the loading thread while the app may still change it).
    private struct State {
        var url: URL?
        var type = NSSQLiteStoreType
        var configuration: String?
        var addsAsynchronously = false
        var options: [String: NSObject] = [:]
        var pragmas: [String: NSObject] = [:]
    }

    private let lock = NSLock()
    private var state = State()

    /// Reads or changes the state under the lock.
    private func locked<T>(_ body: (inout State) -> T) -> T {
        lock.withLock { body(&state) }
    }

    /// A description of the SQLite store at `url`.
    public init(url: URL) {
        locked { $0.url = url }
    }

    /// A description with no URL yet.
    public init() {}

    /// Open for reading only (``NSReadOnlyPersistentStoreOption``); off by default.
    open var isReadOnly: Bool {
        get { flag(NSReadOnlyPersistentStoreOption, default: false) }
        set { setOption(NSNumber(value: newValue), forKey: NSReadOnlyPersistentStoreOption) }
    }

    /// Seconds to wait for a locked store (``NSPersistentStoreTimeoutOption``); 240 by default.
    open var timeout: TimeInterval {
        get { (options[NSPersistentStoreTimeoutOption] as? NSNumber)?.doubleValue ?? 240 }
        set { setOption(NSNumber(value: newValue), forKey: NSPersistentStoreTimeoutOption) }
    }

    /// Migrate a store of another version (``NSMigratePersistentStoresAutomaticallyOption``); on by default.
    open var shouldMigrateStoreAutomatically: Bool {
        get { flag(NSMigratePersistentStoresAutomaticallyOption, default: true) }
        set { setOption(NSNumber(value: newValue), forKey: NSMigratePersistentStoresAutomaticallyOption) }
    }

    /// Infer a migration's mapping (``NSInferMappingModelAutomaticallyOption``); on by default.
    open var shouldInferMappingModelAutomatically: Bool {
        get { flag(NSInferMappingModelAutomaticallyOption, default: true) }
        set { setOption(NSNumber(value: newValue), forKey: NSInferMappingModelAutomaticallyOption) }
    }

    /// Sets the option `key` to `option`, or removes it for nil.
    open func setOption(_ option: NSObject?, forKey key: String) {
        locked { $0.options[key] = option }
    }

    /// Sets the SQLite pragma `name` to `value`, or removes it for nil. `journal_mode` chooses
    /// the journal (`WAL`; `DELETE`, `TRUNCATE` or `PERSIST` for a rollback journal); the others
    /// are kept and not applied.
    open func setValue(_ value: NSObject?, forPragmaNamed name: String) {
        locked { $0.pragmas[name] = value }
    }

    /// The Boolean option `key` (a number, or a string as property lists give them).
    private func flag(_ key: String, default value: Bool) -> Bool {
        switch options[key] {
        case let number as NSNumber: number.boolValue
        case let text as NSString: text.boolValue
        default: value
        }
    }

    /// The loader's description of the store, or Core Data's error for a store it cannot load:
    /// 134000 for a type other than SQLite or in-memory, 134070 for a SQLite store without a URL.
    func storeDescription() throws -> StoreDescription {
        var description: StoreDescription
        switch type {
        case NSInMemoryStoreType:
            description = .inMemory
        case NSSQLiteStoreType:
            guard let url else {
                throw NSError(domain: NSCocoaErrorDomain, code: 134070, userInfo: [NSLocalizedFailureReasonErrorKey: "the SQLite store has no URL"])
            }
            description = StoreDescription(url: url)
        default:
            throw NSError(domain: NSCocoaErrorDomain, code: 134000, userInfo: [NSLocalizedFailureReasonErrorKey: "unsupported store type '\(type)'"])
        }
        description.configuration = configuration
        description.isReadOnly = isReadOnly
        description.timeout = timeout
        description.shouldMigrateStoreAutomatically = shouldMigrateStoreAutomatically
        description.shouldInferMappingModelAutomatically = shouldInferMappingModelAutomatically
        description.shouldAddStoreAsynchronously = shouldAddStoreAsynchronously
        description.persistentHistoryTracking = flag(NSPersistentHistoryTrackingKey, default: false)
        description.postsRemoteChangeNotifications = flag(NSPersistentStoreRemoteChangeNotificationPostOptionKey, default: false)
        let pragmas = sqlitePragmas.merging((options[NSSQLitePragmasOption] as? NSDictionary).map(Self.pragmas) ?? [:]) { set, _ in set }
        switch (pragmas["journal_mode"] as? NSString)?.uppercased {
        case "WAL": description.journalMode = .wal
        case "DELETE", "TRUNCATE", "PERSIST": description.journalMode = .delete
        default: break
        }
        return description
    }

    /// The pragmas of an ``NSSQLitePragmasOption`` dictionary, by name.
    private static func pragmas(_ dictionary: NSDictionary) -> [String: NSObject] {
        var result = [String: NSObject]()
        for (key, value) in dictionary {
            if let key = key as? String, let value = value as? NSObject { result[key] = value }
        }
        return result
    }

    /// The store's type, URL and configuration.
    open var description: String {
        "<NSPersistentStoreDescription> type \(type), url \(url?.path ?? "nil"), configuration \(configuration ?? "nil")"
    }
}
