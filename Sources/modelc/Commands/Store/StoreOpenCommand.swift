import ArgumentParser
import Foundation
import ModelStack

/// `modelc store open`: loads a store as an app's persistent container would (ModelStack), and
/// says what it did; it changes nothing it was not told to.
struct StoreOpenCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "open",
        abstract: "Load a store as an app's persistent container would, and print what it did.",
        discussion: """
            The load checks the store's version by its hashes, and, when told to, migrates it \
            (--migrate: automatic lightweight migration, backed up first as \
            NAME.pre-VERSION-TIME.EXT) or moves a damaged store aside and creates a fresh one \
            (--recover quarantine: the store, -wal and -shm renamed NAME.quarantined-TIME.EXT, \
            never deleted). Without them nothing is written: a store at an older version fails \
            with 134100, a damaged one with 259, a missing one with 260. A store another process \
            holds locked is retried until --timeout.

            Classes and codes: incompatibleVersion 134100, migrationFailed 134110, \
            missingSourceModel 134130, missingMappingModel 134140, inferredMappingFailed 134190, \
            corrupted 259, notFound 260, locked 134090, permissionDenied 257/513, \
            readOnlyVolume 642, notACoreDataStore 134010, incompatibleSchema 134020.

            JSON form: {"store", "loaded", "version", "migratedFrom", "backup", "quarantinedTo", \
            "retries", "error": {"class", "domain", "code", "message", "storeVersion", \
            "modelVersion"} or null}.

            EXIT STATUS
              0   the store loaded (after migrating or recovering, when told to)
              2   it did not (any class above); the store is as it was
              1   the model could not be read
            """
    )

    /// The recoveries the command can be told to make.
    enum Recovery: String, ExpressibleByArgument {
        case quarantine
    }

    @Argument(help: "The store file.", completion: .file())
    var store: String

    @Option(help: "The model: a .xcdatamodeld, .momd or .mom.", completion: .file())
    var model: String

    @Flag(help: "Migrate a store made by another version of the model.")
    var migrate = false

    @Option(help: "Recover a damaged store: 'quarantine' moves it aside and creates a fresh one.")
    var recover: Recovery?

    @Option(help: "Seconds to keep retrying a store another process holds locked.")
    var timeout: Double = 5

    @OptionGroup var modelValidation: ModelValidationOptions

    @Flag(help: "Print JSON on standard output.")
    var json = false

    func run() throws {
        let container = PersistentContainer(name: "modelc", bundle: try ModelLoading.read(model, options: modelValidation.validation))
        var description = StoreDescription(url: URL(fileURLWithPath: store))
        description.isReadOnly = !migrate && recover == nil
        description.timeout = timeout
        container.persistentStoreDescriptions = [description]
        container.recoveryPolicy = RecoveryPolicy(actions: recover == .quarantine ? [.corrupted: .quarantine, .locked: .retry] : [.locked: .retry])
        // A new store only replaces a quarantined one: a missing store is reported, not created.
        let quarantined = LoadSignals()
        container.decisionHandler = { decision in
            switch decision {
            case .quarantine: quarantined.set()
            case .create: return quarantined.isSet
            default: break
            }
            return true
        }
        // As in Core Data, the store is loaded on this thread and the handler called before the call returns.
        let outcome = LoadSignals()
        container.loadPersistentStores { _, error in
            if let error { outcome.error = error }
        }
        var report = StoreOpenReport(store: store)
        if let error = outcome.error {
            report.error = error as? PersistentStoreLoadError
                ?? PersistentStoreLoadError(.migrationFailed, path: store, message: "the store could not be loaded: \(error)")
        } else if let loadedStore = container.loadedStores.first {
            report.record(loadedStore.report)
            try? loadedStore.database.close()
        }
        if json {
            try JSONOutput.print(report)
        } else {
            report.printText()
        }
        if report.error != nil { throw ExitCode(2) }
    }
}

/// What the load's handlers tell the command: a decision seen, the load's error.
private final class LoadSignals: @unchecked Sendable {
    private let lock = NSLock()
    private var _isSet = false
    private var _error: (any Error)?

    var isSet: Bool { lock.withLock { _isSet } }
    func set() { lock.withLock { _isSet = true } }

    var error: (any Error)? {
        get { lock.withLock { _error } }
        set { lock.withLock { _error = newValue } }
    }
}
