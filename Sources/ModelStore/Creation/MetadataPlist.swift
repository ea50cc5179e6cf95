import Foundation
import ModelSchema

/// The metadata property list Core Data writes into `Z_METADATA.Z_PLIST` for a new store: hashes, identifiers and, for builds that write them, digest, checksum and
/// maximum framework version.
enum MetadataPlist {
    /// `hashes`, when given, are `version`'s entity hashes, computed by the caller already.
    static func make(for version: ModelVersion, framework: FrameworkVersion, hashes: [String: VersionHash]? = nil) -> [String: Any] {
        let hasher = VersionHasher(version)
        let hashes = hashes ?? hasher.entityHashes()
        var plist: [String: Any] = [
            "NSStoreType": "SQLite",
            "NSPersistenceFrameworkVersion": framework.number,
            "NSStoreModelVersionHashesVersion": 3,
            "NSStoreModelVersionIdentifiers": [version.versionIdentifier],
            "NSStoreModelVersionHashes": hashes.mapValues { Data($0.bytes) },
            "_NSAutoVacuumLevel": "2",
        ]
        if framework.writesHashesDigest { plist["NSStoreModelVersionHashesDigest"] = hasher.hashesDigest(hashes) }
        if framework.writesVersionChecksum { plist["NSStoreModelVersionChecksumKey"] = hasher.versionChecksum(hashes) }
        if framework.writesMaximumFrameworkVersion { plist["NSPersistenceMaximumFrameworkVersion"] = framework.number }
        return plist
    }

    static func encode(_ plist: [String: Any]) throws -> Data {
        try PropertyListSerialization.data(fromPropertyList: plist, format: .binary, options: 0)
    }
}
