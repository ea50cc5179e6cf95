import Foundation
import GRDB
import ModelSchema
import ModelStore

/// One run of ``StagedMigrator`` on one database file (the store, or a dry run's private copy).
/// The store's write lock is held from the first read to the swap's commit, so nothing is
/// written to it while the stages run on the working copy, which is then written into the
/// store's own file in the same transaction (``StoreSwap``).
struct StagedSession {
    let path: String
    let database: String
    let bundle: ModelBundle
    let plan: StagedMigrationPlan
    let options: StagedMigrator.Options

    private var commits: Bool { !options.dryRun }
    private var scope: MigrationScope { MigrationScope(configuration: options.configuration) }

    /// A stage with its versions and the mapping model it runs (nil: inferred).
    private struct ResolvedStage {
        var stage: MigrationStage
        var source: ModelVersion
        var destination: ModelVersion
        var mappingModel: MappingModel?
    }

    func run() throws -> StagedMigrator.Result {
        let queue = try StoreSwap.lockingQueue(database, store: path)
        defer { try? queue.close() }
        var result: StagedMigrator.Result?
        let swap = StoreSwap(path: path, backupPath: options.backupPath, makesBackup: options.makesBackup)
        do {
            result = try swap.underLock(queue, migrated: { $0.outcome == .migrated }) { db in try perform(db, swap: swap) }
        } catch let error as DatabaseError {
            throw MigrationError(sqlite: error, path: path, step: nil)
        }
        guard var result else { throw MigrationError(.failed, path: path, message: "the migration ended without a result") }
        result.backupPath = swap.backup
        if result.outcome == .migrated, let keep = options.keepBackups {
            result.removedBackups = StoreLeftovers.pruneBackups(beside: path, tag: "pre", keeping: keep)
        }
        return result
    }

    // MARK: - Under the lock

    /// Everything done under the store's lock: checks, the copy, the stages, the swap.
    private func perform(_ db: Database, swap: StoreSwap) throws -> StagedMigrator.Result {
        try StoreIntegrity.check(db, path: path, depth: .quick, tables: StoreIntegrity.bookkeepingTables)
        try StoreIntegrity.checkPointerMap(db, path: path)
        let metadata = try StoreMetadata.required(from: db, path: path)
        let cleanup = commits ? swap.cleanUp(storeHashes: metadata.versionHashes) : StoreLeftovers.Cleanup()
        let match = VersionMatch(storeHashes: metadata.versionHashes, identifiers: metadata.versionIdentifiers, bundle: bundle)
        guard let storeVersion = match.matched else {
            throw StoreError(.missingSourceModel, path: path, message: "no version of the model made the store")
        }
        try scope.check(storeVersion, path: path)
        let stages = try resolve(from: storeVersion)
        var result = StagedMigrator.Result(
            path: path, storeVersion: storeVersion.name, destination: stages.last?.destination.name ?? storeVersion.name, outcome: .upToDate,
            removedLeftovers: cleanup.removed, namedBackups: cleanup.namedBackups)
        guard let last = stages.last else { return result }
        let hashes = VersionHasher(last.destination).entityHashes()
        if try scope.isCurrent(metadata, schema: StoreSchema.read(from: db), destination: last.destination, destinationHashes: hashes) { return result }
        let working = database + ".modelc-\(UUID().uuidString)"
        defer { if !commits || result.outcome != .migrated { StoreSwap.removeStaging(working) } }
        try copy(to: working)
        for (index, resolved) in stages.enumerated() {
            let (source, destination) = (resolved.source.name, resolved.destination.name)
            let how = resolved.mappingModel.map { "mapping model '\($0.name)'" } ?? "inferred"
            options.progress?("stage \(index + 1)/\(stages.count): \(source) → \(destination) (\(how))")
            let store = StageStore(path: working, source: source, destination: destination)
            try hook(resolved.stage.willMigrate, store, "before")
            let (report, outcome) = try runStage(resolved, on: working)
            result.stages.append(report)
            guard outcome == .migrated || outcome == .upToDate else {
                result.outcome = outcome
                return result
            }
            if outcome == .upToDate && scope.isConfiguration { try stamp(working, resolved.destination) }
            try hook(resolved.stage.didMigrate, store, "after")
        }
        guard try StoreError.mapping(path: path, { try StoreMetadata.read(at: working) }).versionHashes == hashes else {
            throw MigrationError(.failed, path: path, message: "the staged migration did not end at '\(last.destination.name)'")
        }
        guard commits else {
            result.outcome = .planned
            return result
        }
        try swap.swap(working, into: db, version: storeVersion.name)
        result.outcome = .migrated
        return result
    }

    /// The stages the store runs, each with its versions and mapping model; a policy a mapping
    /// model needs and the plan lacks stops the run here, before anything is written.
    private func resolve(from storeVersion: ModelVersion) throws -> [ResolvedStage] {
        var resolved = [ResolvedStage]()
        var source = storeVersion
        var sourceHashes = VersionHasher(storeVersion).entityHashes()
        for stage in plan.stages(from: storeVersion.name) {
            guard let destination = bundle.version(named: stage.destination) else {
                throw MigrationError(.unknownVersion, path: bundle.path, message: "the model has no version '\(stage.destination)' (a stage of the plan)")
            }
            guard destination.name != source.name else { continue }
            let destinationHashes = VersionHasher(destination).entityHashes()
            let model = stage.mappingModel(sourceHashes: sourceHashes, destinationHashes: destinationHashes)
            if let model, let missing = plan.policies.missing(in: model, path: path) { throw missing }
            resolved.append(ResolvedStage(stage: stage, source: source, destination: destination, mappingModel: model))
            (source, sourceHashes) = (destination, destinationHashes)
        }
        return resolved
    }

    // MARK: - Stages

    /// Runs one stage on the working copy; returns its report and how it ended.
    private func runStage(_ resolved: ResolvedStage, on working: String) throws -> (StagedMigrator.StageReport, Migrator.Outcome) {
        var report = StagedMigrator.StageReport(source: resolved.source.name, destination: resolved.destination.name, uses: .inferred)
        do {
            if let model = resolved.mappingModel {
                var stageOptions = MigrationManager.Options()
                stageOptions.destination = resolved.destination.name
                stageOptions.makesBackup = false
                stageOptions.userInfo = options.userInfo
                stageOptions.configuration = options.configuration
                let done = try MigrationManager(bundle: bundle, mappingModel: model, registry: plan.policies).migrate(storeAt: working, options: stageOptions)
                report.uses = .mappingModel(path: model.path)
                report.entityMappings = done.entityMappings
                return (report, done.outcome)
            }
            var stageOptions = Migrator.Options()
            stageOptions.destination = resolved.destination.name
            stageOptions.makesBackup = false
            // A dry run goes on past a stage that drops data, to forecast the next ones.
            stageOptions.allowsDataLoss = options.allowsDataLoss || !commits
            stageOptions.configuration = options.configuration
            let done = try Migrator.migrate(storeAt: working, bundle: bundle, options: stageOptions)
            report.step = done.steps.first
            return (report, done.outcome)
        } catch let error as MigrationError {
            throw error.during(resolved.source.name, resolved.destination.name, at: path)
        }
    }

    /// Writes `version`'s metadata into the working copy after a stage that left the
    /// configuration's entities as they were (so changed nothing), so that the next stage starts
    /// from that version and the chain ends at the last, as for a store of every entity.
    private func stamp(_ working: String, _ version: ModelVersion) throws {
        try StoreError.mapping(path: path) {
            let queue = try DatabaseQueue(path: working)
            try queue.write { db in try StoreMetadataUpdate.apply(version, to: db, at: path) }
            try queue.close()
        }
    }

    /// Runs a hook of the app's; a failure that is not a migration error becomes one naming the stage.
    private func hook(_ body: ((StageStore) throws -> Void)?, _ store: StageStore, _ when: String) throws {
        guard let body else { return }
        do {
            try body(store)
        } catch let error as MigrationError {
            throw error
        } catch {
            throw MigrationError(.failed, path: path, message: "the hook \(when) stage \(store.source) → \(store.destination) failed: \(error)")
        }
    }

    /// Copies the store to `working` with SQLite's backup API, in rollback-journal mode,
    /// through a reader of its own (SQLite refuses a backup from a connection in a write
    /// transaction): this run's lock keeps writers out, so the copy is the store as it read it.
    /// The external-data folder is not copied: the result is written into the store's own file,
    /// which keeps the folder beside it.
    private func copy(to working: String) throws {
        var configuration = Configuration()
        configuration.readonly = true
        configuration.busyMode = .timeout(5)
        try StoreError.mapping(path: path) {
            let source = try DatabaseQueue(path: database, configuration: configuration)
            let target = try DatabaseQueue(path: working)
            try source.backup(to: target)
            try target.writeWithoutTransaction { try $0.execute(sql: "PRAGMA journal_mode = DELETE") }
            try target.close()
            try source.close()
        }
    }
}
