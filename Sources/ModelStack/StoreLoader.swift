import Foundation
import GRDB
import ModelCompiler
import ModelMigration
import ModelSchema
import ModelStore

/// Loads one store as Core Data does, synchronously (the container runs it off the caller's
/// thread): create it if missing, check its version by hashes, migrate it when allowed, open
/// it; on failure, apply the recovery policy, asking the decision handler before each action.
struct StoreLoader {
    let bundle: ModelBundle
    let current: ModelVersion
    let policy: RecoveryPolicy
    let policies: PolicyRegistry
    /// The stages a store behind goes through; nil for one direct step.
    let stagedPlan: StagedMigrationPlan?
    let decide: (@Sendable (LoadDecision) -> Bool)?
    let progress: (@Sendable (String) -> Void)?

    /// The longest wait between two attempts on a locked store, in seconds.
    static let longestDelay: TimeInterval = 2

    // MARK: - Loading with recovery

    /// Loads the store `description` names, recovering per the policy.
    func load(_ description: StoreDescription) throws -> LoadedStore {
        var report = StoreLoadReport(description: description, version: current.name)
        var context = PersistentStoreLoadError.Context(path: description.url.path, modelVersion: current.name)
        let deadline = Date().addingTimeInterval(description.timeout)
        while true {
            do {
                let database = try attempt(description, &report, &context)
                return LoadedStore(report: report, database: database)
            } catch {
                do {
                    try recover(from: PersistentStoreLoadError.classify(error, context), description, deadline: deadline, &report)
                } catch var failure as PersistentStoreLoadError {
                    // Read from a private copy, once, when the load gives up.
                    if failure.metadata == nil, description.type == .sqlite { failure.metadata = try? StoreMetadata.read(at: failure.path) }
                    throw failure
                }
            }
        }
    }

    /// Applies the policy's action for `failure`, or throws it.
    private func recover(
        from failure: PersistentStoreLoadError, _ description: StoreDescription, deadline: Date, _ report: inout StoreLoadReport
    ) throws {
        let path = description.url.path
        switch policy.action(for: failure.kind) {
        case .retry:
            let remaining = deadline.timeIntervalSinceNow
            let delay = min(0.05 * pow(2, Double(min(report.retries, 10))), Self.longestDelay, remaining)
            guard delay > 0, approve(.retry(path: path, attempt: report.retries + 1, delay: delay, error: failure)) else {
                throw failure
            }
            report.retries += 1
            Thread.sleep(forTimeInterval: delay)
        case .quarantine:
            guard !description.isReadOnly, report.quarantinePath == nil, approve(.quarantine(path: path, error: failure)) else {
                throw failure
            }
            do {
                try Volume.requireWritable(folderOf: path)
                report.quarantinePath = try StoreQuarantine.quarantine(path)
                progress?("quarantined \(path) to \(report.quarantinePath!)")
            } catch {
                throw PersistentStoreLoadError.classify(error, .init(path: path, modelVersion: current.name))
            }
        case .fail:
            throw failure
        }
    }

    private func approve(_ decision: LoadDecision) -> Bool {
        decide?(decision) ?? true
    }

    // MARK: - One attempt

    /// One attempt at loading: create, check, migrate, open.
    private func attempt(
        _ description: StoreDescription, _ report: inout StoreLoadReport, _ context: inout PersistentStoreLoadError.Context
    ) throws -> any DatabaseWriter {
        let path = description.url.path
        guard current.entityNames(inConfiguration: description.configuration) != nil else {
            throw vetoed(.incompatibleSchema, path, "the model has no configuration named '\(description.configuration ?? "")'")
        }
        if description.isInMemory {
            guard approve(.create(path: path, version: current.name)) else { throw vetoed(.notFound, path, "the creation was vetoed") }
            report.wasCreated = true
            return try StoreCreator.createInMemory(
                version: current, persistentHistory: description.persistentHistoryTracking, configuration: description.configuration)
        }
        if !FileManager.default.fileExists(atPath: path) {
            guard !description.isReadOnly else { throw vetoed(.notFound, path, "no store at this path, and the store is read-only") }
            guard approve(.create(path: path, version: current.name)) else { throw vetoed(.notFound, path, "no store, and its creation was vetoed") }
            try createFolder(of: path)
            try StoreCreator.create(
                at: path, version: current, journalMode: description.journalMode, persistentHistory: description.persistentHistoryTracking,
                configuration: description.configuration)
            report.wasCreated = true
            progress?("created \(path) at '\(current.name)'")
        }
        // A write interrupted by a crash: roll it back as SQLite does for its next writer, so
        // the store loads as it was before that write (a read-only load cannot, and says so).
        // A journal whose writer is alive holds the lock: fail at once as `locked`, so that the
        // recovery policy's retries (with their decisions and backoff) do the waiting.
        if !description.isReadOnly, try HotJournal.rollBack(path, timeout: 0) {
            report.rolledBackJournal = true
            progress?("rolled back the write interrupted in \(path)")
        }
        // A locked store fails the check at once: the recovery policy's retries do the waiting.
        let check = StoreCheck.run(storeAt: path, bundle: bundle, busyTimeout: 0, configuration: description.configuration)
        context.storeVersion = check.match?.matched?.name
        if let error = check.error {
            guard error.errorClass == .incompatibleVersionHash, let from = context.storeVersion else { throw error }
            do {
                try migrate(description, from: from, &report)
            } catch where StoreCheck.run(storeAt: path, bundle: bundle, configuration: description.configuration).error == nil {
                // Another loader migrated the store while this one tried to: it is current now.
                progress?("\(path) was migrated by another loader")
            }
        }
        return try open(description, &report)
    }

    /// Migrates the store from `from` to the current version, when the description allows it:
    /// through the container's staged plan when it has one; else through the first mapping model
    /// of its locations made for the two versions, as Core Data prefers one it finds, else by
    /// inference when that is allowed. A store of a configuration is migrated as one: only its
    /// configuration's entities are laid out and mapped.
    private func migrate(_ description: StoreDescription, from: String, _ report: inout StoreLoadReport) throws {
        let path = description.url.path
        let why = "the store was made by '\(from)', not by the current version '\(current.name)'"
        guard description.shouldMigrateStoreAutomatically, !description.isReadOnly else {
            throw vetoed(.incompatibleVersion, path, why + "; automatic migration is off")
        }
        let mappingModel = bundle.version(named: from).flatMap { source in
            MappingModelFinder.find(in: description.mappingModelLocations.map(\.path), from: source, to: current).model
        }
        guard stagedPlan != nil || mappingModel != nil || description.shouldInferMappingModelAutomatically else {
            throw vetoed(
                .missingMappingModel, path,
                why + "; inference is off and no mapping model in \(description.mappingModelLocations.count) location(s) fits the two versions")
        }
        try Volume.requireWritable(folderOf: path)
        guard approve(.migrate(path: path, from: from, to: current.name)) else { throw vetoed(.incompatibleVersion, path, why + "; the migration was vetoed") }
        if let stagedPlan { return try migrateInStages(description, plan: stagedPlan, from: from, &report) }
        if let mappingModel {
            var options = MigrationManager.Options()
            options.destination = current.name
            options.makesBackup = description.backsUpBeforeMigration
            options.configuration = description.configuration
            options.progress = progress.map { progress in { mapping, done, total in if done == total { progress("\(mapping): \(done) of \(total)") } } }
            let result = try MigrationManager(bundle: bundle, mappingModel: mappingModel, registry: policies).migrate(storeAt: path, options: options)
            report.migratedFrom = from
            report.mappingModel = mappingModel.path
            report.backupPath = result.backupPath
            return
        }
        var options = Migrator.Options()
        options.makesBackup = description.backsUpBeforeMigration
        // Core Data's lightweight migration drops the values of removed properties.
        options.allowsDataLoss = true
        options.configuration = description.configuration
        options.progress = progress
        let result = try Migrator.migrate(storeAt: path, bundle: bundle, options: options)
        guard result.outcome == .migrated || result.outcome == .upToDate else {
            let reasons = result.steps.flatMap(\.mapping.diagnostics).filter { $0.severity == .error }
            throw vetoed(
                .inferredMappingFailed, path,
                "no mapping can be inferred from '\(from)' to '\(current.name)': "
                    + reasons.map { "\($0.message) [\($0.code)]" }.joined(separator: "; "))
        }
        report.migratedFrom = from
        report.backupPath = result.backupPath
    }

    /// Runs the plan's stages as one atomic chain, with a last stage to the current version when
    /// the plan stops short of it (through a mapping model of the locations, else inferred).
    private func migrateInStages(_ description: StoreDescription, plan: StagedMigrationPlan, from: String, _ report: inout StoreLoadReport) throws {
        let path = description.url.path
        var plan = plan
        if plan.stages.last?.destination != current.name {
            let models = MappingModelFinder.readAll(in: description.mappingModelLocations.map(\.path)).models
            plan.stages.append(MigrationStage(to: current.name, .matching(models)))
        }
        var options = StagedMigrator.Options()
        options.makesBackup = description.backsUpBeforeMigration
        // Core Data's lightweight migration drops the values of removed properties.
        options.allowsDataLoss = true
        options.configuration = description.configuration
        options.progress = progress
        let result = try StagedMigrator.migrate(storeAt: path, bundle: bundle, plan: plan, options: options)
        guard result.outcome == .migrated || result.outcome == .upToDate else {
            let reasons = result.stages.compactMap(\.step).flatMap(\.mapping.diagnostics).filter { $0.severity == .error }
            throw vetoed(
                .inferredMappingFailed, path,
                "a stage of the staged migration from '\(from)' cannot be inferred: " + reasons.map { "\($0.message) [\($0.code)]" }.joined(separator: "; "))
        }
        report.migratedFrom = from
        report.backupPath = result.backupPath
    }

    // MARK: - Files

    /// Opens the checked store for reading and writing rows, in its description's journal mode,
    /// with history tables when it tracks history; read-only when it does not but the store does.
    /// Core Data's trigger functions are registered, so that rows of tables with derived
    /// attributes can be written.
    private func open(_ description: StoreDescription, _ report: inout StoreLoadReport) throws -> any DatabaseWriter {
        let path = description.url.path
        var configuration = CoreDataFunctions.registering(in: Configuration())
        configuration.busyMode = .timeout(description.timeout)
        configuration.label = path
        if !description.isReadOnly && !description.persistentHistoryTracking {
            var probe = readOnly(configuration)
            probe.busyMode = .immediateError
            let reader = try DatabaseQueue(path: path, configuration: probe)
            report.forcedReadOnly = try reader.read { try PersistentHistoryLayout.isPresent(in: $0) }
            try reader.close()
            if report.forcedReadOnly { progress?("\(path) records persistent history, which this description does not track: opened read-only") }
        }
        if description.isReadOnly || report.forcedReadOnly { return try DatabaseQueue(path: path, configuration: readOnly(configuration)) }
        try Volume.requireWritable(folderOf: path)
        let writer: any DatabaseWriter
        if description.journalMode == .wal {
            writer = try DatabasePool(path: path, configuration: configuration)
        } else {
            let queue = try DatabaseQueue(path: path, configuration: configuration)
            try queue.writeWithoutTransaction { try $0.execute(sql: "PRAGMA journal_mode = DELETE") }
            writer = queue
        }
        if description.persistentHistoryTracking {
            let tombstones = PersistentHistoryLayout.tombstoneCount(of: current)
            try writer.write { try PersistentHistoryLayout.install(in: $0, tombstones: tombstones) }
        }
        return writer
    }

    private func readOnly(_ configuration: GRDB.Configuration) -> GRDB.Configuration {
        var configuration = configuration
        configuration.readonly = true
        return configuration
    }

    /// Creates the store's folder when missing, as Core Data does for the default location.
    private func createFolder(of path: String) throws {
        let folder = (path as NSString).deletingLastPathComponent
        guard !folder.isEmpty, !FileManager.default.fileExists(atPath: folder) else {
            try Volume.requireWritable(folderOf: path)
            return
        }
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    }

    private func vetoed(_ kind: PersistentStoreLoadError.Kind, _ path: String, _ message: String) -> PersistentStoreLoadError {
        PersistentStoreLoadError(kind, path: path, message: message, modelVersion: current.name)
    }
}
