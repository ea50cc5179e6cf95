import Foundation
import GRDB
import ModelArchive

/// The model a store carries in `Z_MODELCACHE`: what Core Data can fall back on when the
/// store's model version is no longer in the app.
public enum StoreModelCache {
    /// The store's model archive (a `.mom`), inflated; `nil` when the store has no model cache
    /// (stores written before about Core Data 400 have none).
    public static func archive(at path: String) throws -> [UInt8]? {
        let blob: Data? = try StoreSnapshot.withReadOnlyDatabase(at: path) { db in
            guard try db.tableExists("Z_MODELCACHE") else { return nil }
            return try Data.fetchOne(db, sql: "SELECT Z_CONTENT FROM Z_MODELCACHE")
        }
        guard let blob else { return nil }
        return try ModelCache.inflate([UInt8](blob))
    }
}
