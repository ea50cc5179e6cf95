import Foundation
import GRDB
import ModelSchema

/// The metadata Core Data keeps in a SQLite store's `Z_METADATA` table: the store UUID and the
/// property list with the model's version hashes, identifiers, checksum and digest.
public struct StoreMetadata: Sendable {
    /// `Z_METADATA.Z_UUID`, surfaced by Core Data as `NSStoreUUID`.
    public var uuid: String?
    /// `NSStoreModelVersionHashes`: entity name to 32-byte version hash.
    public var versionHashes: [String: VersionHash]
    /// `NSStoreModelVersionIdentifiers`.
    public var versionIdentifiers: [String]
    /// `NSStoreModelVersionChecksumKey`, written by Core Data since iOS 17 / macOS 14.
    public var versionChecksum: String?
    /// `NSStoreModelVersionHashesDigest`.
    public var hashesDigest: String?
    /// `NSPersistenceFrameworkVersion`: the Core Data build that wrote the store.
    public var frameworkVersion: Int?
    /// The whole decoded property list, custom keys of the app included.
    public var plist: [String: Any] { _plist.value }
    /// The Core Data build that wrote the store, the current one when the metadata names none.
    public var framework: FrameworkVersion { frameworkVersion.map(FrameworkVersion.init) ?? .current }

    private let _plist: UncheckedSendable<[String: Any]>

    init(uuid: String?, plist: [String: Any]) {
        self.uuid = uuid
        _plist = UncheckedSendable(value: plist)
        var hashes = [String: VersionHash]()
        for (name, value) in plist["NSStoreModelVersionHashes"] as? [String: Any] ?? [:] {
            if let data = value as? Data { hashes[name] = VersionHash(bytes: [UInt8](data)) }
        }
        versionHashes = hashes
        versionIdentifiers = (plist["NSStoreModelVersionIdentifiers"] as? [Any] ?? []).compactMap { $0 as? String }
        versionChecksum = plist["NSStoreModelVersionChecksumKey"] as? String
        hashesDigest = plist["NSStoreModelVersionHashesDigest"] as? String
        frameworkVersion = (plist["NSPersistenceFrameworkVersion"] as? NSNumber)?.intValue
    }

    /// Reads the metadata of the store at `path` without modifying the store or its `-wal`/`-shm`.
    public static func read(at path: String) throws -> StoreMetadata {
        try StoreSnapshot.withReadOnlyDatabase(at: path) { db in try required(from: db, path: path) }
    }

    /// The metadata of the open store at `path`; a database without `Z_METADATA` or without a
    /// readable row in it is `notACoreDataStore`.
    public static func required(from db: Database, path: String) throws -> StoreMetadata {
        guard try db.tableExists("Z_METADATA"), let metadata = try read(from: db) else {
            throw StoreError(.notACoreDataStore, path: path, message: "the database has no Core Data metadata (Z_METADATA)")
        }
        return metadata
    }

    /// The metadata of an open store; `nil` when `Z_METADATA` has no readable row.
    public static func read(from db: Database) throws -> StoreMetadata? {
        guard let row = try Row.fetchOne(db, sql: "SELECT Z_UUID, Z_PLIST FROM Z_METADATA") else { return nil }
        // Read without GRDB's subscripts, which stop the process on a value of another type.
        let uuid = String.fromDatabaseValue(row["Z_UUID"])
        let blob = Data.fromDatabaseValue(row["Z_PLIST"])
        guard let blob,
            let plist = try? PropertyListSerialization.propertyList(from: blob, format: nil) as? [String: Any]
        else { return nil }
        return StoreMetadata(uuid: uuid, plist: plist)
    }
}

/// A value the compiler cannot prove sendable (a decoded property list), immutable once made.
struct UncheckedSendable<Value>: @unchecked Sendable {
    let value: Value
}
