import Foundation
import GRDB
import ModelSchema
import ModelStore

/// Runs a lightweight migration chain on a store: finds the store's version by its hashes, plans
/// one step per version up to the destination, and runs every step as SQL in place, each in a
/// savepoint of one transaction, so that any failure (a constraint the data violates, a full
/// disk, the process killed) leaves the store exactly as it was.
///
/// A dry run does the same on a private copy, which is then thrown away: its counts are the
/// real run's.
public enum Migrator {
    public struct Options: Sendable {
        /// The destination version; `nil` for the current one.
        public var destination: String?
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
        guard let storeVersion = match.matched, let start = bundle.versions.firstIndex(where: { $0.name == storeVersion.name }) else {
            let nearest = match.nearest.map { " (nearest: '\($0.name)')" } ?? ""
            throw StoreError(.missingSourceModel, path: path, message: "no version of the model made the store\(nearest)")
        }
        guard let destination = options.destination.map({ bundle.version(named: $0) }) ?? bundle.currentVersion,
            let end = bundle.versions.firstIndex(where: { $0.name == destination.name })
        else {
            throw MigrationFailure(code: 134130, message: "the model has no version '\(options.destination ?? "")'")
        }
        var result = Result(path: path, storeVersion: storeVersion.name, destination: destination.name, steps: [], outcome: .upToDate)
        if start == end { return result }
        guard start < end else {
            throw MigrationFailure(
                code: 134506, message: "the store's version '\(storeVersion.name)' comes after '\(destination.name)'; migrations never go backwards")
        }
        let chain = Array(bundle.versions[start...end])
        let hashes = chain.map { match.versionHashes[$0.name] ?? VersionHasher($0).entityHashes() }
        let mappings = chain.indices.dropLast().map { index in
            MappingInference.infer(
                from: chain[index], to: chain[index + 1], sourceHashes: hashes[index], destinationHashes: hashes[index + 1])
        }
        if let impossible = mappings.firstIndex(where: { !$0.isPossible }) {
            result.steps = mappings[...impossible].map { MigrationStep(source: $0.sourceVersion, destination: $0.destinationVersion, mapping: $0) }
            result.outcome = .impossible
            return result
        }
        let framework = metadata.framework
        if options.dryRun {
            return try StoreSnapshot.withPrivateCopy(of: path) { copy in
                result.steps = try run(copy, chain: chain, mappings: mappings, destinationHashes: hashes[hashes.count - 1], framework: framework, options: options, commit: false)
                result.outcome = .planned
                return result
            }
        }
        if options.makesBackup {
            let backup = options.backupPath ?? defaultBackupPath(for: path, version: storeVersion.name)
            options.progress?("backing up to \(backup)")
            try StoreBackup.backup(path, to: backup)
            result.backupPath = backup
        }
        do {
            result.steps = try run(path, chain: chain, mappings: mappings, destinationHashes: hashes[hashes.count - 1], framework: framework, options: options, commit: true)
            result.outcome = .migrated
        } catch let refused as DataLossRefused {
            result.steps = refused.steps
            result.outcome = .refusedDataLoss
        }
        return result
    }

    /// The store's metadata, read from the store itself with a read-only connection.
    private static func readMetadata(_ path: String) throws -> StoreMetadata {
        var configuration = Configuration()
        configuration.readonly = true
        configuration.busyMode = .timeout(5)
        do {
            let queue = try DatabaseQueue(path: path, configuration: configuration)
            defer { try? queue.close() }
            return try queue.read { db in
                try StoreMetadata.required(from: db, path: path)
            }
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
                    for (index, mapping) in mappings.enumerated() {
                        let (source, destination) = (chain[index], chain[index + 1])
                        options.progress?("step \(index + 1)/\(mappings.count): \(source.name) → \(destination.name)")
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
                    // The transaction makes the chain atomic, so the metadata and model cache
                    // of the intermediate versions are never seen: only the last is written.
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

/// A step that would drop data in a run that does not allow it: the transaction rolls back.
struct DataLossRefused: Error {
    var steps: [MigrationStep]
}

/// A migration that failed while running; the store is left as it was.
public struct MigrationFailure: Error, Sendable, CustomStringConvertible {
    /// Core Data's code: 134111 for a violated constraint, 134110 otherwise (134130, 134506 for
    /// a missing or backward destination).
    public var code: Int
    public var message: String

    public init(code: Int, message: String) {
        self.code = code
        self.message = message
    }

    init(_ error: DatabaseError, step: MigrationStep?) {
        let during = step.map { " during \($0.source) → \($0.destination)" } ?? ""
        if error.resultCode == .SQLITE_CONSTRAINT {
            self.init(code: 134111, message: "the data violates a constraint of the destination\(during): \(error.message ?? "")")
        } else {
            self.init(code: 134110, message: "SQLite error \(error.resultCode.rawValue)\(during): \(error.message ?? "")")
        }
    }

    public var description: String { "\(message) [\(code)]" }
}
