import Foundation
import GRDB
import ModelArchive
import ModelSchema

/// Rewrites a store's metadata and model cache for another model version, as Core Data does at
/// the end of a migration: new hashes, identifiers, digest and checksum; the store UUID, the
/// Core Data build and the app's own metadata keys are kept.
package enum StoreMetadataUpdate {
    /// `hashes` are `version`'s entity hashes when the caller has them already; `path` names the
    /// store in errors.
    package static func apply(_ version: ModelVersion, hashes: [String: VersionHash]? = nil, to db: Database, at path: String) throws {
        let metadata = try StoreMetadata.required(from: db, path: path)
        let old = metadata.plist
        var plist = old
        for key in ["NSStoreModelVersionHashesDigest", "NSStoreModelVersionChecksumKey"] { plist[key] = nil }
        let new = MetadataPlist.make(for: version, framework: metadata.framework, hashes: hashes)
        for (key, value) in new where key != "_NSAutoVacuumLevel" || old[key] != nil {
            plist[key] = value
        }
        try db.execute(sql: "UPDATE Z_METADATA SET Z_PLIST = ? WHERE Z_VERSION = 1", arguments: [try MetadataPlist.encode(plist)])
        if try db.tableExists("Z_MODELCACHE") {
            let cache = Data(ModelCache.deflate(ModelArchiver.archive(version)))
            try db.execute(sql: "DELETE FROM Z_MODELCACHE")
            try db.execute(sql: "INSERT INTO Z_MODELCACHE (Z_CONTENT) VALUES (?)", arguments: [cache])
        }
    }
}
