import Foundation
import ModelSchema
import ModelStore

/// Runs a ``StagedMigrationPlan`` on a store, as Apple's staged migration does: each stage in
/// turn, lightweight ones inferred and run in place (``Migrator``), custom ones through their
/// mapping model and the plan's policies (``MigrationManager``), the hooks before and after each.
///
/// The chain is atomic: the stages run on a copy of the store beside it
/// (`<name>.<ext>.modelc-<UUID>`, which the next run removes after a kill) while the store's
/// write lock is held, and only the destination is written into the store's own file, in one
/// transaction under that lock, the store kept as one backup. Killed or failed at any point,
/// the store is the original or the destination, never a version in between.
public enum StagedMigrator {
    public struct Options {
        /// Runs the plan on a private copy and reports what a real run would do; the store is untouched.
        public var dryRun = false
        /// Where the original store is kept; nil for a free `<name>.pre-<version>-<time>` beside it.
        public var backupPath: String?
        /// Whether the original store is kept at all.
        public var makesBackup = true
        /// After a migration, how many of the store's `pre-` backups to keep (the newest); nil keeps all.
        public var keepBackups: Int?
        /// Whether a lightweight stage may drop stored values; without it the run stops there,
        /// the store unchanged. A dry run always goes on, to forecast every stage.
        public var allowsDataLoss = false
        /// Values for the policies (`manager.userInfo`).
        public var userInfo: [String: String] = [:]
        /// The configuration the store was added for (`StoreDescription.configuration`): every
        /// stage runs on its entities only, and there is nothing to do when they are the last
        /// stage's; nil for every entity.
        public var configuration: String?
        /// Receives one line per stage, for progress display.
        public var progress: (@Sendable (String) -> Void)?

        public init() {}
    }

    /// What one stage did (or, in a dry run, would do).
    public struct StageReport: Sendable {
        public var source: String
        public var destination: String
        /// The mapping model the stage ran, or inference.
        public var uses: StepMapping
        /// A lightweight stage's step: its changes, statements and dropped values.
        public var step: MigrationStep?
        /// A custom stage's entity mappings: instances created, values dropped, validation failures.
        public var entityMappings: [EntityMappingReport] = []

        public var risk: MigrationRisk {
            if let step { return step.risk }
            return entityMappings.contains { $0.valuesDropped > 0 } ? .dropsData : .safe
        }
    }

    public struct Result: Sendable {
        public var path: String
        public var storeVersion: String
        public var destination: String
        public var outcome: Migrator.Outcome
        public var stages: [StageReport] = []
        public var backupPath: String?
        /// Temporary files of killed runs that this run removed from beside the store.
        public var removedLeftovers: [String] = []
        /// Backups that migrations killed after their commit had left unnamed, named by this run.
        public var namedBackups: [String] = []
        /// Older backups removed to keep `keepBackups`.
        public var removedBackups: [String] = []

        public var risk: MigrationRisk { stages.map(\.risk).max() ?? .safe }
    }

    /// Migrates (or, with `dryRun`, plans) the store at `path` through the plan's stages.
    ///
    /// Before anything is touched: a policy or policy function a stage's mapping model names and
    /// the plan lacks is `missingPolicy`; a store no version of `bundle` made is
    /// `missingSourceModel`; an unknown stage version is `unknownVersion`; a configuration a
    /// stage's version does not have is `incompatibleSchema`.
    public static func migrate(storeAt path: String, bundle: ModelBundle, plan: StagedMigrationPlan, options: Options = Options()) throws -> Result {
        for stage in plan.stages {
            guard let version = bundle.version(named: stage.destination) else {
                throw MigrationError(.unknownVersion, path: bundle.path, message: "the model has no version '\(stage.destination)' (a stage of the plan)")
            }
            try MigrationScope(configuration: options.configuration).check(version, path: path)
        }
        do {
            try StoreCheck.checkFile(path)
            guard options.dryRun else {
                return try StagedSession(path: path, database: path, bundle: bundle, plan: plan, options: options).run()
            }
            return try StoreSnapshot.withPrivateCopy(of: path) { copy in
                try StagedSession(path: path, database: copy, bundle: bundle, plan: plan, options: options).run()
            }
        } catch let error as StoreError {
            throw MigrationError(error)
        }
    }
}
