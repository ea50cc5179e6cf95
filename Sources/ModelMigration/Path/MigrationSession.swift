import Foundation
import GRDB
import ModelSchema
import ModelStore

/// One run of ``Migrator`` on one database file (the store, or a dry run's private copy), in one
/// `BEGIN IMMEDIATE` transaction: the store's write lock is taken before the first read, so what
/// the run reads (the version, the tables, the rows) is what it migrates, and a second run waits
/// for it, then finds the store migrated. The backup is made under the same lock, right before
/// the first statement that writes; a run that ends without migrating leaves no backup.
struct MigrationSession {
    /// The store, as reported.
    let path: String
    /// The file the statements run on: the store itself, or a private copy of it.
    let database: String
    let bundle: ModelBundle
    let options: Migrator.Options
    let scope: MigrationScope

    /// The steps built so far, for the message of a failure.
    private var steps: [MigrationStep] = []
    /// The copy of the store this run made before its first write, named only as it commits.
    private var pendingBackup: StoreBackup.Pending?
    /// The named backup, removed again when the commit fails.
    private var backup: String?
    private var removedLeftovers: [String] = []
    private var namedBackups: [String] = []

    init(path: String, database: String, bundle: ModelBundle, options: Migrator.Options) {
        self.path = path
        self.database = database
        self.bundle = bundle
        self.options = options
        scope = MigrationScope(configuration: options.configuration)
    }

    /// Whether this run changes the store (not a dry run).
    private var commits: Bool { !options.dryRun }

    // MARK: - Transaction

    /// Runs the whole migration in one transaction; commits only a completed, checked migration.
    mutating func run() throws -> Migrator.Result {
        // Core Data's trigger functions, for stores whose derived attributes fire triggers.
        var configuration = CoreDataFunctions.registering(in: Configuration())
        configuration.busyMode = .timeout(5)
        configuration.label = path
        // Every page a step reads is checked as it is read, so a step refuses a damaged page of
        // the tables it copies without a separate pass over them first (``checkStore(_:)``).
        configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA cell_size_check = ON") }
        let queue = try StoreError.mapping(path: path) { try DatabaseQueue(path: database, configuration: configuration) }
        var result: Migrator.Result?
        do {
            try queue.writeWithoutTransaction { db in
                try db.inTransaction(.immediate) {
                    let outcome = try perform(db)
                    result = outcome
                    return outcome.outcome == .migrated ? .commit : .rollback
                }
            }
            try queue.close()
        } catch let error as DatabaseError {
            try? queue.close()
            if commits { Self.recover(database) }
            discardBackup()
            throw MigrationError(sqlite: error, path: path, step: steps.last)
        } catch {
            try? queue.close()
            discardBackup()
            throw error
        }
        guard var result else { throw MigrationError(.failed, path: path, message: "the migration ended without a result") }
        if result.outcome != .migrated { discardBackup() }
        // The backup is named once the store has committed (the commit of a large migration
        // takes a while), so that a run killed before leaves only its unnamed copy, which the
        // next run removes, and never a backup in the way of the next run's backup path.
        if let pendingBackup, result.outcome == .migrated {
            backup = try pendingBackup.publishAfterMigrating(path)
        }
        result.backupPath = backup
        result.removedLeftovers = removedLeftovers
        result.namedBackups = namedBackups
        if result.outcome == .migrated, let keep = options.keepBackups {
            result.removedBackups = StoreLeftovers.pruneBackups(beside: path, tag: "pre", keeping: keep)
        }
        return result
    }

    /// Everything the migration reads and writes, inside the transaction.
    private mutating func perform(_ db: Database) throws -> Migrator.Result {
        try checkStore(db)
        let metadata = try StoreMetadata.required(from: db, path: path)
        if commits {
            for place in [path] + (options.backupPath.map { [$0] } ?? []) {
                let cleanup = StoreLeftovers.cleanUp(beside: place, storeHashes: metadata.versionHashes)
                removedLeftovers += cleanup.removed
                namedBackups += cleanup.namedBackups
            }
        }
        let match = VersionMatch(storeHashes: metadata.versionHashes, identifiers: metadata.versionIdentifiers, bundle: bundle)
        guard let storeVersion = match.matched else {
            let nearest = match.nearest.map { " (nearest: '\($0.name)')" } ?? ""
            throw StoreError(.missingSourceModel, path: path, message: "no version of the model made the store\(nearest)")
        }
        var route = try MigrationPath(
            bundle: bundle, from: storeVersion, to: options.destination, through: options.through, scope: scope, knownHashes: match.versionHashes)
        let chain = route.versions
        let destination = chain[chain.count - 1]
        var result = Migrator.Result(path: path, storeVersion: storeVersion.name, destination: destination.name, steps: [], outcome: .upToDate)
        if chain.count == 1 { return result }
        for version in chain { try scope.check(version, path: path) }
        if try scope.isCurrent(metadata, schema: StoreSchema.read(from: db), destination: destination, destinationHashes: route.hashes(destination)) {
            return result
        }
        let framework = metadata.framework
        // Each version is laid out once, for every check and step that needs it.
        var layouts = [scope.layout(chain[0], framework: framework)]
        try checkTables(of: storeVersion, layout: layouts[0], in: db)
        var mappings = route.mappings()
        // The first step's data-decided reasons are decided now, on the store as it is: no
        // backup for a step its rows make impossible.
        mappings[0] = try RowEvidence.resolve(mappings[0], source: chain[0], layout: layouts[0], in: db)
        // Whether a step from the store's version is possible, as the store's rows decide.
        let storeRows = { (mapping: InferredMapping) in
            (try? RowEvidence.resolve(mapping, source: chain[0], layout: layouts[0], in: db).isPossible) ?? false
        }
        if let impossible = mappings.firstIndex(where: { !$0.couldBePossible }) {
            result.steps = mappings[...impossible].map { MigrationStep(source: $0.sourceVersion, destination: $0.destinationVersion, mapping: $0) }
            result.outcome = .impossible
            if options.through.isEmpty { result.suggestedThrough = route.stagesThatWork(mappingModels: options.mappingModels, storeRows: storeRows) }
            return result
        }
        do {
            layouts += chain.dropFirst().map { scope.layout($0, framework: framework) }
            result.steps = try runSteps(db, chain: chain, layouts: layouts, mappings: mappings, destinationHashes: route.hashes(destination))
            result.outcome = commits ? .migrated : .planned
            if commits { try checkResult(db, steps: result.steps) }
        } catch let stopped as StepImpossible {
            result.steps = stopped.steps
            result.outcome = .impossible
            if options.through.isEmpty { result.suggestedThrough = route.stagesThatWork(mappingModels: options.mappingModels, storeRows: storeRows) }
        } catch let refused as DataLossRefused {
            result.steps = refused.steps
            result.outcome = .refusedDataLoss
        }
        return result
    }

    // MARK: - Steps

    /// Runs the steps, a savepoint per step; the metadata of the last version is written last.
    /// `layouts` are the versions of `chain`, laid out.
    private mutating func runSteps(
        _ db: Database, chain: [ModelVersion], layouts: [StoreLayout], mappings: [InferredMapping], destinationHashes: [String: VersionHash]
    ) throws -> [MigrationStep] {
        for (index, inferred) in mappings.enumerated() {
            let (source, destination) = (chain[index], chain[index + 1])
            options.progress?("step \(index + 1)/\(mappings.count): \(source.name) → \(destination.name)")
            // What only rows decide is decided on the rows as they are at this step.
            let mapping = try RowEvidence.resolve(inferred, source: source, layout: layouts[index], in: db)
            guard mapping.isPossible else {
                throw StepImpossible(steps: steps + [MigrationStep(source: source.name, destination: destination.name, mapping: mapping)])
            }
            var builder = try StepBuilder(
                db: db, source: source, destination: destination, layouts: (layouts[index], layouts[index + 1]), mapping: mapping, reportsForeignEntityRows: !commits)
            do {
                try builder.build()
            } catch let error as MigrationError {
                throw error.during(source.name, destination.name, at: path)
            }
            let step = builder.step
            steps.append(step)
            if commits && step.risk == .dropsData && !options.allowsDataLoss {
                throw DataLossRefused(steps: steps)
            }
            if commits && options.makesBackup && pendingBackup == nil { try makeBackup(version: chain[0].name) }
            try db.inSavepoint {
                for statement in step.statements {
                    if statement.sql.hasPrefix("INSERT INTO") || statement.sql.hasPrefix("UPDATE") {
                        options.progress?("  \(statement.purpose)")
                    }
                    try db.execute(sql: statement.sql)
                }
                return .commit
            }
        }
        // The transaction makes stages atomic, so the metadata and model cache of the
        // intermediate versions are never seen: only the last is written.
        try StoreMetadataUpdate.apply(chain[chain.count - 1], hashes: destinationHashes, to: db, at: path)
        return steps
    }

    // MARK: - Checks

    /// Refuses a damaged store before anything reads its rows, checking what every step writes
    /// whatever the versions: the schema, the freelist new pages come from, and the bookkeeping
    /// tables.
    ///
    /// Not the whole file: `PRAGMA quick_check` reads every page, about 40 % of the time of a
    /// rewrite that copies the whole store and all of an additive step's time, which reads no
    /// row (Benchmarks/README.md). The tables a step copies or updates are read page by page
    /// with `cell_size_check` on, where SQLite refuses a damaged page as `SQLITE_CORRUPT`
    /// before anything is committed; what the step wrote is checked in full before it commits
    /// (``checkResult(_:steps:)``). Damage in a table no step touches stays where it was, as
    /// `store check` reports it. The pointer map of an `auto_vacuum` store, which SQLite
    /// trusts when it frees and moves pages and which a check of some tables skips, is read
    /// page by page (one in `usable size / 5`).
    private func checkStore(_ db: Database) throws {
        try StoreIntegrity.check(db, path: path, depth: .quick, tables: StoreIntegrity.bookkeepingTables)
        try StoreIntegrity.checkPointerMap(db, path: path)
    }

    /// Refuses a store that lacks a table (entity or join table) its version has, naming it: a
    /// migration would otherwise recreate it empty.
    private func checkTables(of version: ModelVersion, layout: StoreLayout, in db: Database) throws {
        let differences = layout.schema.differences(from: try StoreSchema.read(from: db))
        let missing = differences.compactMap { difference -> String? in
            if case .missingTable(let table) = difference { return table }
            return nil
        }
        guard let first = missing.first else { return }
        throw StoreError(
            .incompatibleSchema, path: path,
            message: "the store has no table \(first), which '\(version.name)' has"
                + (missing.count > 1 ? " (nor \(missing.dropFirst().joined(separator: ", ")))" : "") + ": it was changed outside Core Data")
    }

    /// Checks what the migration wrote (the tables its steps rewrote, filled, updated or
    /// indexed, with their indexes, and the bookkeeping tables) before it is committed: a
    /// damaged result fails the migration, and the rollback leaves the store as it was.
    private func checkResult(_ db: Database, steps: [MigrationStep]) throws {
        let written = StoreIntegrity.bookkeepingTables + steps.flatMap(\.writtenTables)
        do {
            try StoreIntegrity.check(db, path: path, depth: .full, tables: StepBuilder.unique(written))
        } catch let error as StoreError {
            throw MigrationError(.failed, path: path, message: "the migrated database fails SQLite's integrity check: \(error.message)", sqliteCode: 11)
        }
    }

    // MARK: - Backup

    /// Copies the store for its backup, under the write lock this run holds, before anything
    /// is written; the copy is named when the migration commits.
    private mutating func makeBackup(version: String) throws {
        let safeVersion = version.map { $0.isLetter || $0.isNumber || $0 == "." || $0 == "-" ? $0 : "_" }
        options.progress?("backing up\(options.backupPath.map { " to \($0)" } ?? "")")
        pendingBackup = try StoreBackup.prepare(path, for: options.backupPath, tag: "pre-\(String(safeVersion))")
    }

    /// Removes the backup this run made, when the store ends as it was.
    private mutating func discardBackup() {
        pendingBackup?.discard()
        pendingBackup = nil
        guard let made = backup else { return }
        try? FileManager.default.removeItem(atPath: made)
        try? FileManager.default.removeItem(atPath: StoreLeftovers.supportFolder(of: made))
        backup = nil
    }

    /// After an I/O failure (a full disk) SQLite leaves the rollback to whoever opens the store
    /// next, from its hot journal; roll it back now, so the store is whole again before we report.
    private static func recover(_ path: String) {
        _ = try? HotJournal.rollBack(path)
    }
}
