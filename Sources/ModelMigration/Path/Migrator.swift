import Foundation
import ModelSchema
import ModelStore

/// Runs a lightweight migration on a store as Core Data does: finds the store's version by its
/// hashes and goes in ONE direct step to the destination, whatever the versions' names or order
/// (`MigrationPath`); stages through other versions only when the caller names them. Steps
/// run as SQL in place, each in a savepoint of one transaction, so that any failure (a
/// constraint the data violates, a full disk, the process killed) leaves the store exactly as
/// it was.
///
/// A dry run does the same on a private copy, which is then thrown away: its counts are the
/// real run's.
public enum Migrator {
    public struct Options: Sendable {
        /// The destination version; `nil` for the current one.
        public var destination: String?
        /// Versions to go through, in this order (staged migration); empty for the direct step.
        public var through: [String] = []
        public var dryRun = false
        /// Where the backup goes; `nil` for `<store>.pre-<version>-<UTC time>.<ext>` beside it.
        public var backupPath: String?
        /// Whether to back the store up before a real run (the caller has its own backup when not).
        public var makesBackup = true
        /// Whether a real run may drop stored values; without it such a run is refused.
        public var allowsDataLoss = false
        /// How many backups beside the store to keep after a successful run (the new one
        /// included; older ones are removed); `nil` keeps them all.
        public var keepBackups: Int?
        /// Mapping models the caller offers (`--mapping`): when the direct step is impossible,
        /// the stages suggested may go through them (a ``StagedMigrator`` runs such stages).
        public var mappingModels: [MappingModel] = []
        /// The configuration the store was added for (`StoreDescription.configuration`): the
        /// store holds only its entities, and the migration lays out and infers only those, and
        /// finds nothing to do when they are the destination's; `nil` for every entity.
        public var configuration: String?
        /// Receives one line per step and per statement group, for progress display.
        public var progress: (@Sendable (String) -> Void)?

        public init() {}
    }

    /// How a migration ended.
    public enum Outcome: String, Sendable, Codable {
        /// The store was already at the destination version.
        case upToDate
        /// Dry run: the plan ran on a copy.
        case planned
        /// The store now has the destination version.
        case migrated
        /// A step would drop stored values and data loss was not allowed; nothing changed.
        case refusedDataLoss
        /// A step cannot be inferred; nothing changed.
        case impossible
    }

    public struct Result: Sendable {
        public var path: String
        public var storeVersion: String
        public var destination: String
        public var steps: [MigrationStep]
        public var outcome: Outcome
        public var backupPath: String?
        /// When the direct step is impossible but stages through the bundle's versions are not
        /// (inferred, or through one of ``Options/mappingModels``): the versions to pass to `--through`.
        public var suggestedThrough: [String]?
        /// Temporary files of killed runs that this run removed from beside the store.
        public var removedLeftovers: [String] = []
        /// Backups that migrations killed after their commit had left unnamed, named by this run.
        public var namedBackups: [String] = []
        /// Older backups removed to keep `keepBackups`.
        public var removedBackups: [String] = []

        public var risk: MigrationRisk { steps.map(\.risk).max() ?? .safe }
    }

    /// Plans (dry run) or runs the migration of the store at `path` to a version of `bundle`.
    ///
    /// A real run holds the store's write lock from its first read to its commit (a second run
    /// waits up to 5 s, then gets `locked`, or finds the store already migrated), checks what
    /// every step writes (`PRAGMA quick_check` of the schema, the freelist and the bookkeeping
    /// tables) and the version's tables before anything else, every page it reads as it reads
    /// it, and the tables it wrote (`PRAGMA integrity_check`) before it commits. A dry run does the same on a private
    /// copy and never opens the store itself, so it works on a read-only store and leaves nothing
    /// beside it. Every failure is a ``MigrationError`` with its class and Core Data's code; a
    /// configuration the destination does not have is `incompatibleSchema` before anything is read.
    public static func migrate(storeAt path: String, bundle: ModelBundle, options: Options = Options()) throws -> Result {
        // An unknown destination is reported later, as `unknownVersion`.
        if let destination = options.destination.map({ bundle.version(named: $0) }) ?? bundle.currentVersion {
            try MigrationScope(configuration: options.configuration).check(destination, path: path)
        }
        do {
            try StoreCheck.checkFile(path)
            guard options.dryRun else {
                var session = MigrationSession(path: path, database: path, bundle: bundle, options: options)
                return try session.run()
            }
            return try StoreSnapshot.withPrivateCopy(of: path) { copy in
                var session = MigrationSession(path: path, database: copy, bundle: bundle, options: options)
                return try session.run()
            }
        } catch let error as StoreError {
            throw MigrationError(error)
        }
    }
}

/// A step the store's rows make impossible: the transaction rolls back.
struct StepImpossible: Error {
    var steps: [MigrationStep]
}

/// A step that would drop data in a run that does not allow it: the transaction rolls back.
struct DataLossRefused: Error {
    var steps: [MigrationStep]
}
