import Foundation
import GRDB
import ModelSchema

/// Whether a store opens with the current version of a model, and if not, why, by class: the
/// checks Core Data makes when it loads a store, in the same order, without changing a byte of
/// the store or its sidecar files.
public struct StoreCheck: Sendable {
    public var path: String
    /// The model's current version, which the store must have been made by to open as is.
    public var currentVersion: String?
    /// The version the store's hashes identify, when the store could be read that far.
    public var match: VersionMatch?
    /// Why the store does not open with the current version; `nil` when it does.
    public var error: StoreError?
    /// Rows whose entity number belongs to another table, by the version that made the store
    /// (found only when asked: it reads every entity table).
    public var foreignEntityRows: [ForeignEntityRows] = []

    /// Checks the store at `path` against `bundle`, waiting up to `busyTimeout` seconds for a
    /// store another process holds locked (a loader with its own retries passes 0); with
    /// `findingForeignEntityRows`, also reads every entity table of the store's version for
    /// ``foreignEntityRows``. A store added for a named `configuration` is checked as Core Data's
    /// `isConfiguration(withName:compatibleWithStoreMetadata:)` does: only the hashes and tables
    /// of that configuration's entities must be the current version's.
    public static func run(
        storeAt path: String, bundle: ModelBundle, busyTimeout: TimeInterval = 5, findingForeignEntityRows: Bool = false,
        configuration: String? = nil
    ) -> StoreCheck {
        var check = StoreCheck(path: path, currentVersion: bundle.currentVersion?.name)
        do {
            try check.inspect(bundle, busyTimeout: busyTimeout, findingForeignEntityRows: findingForeignEntityRows, configuration: configuration)
        } catch let error as StoreError {
            check.error = error
        } catch let error as DatabaseError {
            check.error = StoreError(sqlite: error, path: path)
        } catch {
            check.error = StoreError(.corrupt, path: path, message: "cannot read the store: \(error)")
        }
        return check
    }

    private mutating func inspect(_ bundle: ModelBundle, busyTimeout: TimeInterval, findingForeignEntityRows: Bool, configuration: String?) throws {
        try Self.checkFile(path)
        // A writer's lock held for an instant is an app at work, not a locked store.
        try Self.waitUntilNotLocked(path, timeout: busyTimeout)
        if HotJournal.isConfirmed(beside: path, timeout: busyTimeout) {
            throw StoreError(
                .hotJournal, path: path,
                message: "a hot rollback journal is beside the store: a write was interrupted and SQLite will roll it back when a writer next opens the store")
        }
        let (metadata, schema) = try Self.read(path, busyTimeout: busyTimeout)
        guard let current = bundle.currentVersion else {
            throw StoreError(.missingSourceModel, path: path, message: "the model has no versions")
        }
        let match = VersionMatch(storeHashes: metadata.versionHashes, identifiers: metadata.versionIdentifiers, bundle: bundle)
        self.match = match
        if !ModelVersion.isDefaultConfiguration(configuration) {
            return try Self.checkConfiguration(configuration, of: current, path: path, hashes: metadata.versionHashes, framework: metadata.framework, schema: schema)
        }
        let order = bundle.versions.map(\.name)
        if let matched = match.matched, findingForeignEntityRows {
            let layout = StoreLayout(matched, framework: metadata.framework, configuration: configuration)
            foreignEntityRows = try StoreSnapshot.withReadOnlyDatabase(at: path, busyTimeout: busyTimeout) { db in
                try ForeignEntityRows.find(in: db, layout: layout)
            }
        }
        if let matched = match.matched {
            // A table without a column of the version that made the store cannot be read with
            // that version, nor migrated from it: a current store cannot open, an older one
            // cannot be migrated.
            try Self.checkTables(
                of: matched, framework: metadata.framework, schema: schema, path: path, columnsOnly: matched.name != current.name)
            if matched.name != current.name {
                let isNewer = (order.firstIndex(of: matched.name) ?? 0) > (order.firstIndex(of: current.name) ?? 0)
                if isNewer {
                    throw StoreError(
                        .newerModel, path: path,
                        message: "the store was made by '\(matched.name)', which is newer than the current version '\(current.name)'")
                }
                throw StoreError(
                    .incompatibleVersionHash, path: path,
                    message: "the store was made by '\(matched.name)', not by the current version '\(current.name)'")
            }
            return
        }
        if Self.isNewer(identifiers: metadata.versionIdentifiers, than: bundle.versions) {
            throw StoreError(
                .newerModel, path: path,
                message: "no version of the model made the store; its version identifier '\(metadata.versionIdentifiers.joined(separator: ", "))' is newer than any version's")
        }
        let nearest = match.nearest.map { " (nearest: '\($0.name)', \(match.differences.count) entities differ)" } ?? ""
        throw StoreError(.missingSourceModel, path: path, message: "no version of the model made the store\(nearest)")
    }

    /// Checks a store added for `configuration` of `current`: each of the configuration's
    /// entities has its current hash in the store's metadata (hashes of other entities, which
    /// belong to other stores, do not matter) and its tables are the configuration's.
    static func checkConfiguration(
        _ configuration: String?, of current: ModelVersion, path: String, hashes: [String: VersionHash], framework: FrameworkVersion, schema: StoreSchema
    ) throws {
        guard let names = current.entityNames(inConfiguration: configuration) else {
            throw StoreError(.incompatibleSchema, path: path, message: "the model has no configuration named '\(configuration ?? "")'")
        }
        let model = VersionHasher(current).entityHashes()
        if let differing = names.sorted().first(where: { hashes[$0] != model[$0] }) {
            throw StoreError(
                .incompatibleVersionHash, path: path,
                message: "entity '\(differing)' of configuration '\(configuration ?? "")' is not as the current version '\(current.name)' has it")
        }
        let layout = StoreLayout(current, framework: framework, configuration: configuration)
        if let first = layout.schema.differences(from: schema).first(where: { !$0.isCompatible }) {
            throw StoreError(
                .incompatibleSchema, path: path,
                message: "the store's hashes are those of configuration '\(configuration ?? "")' of '\(current.name)' but its tables are not: \(first)")
        }
    }

    /// Throws `incompatibleSchema` (134020) naming the first table and column (or table) of
    /// `version`'s layout that `schema` lacks: the store's hashes say `version` made it, but
    /// reading its objects with that version would fail on the missing column. With
    /// `columnsOnly`, only a column missing from a table the store has counts (a store of a
    /// configuration has only that configuration's tables).
    public static func checkTables(
        of version: ModelVersion, framework: FrameworkVersion, schema: StoreSchema, path: String, columnsOnly: Bool = false
    ) throws {
        let missing = StoreLayout(version, framework: framework).schema.differences(from: schema).filter { difference in
            if case .missingColumn = difference { return true }
            return !columnsOnly && !difference.isCompatible
        }
        if let first = missing.first {
            throw StoreError(
                .incompatibleSchema, path: path,
                message: "the store's hashes are those of '\(version.name)' but its tables are not: \(first)"
                    + (missing.count > 1 ? " (and \(missing.count - 1) more)" : ""))
        }
    }

    /// ``checkTables(of:framework:schema:path:columnsOnly:)`` on the open store `db`, for a
    /// column missing from a table the store has: what reading its objects would stop on.
    public static func checkColumns(of version: ModelVersion, in db: Database, path: String) throws {
        let metadata = try StoreMetadata.required(from: db, path: path)
        try checkTables(of: version, framework: metadata.framework, schema: try StoreSchema.read(from: db), path: path, columnsOnly: true)
    }

    /// Throws `locked` when another process holds a write lock on the store; takes no lock.
    public static func checkNotLocked(_ path: String) throws {
        if LockProbe.isWriteLocked(path) { throw lockedError(path) }
    }

    /// Waits up to `timeout` seconds for no other process to hold a write lock on the store (as
    /// a writer's busy timeout waits), probing without taking any lock; then fails as
    /// ``checkNotLocked(_:)`` does. The probe that finds the store free is the one that decides:
    /// probing once more after it could meet a writer's next commit, and call a store that was
    /// free a moment before locked.
    public static func waitUntilNotLocked(_ path: String, timeout: TimeInterval = 5) throws {
        let deadline = Date().addingTimeInterval(timeout)
        while LockProbe.isWriteLocked(path) {
            guard Date() < deadline else { throw lockedError(path) }
            Thread.sleep(forTimeInterval: 0.005)
        }
    }

    /// The `locked` error of a store another process holds a write lock on.
    private static func lockedError(_ path: String) -> StoreError {
        StoreError(.locked, path: path, message: "another process holds a write lock on the store", sqliteCode: 5)
    }

    /// The checks made on the file itself: it exists, can be read and starts like a database.
    public static func checkFile(_ path: String) throws {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw StoreError.notFound(path: path)
        }
        if isDirectory.boolValue {
            throw StoreError(.corrupt, path: path, message: "the path is a folder, not a store file", sqliteCode: 26)
        }
        // Before any open: opening a FIFO for reading blocks until a writer comes.
        for file in [path, path + "-wal", path + "-shm", path + "-journal"] {
            if let kind = StoreFiles.nonRegularKind(atPath: file) {
                throw StoreError(.notRegularFile, path: path, message: "\(file) is a \(kind), not a regular file")
            }
        }
        // Through SQLite, not a descriptor of ours: closing that would drop the locks of a
        // connection of this process that has the store open (``StoreFileReader``).
        let header: [UInt8]
        do {
            header = try StoreFileReader.prefix(of: path, count: 16)
        } catch {
            throw StoreError.permissionDenied(path: path, writing: false)
        }
        guard header == StoreFiles.headerMagic else {
            let what = header.isEmpty ? "the file is empty" : "the file is not a SQLite database"
            throw StoreError(.corrupt, path: path, message: what, sqliteCode: 26)
        }
    }

    /// Reads metadata and schema read-only (``StoreSnapshot``), after SQLite's own consistency check
    /// (``StoreIntegrity``).
    static func read(_ path: String, busyTimeout: TimeInterval) throws -> (StoreMetadata, StoreSchema) {
        try StoreSnapshot.withReadOnlyDatabase(at: path, busyTimeout: busyTimeout) { db in
            try StoreIntegrity.check(db, path: path, depth: .quick)
            return (try StoreMetadata.required(from: db, path: path), try StoreSchema.read(from: db))
        }
    }

    /// Whether every version identifier of the store sorts after all of the model's.
    static func isNewer(identifiers: [String], than versions: [ModelVersion]) -> Bool {
        let store = identifiers.filter { !$0.isEmpty }
        let model = versions.map(\.versionIdentifier).filter { !$0.isEmpty }
        guard !store.isEmpty, !model.isEmpty else { return false }
        return store.allSatisfy { identifier in model.allSatisfy { FinderOrder.precedes($0, identifier) } }
    }
}
