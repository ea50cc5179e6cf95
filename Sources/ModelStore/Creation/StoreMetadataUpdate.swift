import Foundation
import GRDB
import ModelArchive
import ModelSchema

/// Rewrites a store's metadata and model cache for another model version, as Core Data does at
/// the end of a migration: new hashes, identifiers, digest and checksum; the store UUID, the
/// Core Data build and the app's own metadata keys are kept.
public enum StoreMetadataUpdate {
    public static func apply(_ version: ModelVersion, to db: Database) throws {
        guard let row = try Row.fetchOne(db, sql: "SELECT Z_PLIST FROM Z_METADATA WHERE Z_VERSION = 1"),
            let blob = row["Z_PLIST"] as Data?,
            let old = try PropertyListSerialization.propertyList(from: blob, format: nil) as? [String: Any]
        else {
            throw StoreError(.notACoreDataStore, path: db.configuration.label ?? "", message: "the store has no readable metadata")
        }
        let framework = FrameworkVersion((old["NSPersistenceFrameworkVersion"] as? NSNumber)?.intValue ?? FrameworkVersion.current.number)
        var plist = old
        for key in ["NSStoreModelVersionHashesDigest", "NSStoreModelVersionChecksumKey"] { plist[key] = nil }
        for (key, value) in MetadataPlist.make(for: version, framework: framework) where key != "_NSAutoVacuumLevel" || old[key] != nil {
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
