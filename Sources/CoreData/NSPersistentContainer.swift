import Foundation
import ModelObjects
import ModelSchema
import ModelStack
import Synchronization

/// Core Data's stack in one object (`NSPersistentContainer`): a model, a coordinator, the
/// descriptions of its stores, a view context on the main queue and background contexts. An
/// open class, as guides subclass it to override ``newBackgroundContext()`` or
/// ``defaultDirectoryURL()``; built over ModelStack's loader and the object layer's coordinator.
open class NSPersistentContainer: @unchecked Sendable {
    /// The container's name, which names its model and its default store.
    public let name: String
    /// The model the container's stores hold.
    public let managedObjectModel: ManagedObjectModel
    /// The coordinator of the container's stores, which its contexts read and save through.
    public let persistentStoreCoordinator: PersistentStoreCoordinator
    /// The main-queue context the app reads from, made with the container.
    public let viewContext: ManagedObjectContext
    /// The stores ``loadPersistentStores(completionHandler:)`` loads: at first one SQLite store at
    /// ``defaultDirectoryURL()``/`<name>.sqlite`, as Core Data's container describes it.
    open var persistentStoreDescriptions: [NSPersistentStoreDescription] {
        get { descriptions.withLock { $0 } }
        set { descriptions.withLock { $0 = newValue } }
    }
    /// The descriptions, under the lock that lets the container cross threads.
    private let descriptions = Mutex<[NSPersistentStoreDescription]>([])
    /// ModelStack's container, which loads the stores the coordinator reads.
    private let stack: PersistentContainer

    /// A container for the model named `name`: `<name>.momd` (else `<name>.mom`) among the main
    /// bundle's resources, SwiftPM's resource bundles beside the executable, or the other bundles
    /// loaded. When there is none, Core Data logs the failure and the container has an empty
    /// model; loading its stores then fails with 134130, the model being missing.
    public convenience init(name: String) {
        if let bundle = ModelLocator.bundle(ofModelNamed: name), let current = bundle.currentVersion {
            self.init(name: name, managedObjectModel: ManagedObjectModel(current))
        } else {
            FileHandle.standardError.write(Data("CoreData: error: Failed to load model named \(name)\n".utf8))
            self.init(name: name, managedObjectModel: ManagedObjectModel(ModelVersion(name: name, path: "")))
        }
    }

    /// A container for `model`, its stores named after `name`. When the model named `name` in the
    /// app's bundles has `model` as its current version, its older versions are the sources
    /// stores made by them migrate from; a model without entities loads no store (134130).
    public init(name: String, managedObjectModel model: ManagedObjectModel) {
        self.name = name
        let version = model.version
        let bundle = ModelLocator.bundle(ofModelNamed: name).flatMap { $0.currentVersion == version ? $0 : nil }
            ?? ModelBundle(name: name, path: version.path, isVersioned: false, currentVersionName: version.name, versions: model.entities.isEmpty ? [] : [version])
        stack = PersistentContainer(name: name, bundle: bundle)
        managedObjectModel = model
        persistentStoreCoordinator = PersistentStoreCoordinator(model: model, storesOf: stack)
        viewContext = ManagedObjectContext(concurrencyType: .mainQueueConcurrencyType, coordinator: persistentStoreCoordinator)
        persistentStoreDescriptions = [NSPersistentStoreDescription(url: Self.defaultDirectoryURL().appendingPathComponent("\(name).sqlite"))]
    }

    /// Where stores go by default: the user's data directory (`$XDG_DATA_HOME`, else
    /// `~/.local/share`), where Apple platforms use the app's Application Support folder.
    open class func defaultDirectoryURL() -> URL {
        PersistentContainer.defaultDirectoryURL()
    }

    /// A new private-queue context on the container's coordinator.
    open func newBackgroundContext() -> ManagedObjectContext {
        ManagedObjectContext(concurrencyType: .privateQueueConcurrencyType, coordinator: persistentStoreCoordinator)
    }

    /// Runs `block` on the queue of a new context from ``newBackgroundContext()``.
    open func performBackgroundTask(_ block: @escaping @Sendable (ManagedObjectContext) -> Void) {
        let context = newBackgroundContext()
        context.perform { block(context) }
    }

    /// Runs `block` on the queue of a new context from ``newBackgroundContext()`` and returns its result.
    public func performBackgroundTask<T: Sendable>(_ block: @escaping @Sendable (ManagedObjectContext) throws -> T) async throws -> T {
        let context = newBackgroundContext()
        return try await context.perform { try block(context) }
    }

    /// Loads every description's store, calling `block` once per description with nil or the
    /// error (an `NSError` of `NSCocoaErrorDomain` with Core Data's code): a description without
    /// `shouldAddStoreAsynchronously` is loaded on the calling thread and its handler called
    /// before this returns; the others afterwards, on a thread of their own.
    open func loadPersistentStores(completionHandler block: @escaping (NSPersistentStoreDescription, (any Error)?) -> Void) {
        let handler = UncheckedHandler(block)
        var loadable = [(StoreDescription, NSPersistentStoreDescription)]()
        for description in persistentStoreDescriptions {
            do {
                loadable.append((try description.storeDescription(), description))
            } catch {
                handler.call(description, error)
            }
        }
        let pending = Pending(loadable)
        // A store loaded on a thread of its own is reported after this returns, however fast it loads.
        let returned = Gate()
        defer { returned.open() }
        let caller = ObjectIdentifier(Thread.current)
        stack.persistentStoreDescriptions = loadable.map(\.0)
        stack.loadPersistentStores { [persistentStoreCoordinator] loaded, error in
            guard let description = pending.take(loaded) else { return }
            // A store posting remote changes is watched from the moment it is loaded.
            if error == nil, loaded.postsRemoteChangeNotifications { _ = try? persistentStoreCoordinator.storeIdentifier() }
            if ObjectIdentifier(Thread.current) != caller { returned.wait() }
            handler.call(description, error)
        }
    }
}

/// A gate threads wait at until it opens, once.
private final class Gate: @unchecked Sendable {
    private let condition = NSCondition()
    private var isOpen = false

    func open() {
        condition.withLock {
            isOpen = true
            condition.broadcast()
        }
    }

    func wait() {
        condition.withLock {
            while !isOpen { condition.wait() }
        }
    }
}

/// The app's completion handler, called from the loading thread as Core Data calls it.
private struct UncheckedHandler: @unchecked Sendable {
    let body: (NSPersistentStoreDescription, (any Error)?) -> Void

    init(_ body: @escaping (NSPersistentStoreDescription, (any Error)?) -> Void) { self.body = body }

    func call(_ description: NSPersistentStoreDescription, _ error: (any Error)?) { body(description, error) }
}

/// The app's descriptions of the stores being loaded, each found once by the loader's.
private final class Pending: @unchecked Sendable {
    private let lock = NSLock()
    private var pairs: [(StoreDescription, NSPersistentStoreDescription)]

    init(_ pairs: [(StoreDescription, NSPersistentStoreDescription)]) { self.pairs = pairs }

    /// The app's description of `loaded`, removed so that an equal one maps to the next.
    func take(_ loaded: StoreDescription) -> NSPersistentStoreDescription? {
        lock.withLock {
            guard let index = pairs.firstIndex(where: { $0.0 == loaded }) else { return nil }
            return pairs.remove(at: index).1
        }
    }
}
