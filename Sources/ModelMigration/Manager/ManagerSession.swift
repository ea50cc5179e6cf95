import Foundation
import GRDB
import ModelSchema
import ModelStore

/// One run of ``MigrationManager`` on one database file (the store, or a dry run's private
/// copy). The source's write lock is held from the first read to the swap's commit; the
/// destination is built under a staging name `<store>.modelc-<UUID>` (which ``StoreLeftovers``
/// removes after a killed run), verified, and written into the store's own file in the same
/// transaction (``StoreSwap``): the store always holds a whole store, the old or the new.
struct ManagerSession {
    let manager: MigrationManager
    let path: String
    let database: String
    let options: MigrationManager.Options

    private var commits: Bool { !options.dryRun }
    private var scope: MigrationScope { MigrationScope(configuration: options.configuration) }

    func run() throws -> MigrationManager.Result {
        let queue = try StoreSwap.lockingQueue(database, store: path)
        defer { try? queue.close() }
        var result: MigrationManager.Result?
        let swap = StoreSwap(path: path, backupPath: options.backupPath, makesBackup: options.makesBackup)
        do {
            // Bad input is refused before anything changes, and checked again under the lock; the
            // pages are checked again only if another connection wrote in between.
            let checked = try queue.read { db -> Int in
                _ = try preflight(db, checkingPages: true)
                return try Self.dataVersion(db)
            }
            result = try swap.underLock(queue, migrated: { $0.outcome == .migrated }) { db in
                try perform(db, swap: swap, checkingPages: try Self.dataVersion(db) != checked)
            }
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

    /// Everything done under the source's lock.
    private func perform(_ db: Database, swap: StoreSwap, checkingPages: Bool) throws -> MigrationManager.Result {
        let (metadata, source, destination) = try preflight(db, checkingPages: checkingPages)
        let cleanup = commits ? swap.cleanUp(storeHashes: metadata.versionHashes) : StoreLeftovers.Cleanup()
        let model = manager.mappingModel
        var result = MigrationManager.Result(
            path: path, storeVersion: source.name, destination: destination.name, mappingModel: model.path, outcome: .upToDate,
            removedLeftovers: cleanup.removed, namedBackups: cleanup.namedBackups)
        if source.name == destination.name { return result }
        let hashes = VersionHasher(destination).entityHashes()
        if try scope.isCurrent(metadata, schema: StoreSchema.read(from: db), destination: destination, destinationHashes: hashes) { return result }
        let staging = database + ".modelc-\(UUID().uuidString)"
        defer { if !commits || result.outcome != .migrated { StoreSwap.removeStaging(staging) } }
        let destinationLayout = try StoreError.mapping(path: path) {
            try StoreCreator.create(
                at: staging, version: destination, framework: metadata.framework, journalMode: .delete,
                uuid: metadata.uuid.flatMap(UUID.init(uuidString:)) ?? UUID(), configuration: options.configuration)
        }
        let counts = try build(
            staging, from: db, versions: (source, destination), layouts: (scope.layout(source, framework: metadata.framework), destinationLayout),
            hashes: hashes, result: &result)
        try verify(staging, hashes: hashes, destination: destination.name)
        let created = result.entityMappings.reduce(0) { $0 + $1.instancesCreated }
        guard counts.values.reduce(0, +) == created else {
            throw MigrationError(
                .failed, path: path, message: "the migrated store holds \(counts.values.reduce(0, +)) instances, but \(created) were created")
        }
        if commits {
            try swap.swap(staging, into: db, version: source.name)
            result.outcome = .migrated
        } else {
            result.outcome = .planned
        }
        return result
    }

    /// The checks that come before anything else: the database is intact, a version of the
    /// bundle made it, the mapping model starts at that version and leads to a version of it.
    private func preflight(_ db: Database, checkingPages: Bool) throws -> (StoreMetadata, ModelVersion, ModelVersion) {
        if checkingPages { try StoreIntegrity.check(db, path: path, depth: .quick) }
        let metadata = try StoreMetadata.required(from: db, path: path)
        let match = VersionMatch(storeHashes: metadata.versionHashes, identifiers: metadata.versionIdentifiers, bundle: manager.bundle)
        guard let source = match.matched else {
            throw StoreError(.missingSourceModel, path: path, message: "no version of the model made the store")
        }
        let model = manager.mappingModel
        guard MappingModel.recorded(model.sourceEntityHashes, areIn: metadata.versionHashes) else {
            throw StoreError(
                .missingSourceModel, path: path,
                message: "the mapping model '\(model.name)' was not made for the store's version '\(source.name)' (its source hashes differ)")
        }
        let destination = try manager.destinationVersion(named: options.destination)
        try scope.check(source, path: path)
        return (metadata, source, destination)
    }

    /// SQLite's count of the changes other connections committed to the database, as this
    /// connection sees it (`PRAGMA data_version`).
    private static func dataVersion(_ db: Database) throws -> Int {
        try Int.fetchOne(db, sql: "PRAGMA data_version") ?? 0
    }

    /// Runs the passes into the staging store; returns the instances created per destination entity.
    private func build(
        _ staging: String, from db: Database, versions: (source: ModelVersion, destination: ModelVersion),
        layouts: (source: StoreLayout, destination: StoreLayout), hashes: [String: VersionHash], result: inout MigrationManager.Result
    ) throws -> [String: Int] {
        let (source, destination) = versions
        // Core Data's functions, which the derived attributes' triggers call as rows go in.
        let queue = try DatabaseQueue(path: staging, configuration: CoreDataFunctions.registering(in: Configuration()))
        defer { try? queue.close() }
        let model = manager.mappingModel
        let policies: [any EntityMigrationPolicy] = model.entityMappings.map { mapping in
            mapping.policyClassName.flatMap { $0.isEmpty ? nil : manager.registry.policy(named: $0) } ?? DefaultMigrationPolicy()
        }
        var reports = [EntityMappingReport]()
        try queue.writeWithoutTransaction { target in
            // A dry run's new store has no uniqueness indexes, so that its validation pass counts
            // the duplicates a real run stops at, at the first, with 134111.
            if !commits {
                for index in layouts.destination.schema.indexes where index.sql.hasPrefix("CREATE UNIQUE INDEX") {
                    try target.execute(sql: "DROP INDEX IF EXISTS \(index.name.quotedDatabaseIdentifier)")
                }
            }
            let sourceRows = ObjectRows(db: db, version: source, layout: layouts.source, side: .source)
            let destinationRows = ObjectRows(db: target, version: destination, layout: layouts.destination, side: .destination)
            // Page caches of a fixed size (32 MB for the store, 16 MB for the associations, whose
            // set-based tables are written and read in key order): memory stays flat however
            // large the store.
            try target.execute(sql: "PRAGMA cache_size = -32768; PRAGMA temp.cache_size = -16384")
            if options.usesSQL { try target.execute(sql: "ATTACH DATABASE ? AS modelc_source", arguments: [database]) }
            // Deferred: an immediate transaction would also take the attached source's write lock,
            // which this run's source connection holds.
            try target.inTransaction(.deferred) {
                let context = MigrationContext(
                    mappingModel: model, source: sourceRows, destination: destinationRows, associations: try Associations(db: target),
                    registry: manager.registry, userInfo: options.userInfo, path: path)
                let functions = options.usesSQL ? try SQLFunctions(context: context) : nil
                reports = try MigrationRunner(context: context, policies: policies, progress: options.progress, functions: functions)
                    .run(countingOnly: !commits)
                try destinationRows.writePrimaryKeyMaximums()
                // The app's own metadata keys are kept, the version's keys are the destination's.
                if let plist = try Data.fetchOne(db, sql: "SELECT Z_PLIST FROM Z_METADATA") {
                    try target.execute(sql: "UPDATE Z_METADATA SET Z_PLIST = ?", arguments: [plist])
                    try StoreMetadataUpdate.apply(destination, hashes: hashes, to: target, at: path)
                }
                return .commit
            }
            if options.usesSQL { try target.execute(sql: "DETACH DATABASE modelc_source") }
        }
        result.entityMappings = reports
        var counts = [String: Int]()
        try queue.read { target in
            let rows = ObjectRows(db: target, version: destination, layout: layouts.destination, side: .destination)
            for entity in destination.entities where !entity.isAbstract && layouts.destination.entity(named: entity.name) != nil {
                counts[entity.name] = try rows.count(of: entity.name)
            }
        }
        return counts
    }

    /// Checks the new store before it replaces the old: SQLite's integrity check, the metadata
    /// hashes and the model cache (the caller compares the rows with the instances created).
    private func verify(_ staging: String, hashes: [String: VersionHash], destination: String) throws {
        let queue = try DatabaseQueue(path: staging)
        defer { try? queue.close() }
        try queue.read { db in
            do {
                try StoreIntegrity.check(db, path: path, depth: .full)
            } catch let error as StoreError {
                throw MigrationError(.failed, path: path, message: "the migrated store fails SQLite's integrity check: \(error.message)", sqliteCode: 11)
            }
            let metadata = try StoreMetadata.required(from: db, path: staging)
            guard metadata.versionHashes == hashes else {
                throw MigrationError(.failed, path: path, message: "the migrated store's metadata does not name '\(destination)'")
            }
            if try db.tableExists("Z_MODELCACHE"), try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM Z_MODELCACHE") != 1 {
                throw MigrationError(.failed, path: path, message: "the migrated store has no model cache")
            }
        }
    }
}
