import Foundation
import ModelStore

/// Why a store did not load: one error type for every failure of ``PersistentContainer``, with
/// Core Data's domain and code, a class to switch on, the versions involved and the store's
/// metadata when it could be read.
public struct PersistentStoreLoadError: Error, Sendable, CustomStringConvertible {
    /// The class of failure, which decides the recovery (``RecoveryPolicy``).
    public enum Kind: String, Sendable, CaseIterable, Codable {
        /// Another version of the model made the store and migration is off (134100).
        case incompatibleVersion
        /// The migration ran and failed; the store is as it was (134110, 134111 for a constraint).
        case migrationFailed
        /// No version of the model made the store, or a newer one did (134130).
        case missingSourceModel
        /// Migration needs a mapping model and inference is off (134140).
        case missingMappingModel
        /// The inferred mapping cannot migrate this store (134190).
        case inferredMappingFailed
        /// The file is not a SQLite database or is damaged (259; SQLite's 11 or 26 underneath).
        case corrupted
        /// No store at the URL, and the loader may not create one (260).
        case notFound
        /// Another process holds the store's lock past the timeout (134090).
        case locked
        /// No permission to read (257) or write (513) the store or its folder.
        case permissionDenied
        /// The store's volume is mounted read-only and the load needs to write (642).
        case readOnlyVolume
        /// A SQLite database without Core Data's metadata: someone else's database (134010).
        case notACoreDataStore
        /// The hashes are the current version's but the tables are not (134020).
        case incompatibleSchema
    }

    /// Core Data's and Foundation's errors are both in `NSCocoaErrorDomain`.
    public static let domain = "NSCocoaErrorDomain"

    /// The class of the failure, which decides the recovery.
    public var kind: Kind
    /// The `NSCocoaErrorDomain` code Core Data would report.
    public var code: Int
    /// The store's path (`/dev/null` for an in-memory store).
    public var path: String
    /// What went wrong, in words.
    public var message: String
    /// The version of the model that made the store, when one did.
    public var storeVersion: String?
    /// The version the store must have to load: the model's current version.
    public var modelVersion: String?
    /// The store's metadata, when it could be read.
    public var metadata: StoreMetadata?
    /// The SQLite result code underneath, when there is one.
    public var sqliteCode: Int32?

    /// A load error of class `kind`; `code` defaults to the class's Core Data code.
    public init(
        _ kind: Kind, code: Int? = nil, path: String, message: String, storeVersion: String? = nil,
        modelVersion: String? = nil, metadata: StoreMetadata? = nil, sqliteCode: Int32? = nil
    ) {
        self.kind = kind
        self.code = code ?? kind.code
        self.path = path
        self.message = message
        self.storeVersion = storeVersion
        self.modelVersion = modelVersion
        self.metadata = metadata
        self.sqliteCode = sqliteCode
    }

    /// `NSCocoaErrorDomain`.
    public var domain: String { Self.domain }

    /// The path, the message, the versions when known, the class and the code.
    public var description: String {
        let versions = storeVersion.map { " (store: '\($0)', model: '\(modelVersion ?? "?")')" } ?? ""
        return "\(path): \(message)\(versions) [\(kind.rawValue), \(domain) \(code)]"
    }
}

/// Bridged to `NSError` as Core Data's load errors are, so that code testing
/// `error.domain == NSCocoaErrorDomain && error.code == 134100` ports as it is: the code, the
/// store's path (`NSFilePathErrorKey`), the reason, the store's metadata under "metadata" as
/// Core Data gives it for 134100, and SQLite's code in `NSSQLiteErrorDomain` when there is one.
extension PersistentStoreLoadError: CustomNSError {
    /// `NSCocoaErrorDomain`.
    public static var errorDomain: String { domain }

    /// Core Data's code.
    public var errorCode: Int { code }

    /// The user info Core Data gives a load error.
    public var errorUserInfo: [String: Any] {
        var info: [String: Any] = [NSLocalizedDescriptionKey: description, NSFilePathErrorKey: path, "reason": message]
        if let metadata {
            var plist = metadata.plist
            if let uuid = metadata.uuid, plist["NSStoreUUID"] == nil { plist["NSStoreUUID"] = uuid }
            if plist["NSStoreType"] == nil { plist["NSStoreType"] = "SQLite" }
            info["metadata"] = plist
        }
        if let sqliteCode { info["NSSQLiteErrorDomain"] = Int(sqliteCode) }
        return info
    }
}

extension PersistentStoreLoadError.Kind {
    /// The code Core Data (or Foundation, for file errors) reports for this class.
    public var code: Int {
        switch self {
        case .incompatibleVersion: 134100  // NSPersistentStoreIncompatibleVersionHashError
        case .migrationFailed: 134110  // NSMigrationError
        case .missingSourceModel: 134130  // NSMigrationMissingSourceModelError
        case .missingMappingModel: 134140  // NSMigrationMissingMappingModelError
        case .inferredMappingFailed: 134190  // NSInferredMappingModelError
        case .corrupted: 259  // NSFileReadCorruptFileError
        case .notFound: 260  // NSFileReadNoSuchFileError
        case .locked: 134090  // NSPersistentStoreTimeoutError
        case .permissionDenied: 257  // NSFileReadNoPermissionError; 513 when writing
        case .readOnlyVolume: 642  // NSFileWriteVolumeReadOnlyError
        case .notACoreDataStore: 134010  // NSPersistentStoreTypeMismatchError
        case .incompatibleSchema: 134020  // NSPersistentStoreIncompatibleSchemaError
        }
    }
}
