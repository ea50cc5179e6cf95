import Foundation
import GRDB
import ModelSchema
import ModelStore

/// Runs a lightweight migration on a store as Core Data does: finds the store's version by its
/// hashes and goes in ONE direct step to the destination, whatever the versions' names or order
/// (``MigrationPath``); stages through other versions only when the caller names them. Steps
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
        /// When the direct step is impossible but stages through the bundle's versions are not:
        /// the versions to pass to `--through`.
        public var suggestedThrough: [String]?

        public var risk: MigrationRisk { steps.map(\.risk).max() ?? .safe }
    }

    /// Plans (dry run) or runs the migration of the store at `path` to a version of `bundle`.
    ///
    /// Only the metadata is read up front, in place: no copy and no full scan of the store, so
    /// that a purely additive migration of a large store takes milliseconds.
    public static func migrate(storeAt path: String, bundle: ModelBundle, options: Options = Options()) throws -> Result {
        try StoreCheck.checkFile(path)
        try StoreCheck.checkNotLocked(path)
        let metadata = try readMetadata(path)
        let match = VersionMatch(storeHashes: metadata.versionHashes, identifiers: metadata.versionIdentifiers, bundle: bundle)
        guard let storeVersion = match.matched else {
            let nearest = match.nearest.map { " (nearest: '\($0.name)')" } ?? ""
            throw StoreError(.missingSourceModel, path: path, message: "no version of the model made the store\(nearest)")
        }
        var route = try MigrationPath(bundle: bundle, from: storeVersion, to: options.destination, through: options.through, knownHashes: match.versionHashes)
        let chain = route.versions
        var result = Result(path: path, storeVersion: storeVersion.name, destination: chain[chain.count - 1].name, steps: [], outcome: .upToDate)
        if chain.count == 1 { return result }
        let hashes = chain.map { route.hashes($0) }
        var mappings = route.mappings()
        let framework = metadata.framework
        if !mappings[0].conditions.isEmpty {
            // The first step's data-decided reasons are decided now, on the store as it is:
            // no backup and no copy for a step its rows make impossible.
            let first = mappings[0]
            mappings[0] = try readStore(path) { db in try RowEvidence.resolve(first, source: chain[0], framework: framework, in: db) }
        }
        if let impossible = mappings.firstIndex(where: { !$0.couldBePossible }) {
            result.steps = mappings[...impossible].map { MigrationStep(source: $0.sourceVersion, destination: $0.destinationVersion, mapping: $0) }
            result.outcome = .impossible
            if options.through.isEmpty { result.suggestedThrough = route.stagesThatWork() }
            return result
        }
        do {
            if options.dryRun {
                result.steps = try StoreSnapshot.withPrivateCopy(of: path) { copy in
                    try run(copy, chain: chain, mappings: mappings, destinationHashes: hashes[hashes.count - 1], framework: framework, options: options, commit: false)
                }
                result.outcome = .planned
                return result
            }
            try runInPlace(&result, chain: chain, mappings: mappings, destinationHashes: hashes[hashes.count - 1], framework: framework, options: options)
        } catch let stopped as StepImpossible {
            result.steps = stopped.steps
            result.outcome = .impossible
            if options.through.isEmpty { result.suggestedThrough = route.stagesThatWork() }
        }
        return result
    }

    /// Backs the store up and runs the steps on it.
    private static func runInPlace(
        _ result: inout Result, chain: [ModelVersion], mappings: [InferredMapping], destinationHashes: [String: VersionHash],
        framework: FrameworkVersion, options: Options
    ) throws {
        let path = result.path
        if options.makesBackup {
            let backup = options.backupPath ?? defaultBackupPath(for: path, version: result.storeVersion)
            options.progress?("backing up to \(backup)")
            try StoreBackup.backup(path, to: backup)
            result.backupPath = backup
        }
        do {
            result.steps = try run(path, chain: chain, mappings: mappings, destinationHashes: destinationHashes, framework: framework, options: options, commit: true)
            result.outcome = .migrated
        } catch let refused as DataLossRefused {
            result.steps = refused.steps
            result.outcome = .refusedDataLoss
        }
    }

    /// The store's metadata, read from the store itself with a read-only connection.
    private static func readMetadata(_ path: String) throws -> StoreMetadata {
        try readStore(path) { db in try StoreMetadata.required(from: db, path: path) }
    }

    /// Reads the store in place with a read-only connection.
    private static func readStore<T>(_ path: String, _ body: (Database) throws -> T) throws -> T {
        var configuration = Configuration()
        configuration.readonly = true
        configuration.busyMode = .timeout(5)
        do {
            let queue = try DatabaseQueue(path: path, configuration: configuration)
            defer { try? queue.close() }
            return try queue.read(body)
        } catch let error as DatabaseError {
            throw StoreError(sqlite: error, path: path)
        }
    }

    /// Runs the steps in one transaction, a savepoint per step; commits only when all succeed.
    private static func run(
        _ path: String, chain: [ModelVersion], mappings: [InferredMapping], destinationHashes: [String: VersionHash],
        framework: FrameworkVersion, options: Options, commit: Bool
    ) throws -> [MigrationStep] {
        var configuration = Configuration()
        configuration.busyMode = .timeout(5)
        configuration.label = path
        let queue = try DatabaseQueue(path: path, configuration: configuration)
        defer { try? queue.close() }
        var steps = [MigrationStep]()
        do {
            try queue.writeWithoutTransaction { db in
                try db.inTransaction {
                    for (index, inferred) in mappings.enumerated() {
                        let (source, destination) = (chain[index], chain[index + 1])
                        options.progress?("step \(index + 1)/\(mappings.count): \(source.name) → \(destination.name)")
                        // What only rows decide is decided on the rows as they are at this step.
                        let mapping = try RowEvidence.resolve(inferred, source: source, framework: framework, in: db)
                        guard mapping.isPossible else {
                            throw StepImpossible(steps: steps + [MigrationStep(source: source.name, destination: destination.name, mapping: mapping)])
                        }
                        var builder = try StepBuilder(db: db, source: source, destination: destination, mapping: mapping, framework: framework)
                        do {
                            try builder.build()
                        } catch let error as MigrationError {
                            throw error.during(source.name, destination.name)
                        }
                        let step = builder.step
                        steps.append(step)
                        if commit && step.risk == .dropsData && !options.allowsDataLoss {
                            throw DataLossRefused(steps: steps)
                        }
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
                    // The transaction makes stages atomic, so the metadata and model cache of
                    // the intermediate versions are never seen: only the last is written.
                    try StoreMetadataUpdate.apply(chain[chain.count - 1], hashes: destinationHashes, to: db, at: path)
                    return commit ? .commit : .rollback
                }
            }
        } catch let error as DatabaseError {
            try? queue.close()
            recover(path)
            throw MigrationFailure(error, step: steps.last)
        }
        return steps
    }

    /// After an I/O failure (a full disk) SQLite leaves the rollback to whoever opens the store
    /// next, from its hot journal; open it now, so the store is whole again before we report.
    private static func recover(_ path: String) {
        guard let queue = try? DatabaseQueue(path: path) else { return }
        _ = try? queue.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM sqlite_master") }
        try? queue.close()
    }

    static func defaultBackupPath(for path: String, version: String) -> String {
        let safeVersion = version.map { $0.isLetter || $0.isNumber || $0 == "." || $0 == "-" ? $0 : "_" }
        return SiblingName.free(for: path, tag: "pre-\(String(safeVersion))")
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
