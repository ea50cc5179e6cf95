import Foundation
import GRDB
import ModelArchive
import ModelCompiler
import ModelObjects
import ModelSchema
import ModelStore

/// Opening a store read-only for a command that reads its objects or history (`fetch`,
/// `history`): with the version of `--model` whose entity hashes match it, or, without
/// `--model`, with the model the store carries in `Z_MODELCACHE`; a table that lacks a column
/// of that version is `incompatibleSchema` (134020), as `store check` says, not a SQL error. Nothing is written to the store
/// and no file is left beside it, so it is byte-for-byte the same afterwards unless another
/// process wrote it meanwhile.
enum StoreReading {
    /// Runs `body` with a coordinator over the store at `store`, opened with its model to read
    /// it as a live store that another process may be writing meanwhile
    /// (``StoreSnapshot/withReadingQueue(at:configuration:busyTimeout:_:)``): in place, or on a
    /// private copy of its files, removed afterwards, where SQLite would write beside it.
    static func withCoordinator<T>(
        store: String, model: String?, options: ModelValidator.Options, _ body: (PersistentStoreCoordinator) throws -> T) throws -> T {
        try StoreCheck.checkFile(store)
        let version = try storeVersion(store: store, model: model, options: options)
        return try StoreSnapshot.withReadingQueue(at: store, configuration: CoreDataFunctions.registering(in: Configuration())) { database in
            try database.read { try StoreCheck.checkColumns(of: version, in: $0, path: store) }
            return try body(PersistentStoreCoordinator(model: ManagedObjectModel(version), database: database))
        }
    }

    /// The version that made the store: the matching version of `model`, or the store's model cache.
    private static func storeVersion(store: String, model: String?, options: ModelValidator.Options) throws -> ModelVersion {
        let metadata = try StoreInfo.read(at: store).metadata
        guard let model else {
            guard let archive = try StoreModelCache.archive(at: store) else {
                throw StoreError(.missingSourceModel, path: store, message: "the store has no model cache (Z_MODELCACHE); name its model with --model")
            }
            return try ModelUnarchiver.version(from: archive, name: "Store", path: store)
        }
        let match = VersionMatch(storeHashes: metadata.versionHashes, identifiers: metadata.versionIdentifiers, bundle: try ModelLoading.read(model, options: options))
        guard let version = match.matched else {
            throw StoreError(.incompatibleVersionHash, path: store, message: "no version of \(model) made this store (its entity hashes match none)")
        }
        return version
    }
}
