import Foundation
import GRDB
import ModelCompiler
import ModelMigration
import ModelSchema

/// The loading stack of a Core Data app, on Linux: a model, the descriptions of its stores, and
/// `loadPersistentStores`, which creates, checks, migrates and opens each store off the
/// caller's thread and reports failures by class (``PersistentStoreLoadError``), recovering
/// per ``recoveryPolicy``.
///
/// ```swift
/// let container = try PersistentContainer(name: "Notes", model: modelURL)
/// try await container.loadPersistentStores()
/// print(container.loadedStores[0].report.migratedFrom ?? "not migrated")
/// ```
///
/// With the object layer (`import ModelObjects`), the container also gives the contexts that
/// read and write the stores' objects: `viewContext`, `newBackgroundContext()`.
public final class PersistentContainer: @unchecked Sendable {
    /// The model could not be read: its diagnostics say why.
    public struct ModelReadError: Error, Sendable, CustomStringConvertible {
        /// The model's path.
        public var path: String
        /// The problems found reading it.
        public var diagnostics: [Diagnostic]
        /// The path and the diagnostics' messages.
        public var description: String { "\(path): cannot read the model: " + diagnostics.map(\.message).joined(separator: "; ") }
    }

    /// The container's name, which names its default store.
    public let name: String
    /// The model and all its versions.
    public let model: ModelBundle
    private let lock = NSLock()
    private var _descriptions: [StoreDescription]
    private var _policy = RecoveryPolicy.default
    private var _decide: (@Sendable (LoadDecision) -> Bool)?
    private var _progress: (@Sendable (String) -> Void)?
    private var _policies = PolicyRegistry()
    private var _stagedPlan: StagedMigrationPlan?
    private var _stores: [LoadedStore] = []
    /// The state layers above the stack keep with the container, by type (see ``layerState(_:)``),
    /// under a lock of its own so that making one may read the container.
    private let layersLock = NSLock()
    private var _layers: [ObjectIdentifier: any Sendable] = [:]

    // MARK: - Creating

    /// A container for `model`, with one SQLite store at ``defaultDirectoryURL()``/`<name>/<name>.sqlite`.
    public init(name: String, bundle: ModelBundle) {
        self.name = name
        model = bundle
        _descriptions = [StoreDescription(url: Self.defaultDirectoryURL().appendingPathComponent("\(name)/\(name).sqlite"))]
    }

    /// A container for the model at `model`: a compiled `.momd` or `.mom`, or a source
    /// `.xcdatamodeld`; a model with reading errors throws ``ModelReadError``.
    public convenience init(name: String, model: URL) throws {
        let read = ModelSources.read(anyAt: model.path)
        guard let bundle = read.bundle, bundle.currentVersion != nil, !read.diagnostics.contains(where: { $0.severity == .error }) else {
            throw ModelReadError(path: model.path, diagnostics: read.diagnostics.filter { $0.severity == .error })
        }
        self.init(name: name, bundle: bundle)
    }

    /// Where stores go by default, as `NSPersistentContainer.defaultDirectoryURL()` on Linux
    /// reads it: the user's data directory, `$XDG_DATA_HOME`, else `~/.local/share`.
    public class func defaultDirectoryURL() -> URL {
        if let data = ProcessInfo.processInfo.environment["XDG_DATA_HOME"], data.hasPrefix("/") {
            return URL(fileURLWithPath: data, isDirectory: true)
        }
        return FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".local/share", isDirectory: true)
    }

    // MARK: - Configuration

    /// The stores to load, in order; set them before loading.
    public var persistentStoreDescriptions: [StoreDescription] {
        get { lock.withLock { _descriptions } }
        set { lock.withLock { _descriptions = newValue } }
    }

    /// What to do per class of failure; the defaults never lose data.
    public var recoveryPolicy: RecoveryPolicy {
        get { lock.withLock { _policy } }
        set { lock.withLock { _policy = newValue } }
    }

    /// Called, on the loading thread, before each thing the loader does to a store (create,
    /// migrate, quarantine, retry); returning `false` vetoes it, and the load fails instead.
    public var decisionHandler: (@Sendable (LoadDecision) -> Bool)? {
        get { lock.withLock { _decide } }
        set { lock.withLock { _decide = newValue } }
    }

    /// Receives one line per step of the load (created, migration steps, quarantined).
    public var progressHandler: (@Sendable (String) -> Void)? {
        get { lock.withLock { _progress } }
        set { lock.withLock { _progress = newValue } }
    }

    /// The entity migration policies and `$entityPolicy` functions the mapping models of
    /// ``StoreDescription/mappingModelLocations`` name, registered by class name and selector.
    public var migrationPolicies: PolicyRegistry {
        get { lock.withLock { _policies } }
        set { lock.withLock { _policies = newValue } }
    }

    /// The stages a store made by an older version goes through, as an app gives Apple's
    /// staged migration manager to its store description (a plan holds code, so it is set here,
    /// for every store): the loader runs the plan's remaining stages as one atomic chain
    /// (ModelMigration's `StagedMigrator`), then, when the plan stops short of the current version, a last stage
    /// to it through a mapping model of ``StoreDescription/mappingModelLocations`` or inferred.
    /// `nil` (the default) migrates in one direct step.
    public var stagedMigrationPlan: StagedMigrationPlan? {
        get { lock.withLock { _stagedPlan } }
        set { lock.withLock { _stagedPlan = newValue } }
    }

    // MARK: - Loaded stores

    /// The stores loaded so far, in the order of their descriptions.
    public var loadedStores: [LoadedStore] { lock.withLock { _stores } }

    /// The first loaded store's database, for reading and writing rows: within this package
    /// only (the CLI, tests), as GRDB's types stay out of the public surface.
    package var database: (any DatabaseWriter)? { loadedStores.first?.database }

    // MARK: - Layers above the stack

    /// The one `State` a layer above the stack keeps with this container (the object layer's
    /// coordinator and view context), made by `make` on first use and freed with the container:
    /// the stack cannot name the layers built on it, so it holds their state by type.
    package func layerState<State: AnyObject & Sendable>(_ make: () -> State) -> State {
        layersLock.withLock {
            if let known = _layers[ObjectIdentifier(State.self)] as? State { return known }
            let state = make()
            _layers[ObjectIdentifier(State.self)] = state
            return state
        }
    }

    // MARK: - Loading

    /// Loads every described store off the caller's thread; returns what was done to each, or
    /// throws the first failure (the stores before it stay loaded).
    @discardableResult
    public func loadPersistentStores() async throws -> [StoreLoadReport] {
        try await withCheckedThrowingContinuation { continuation in
            Self.onLoadingThread {
                continuation.resume(with: Result(catching: { try self.persistentStoreDescriptions.map { try self.load($0).report } }))
            }
        }
    }

    /// Loads every described store, calling `completionHandler` once per description with `nil`
    /// or its ``PersistentStoreLoadError``, as Core Data's container does: a description with
    /// ``StoreDescription/shouldAddStoreAsynchronously`` off (the default) is loaded on the
    /// calling thread and its handler called before this returns, so the container is ready on
    /// the next line; the others are loaded afterwards, in order, on a thread of their own.
    public func loadPersistentStores(completionHandler: @escaping @Sendable (StoreDescription, (any Error)?) -> Void) {
        let descriptions = persistentStoreDescriptions
        let load: @Sendable (StoreDescription) -> Void = { description in
            do {
                _ = try self.load(description)
                completionHandler(description, nil)
            } catch {
                completionHandler(description, error)
            }
        }
        for description in descriptions where !description.shouldAddStoreAsynchronously { load(description) }
        let later = descriptions.filter(\.shouldAddStoreAsynchronously)
        if !later.isEmpty { Self.onLoadingThread { later.forEach(load) } }
    }

    /// Runs a load on a thread of its own: a load may wait out a locked store for its whole
    /// timeout, which would hold one of the few threads of Dispatch's global queues (as many as
    /// cores on Linux) and hold up the app's other work, or other loads, behind it.
    private static func onLoadingThread(_ body: @escaping @Sendable () -> Void) {
        let thread = Thread(block: body)
        thread.name = "modelc.PersistentContainer.load"
        thread.qualityOfService = .userInitiated
        thread.start()
    }

    /// Loads one store and records it.
    private func load(_ description: StoreDescription) throws -> LoadedStore {
        guard let current = model.currentVersion else {
            throw PersistentStoreLoadError(.missingSourceModel, path: description.url.path, message: "the model has no versions")
        }
        let loader = StoreLoader(
            bundle: model, current: current, policy: recoveryPolicy, policies: migrationPolicies, stagedPlan: stagedMigrationPlan,
            decide: decisionHandler, progress: progressHandler)
        let store = try loader.load(description)
        lock.withLock { _stores.append(store) }
        return store
    }
}
