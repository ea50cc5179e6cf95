import Foundation
import ModelSchema
import ModelStore

/// Runs a custom mapping model on a store, as `NSMigrationManager` does, without loading the
/// store into memory: the destination is written as a new store beside the source in bounded
/// batches (associations in a temporary SQLite table), verified, and written into the store's
/// own file in one transaction, the source kept as the backup. Killed at any point, the store is the old one or the new one; the
/// next run removes what a killed one left.
///
/// Mapping models are values (`MappingModel`); read them with ModelCompiler's
/// `MappingCompilation.read(at:)` or `MappingModelFinder`.
public struct MigrationManager {
    public struct Options {
        /// The destination version; nil for the bundle's version the mapping's destination
        /// hashes match (the current version first).
        public var destination: String?
        /// Runs on a private copy and reports what a real run would do; the store is untouched.
        public var dryRun = false
        /// Whether entity mappings without a policy run as SQL over the whole source table (Swift
        /// evaluating, per row, only the expressions SQL cannot); false runs every one row by row.
        /// Both give the same store.
        public var usesSQL = true
        /// Where the old store is kept; nil for a free `<name>.pre-<version>-<time>` beside it.
        public var backupPath: String?
        /// Whether the old store is kept at all.
        public var makesBackup = true
        /// After a migration, how many of the store's `pre-` backups to keep (the newest); nil keeps all.
        public var keepBackups: Int?
        /// Values for the policies (`manager.userInfo`).
        public var userInfo: [String: String] = [:]
        /// The configuration the store was added for (`StoreDescription.configuration`): both
        /// stores hold only its entities, entity mappings of other entities find no instances,
        /// and there is nothing to do when its entities are the destination's; nil for every entity.
        public var configuration: String?
        /// Called as instances are processed: entity mapping, instances done, instances in all.
        public var progress: ((_ entityMapping: String, _ done: Int, _ total: Int) -> Void)?

        public init() {}
    }

    public struct Result: Sendable {
        public var path: String
        public var storeVersion: String
        public var destination: String
        public var mappingModel: String
        public var outcome: Migrator.Outcome
        public var backupPath: String?
        public var removedLeftovers: [String] = []
        /// Backups that migrations killed after their commit had left unnamed, named by this run.
        public var namedBackups: [String] = []
        /// Older backups removed to keep `keepBackups`.
        public var removedBackups: [String] = []
        /// What each entity mapping did, in mapping order.
        public var entityMappings: [EntityMappingReport] = []
    }

    public let bundle: ModelBundle
    public let mappingModel: MappingModel
    public let registry: PolicyRegistry

    public init(bundle: ModelBundle, mappingModel: MappingModel, registry: PolicyRegistry = PolicyRegistry()) {
        self.bundle = bundle
        self.mappingModel = mappingModel
        self.registry = registry
    }

    /// Migrates (or, with `dryRun`, plans) the store at `path` through the mapping model.
    ///
    /// Before anything is touched: a policy or policy function the mapping model names and the
    /// registry lacks is a `missingPolicy` error; a store the mapping's source hashes do not
    /// match is `missingSourceModel`; a damaged store is `corrupt`; a configuration the
    /// destination does not have is `incompatibleSchema`.
    public func migrate(storeAt path: String, options: Options = Options()) throws -> Result {
        if let missing = registry.missing(in: mappingModel, path: path) { throw missing }
        let scope = MigrationScope(configuration: options.configuration)
        if scope.isConfiguration, let destination = try? destinationVersion(named: options.destination) { try scope.check(destination, path: path) }
        do {
            try StoreCheck.checkFile(path)
            guard options.dryRun else {
                return try ManagerSession(manager: self, path: path, database: path, options: options).run()
            }
            return try StoreSnapshot.withPrivateCopy(of: path) { copy in
                try ManagerSession(manager: self, path: path, database: copy, options: options).run()
            }
        } catch let error as StoreError {
            throw MigrationError(error)
        }
    }

    /// The version the mapping model leads to from a store: `name` when given, else the
    /// bundle's version whose hashes hold the mapping's destination hashes (the current first).
    func destinationVersion(named name: String?) throws -> ModelVersion {
        if let name {
            guard let version = bundle.version(named: name) else {
                throw MigrationError(.unknownVersion, path: bundle.path, message: "the model has no version '\(name)'")
            }
            return version
        }
        let candidates = (bundle.currentVersion.map { [$0] } ?? []) + bundle.versions
        guard let version = candidates.first(where: { MappingModel.recorded(mappingModel.destinationEntityHashes, areIn: VersionHasher($0).entityHashes()) }) else {
            throw MigrationError(
                .unknownVersion, path: mappingModel.path,
                message: "no version of '\(bundle.name)' has the entities the mapping model '\(mappingModel.name)' leads to")
        }
        return version
    }
}
