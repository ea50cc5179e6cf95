import Foundation
import GRDB
import ModelArchive
import ModelContext
import ModelSchema
import ModelStore

/// Opening a store read-only for a command that reads its objects or history (`fetch`,
/// `history`): with the version of `--model` whose entity hashes match it, or, without
/// `--model`, with the model the store carries in `Z_MODELCACHE`. Nothing is written and no file is
/// made beside the store, so it is byte-for-byte the same afterwards.
enum StoreReading {
    /// Runs `body` with a coordinator over the store at `store`, opened read-only with its model:
    /// in place where SQLite writes nothing beside it (``StoreSnapshot/inPlaceURI(of:)``), else
    /// on a private copy of its files, removed afterwards.
    static func withCoordinator<T>(store: String, model: String?, _ body: (PersistentStoreCoordinator) throws -> T) throws -> T {
        try StoreCheck.checkFile(store)
        let model = ManagedObjectModel(try storeVersion(store: store, model: model))
        var configuration = CoreDataFunctions.registering(in: Configuration())
        guard let uri = StoreSnapshot.inPlaceURI(of: store) else {
            return try StoreSnapshot.withPrivateCopy(of: store) { copy in
                let database = try DatabaseQueue(path: copy, configuration: configuration)
                defer { try? database.close() }
                return try body(PersistentStoreCoordinator(model: model, database: database))
            }
        }
        configuration.readonly = true
        let database = try StoreError.mapping(path: store) { try DatabaseQueue(path: uri, configuration: configuration) }
        defer { try? database.close() }
        return try body(PersistentStoreCoordinator(model: model, database: database))
    }

    /// The version that made the store: the matching version of `model`, or the store's model cache.
    private static func storeVersion(store: String, model: String?) throws -> ModelVersion {
        let metadata = try StoreInfo.read(at: store).metadata
        guard let model else {
            guard let archive = try StoreModelCache.archive(at: store) else {
                throw StoreError(.missingSourceModel, path: store, message: "the store has no model cache (Z_MODELCACHE); name its model with --model")
            }
            return try ModelUnarchiver.version(from: archive, name: "Store", path: store)
        }
        let match = VersionMatch(storeHashes: metadata.versionHashes, identifiers: metadata.versionIdentifiers, bundle: try ModelLoading.read(model))
        guard let version = match.matched else {
            throw StoreError(.incompatibleVersionHash, path: store, message: "no version of \(model) made this store (its entity hashes match none)")
        }
        return version
    }
}
