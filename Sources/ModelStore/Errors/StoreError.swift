/// Why a store cannot be used as it is, by class, with the code Core Data or Foundation reports
/// for that failure and what is safe to do next.
public struct StoreError: Error, Sendable, Equatable, CustomStringConvertible {
    public var errorClass: StoreErrorClass
    /// The `NSCocoaErrorDomain` code Core Data would report.
    public var code: Int
    public var path: String
    /// What happened, for people.
    public var message: String
    /// The SQLite result code behind the failure, when there is one.
    public var sqliteCode: Int32?

    public init(_ errorClass: StoreErrorClass, code: Int? = nil, path: String, message: String, sqliteCode: Int32? = nil) {
        self.errorClass = errorClass
        self.code = code ?? errorClass.code
        self.path = path
        self.message = message
        self.sqliteCode = sqliteCode
    }

    /// What is safe to do next.
    public var advice: String { errorClass.advice }

    public var description: String { "\(path): \(message) [\(errorClass.rawValue), \(code)]" }

    static func notFound(path: String) -> StoreError {
        StoreError(.notFound, path: path, message: "no store at this path")
    }

    static func permissionDenied(path: String, writing: Bool) -> StoreError {
        StoreError(
            .permissionDenied, code: writing ? 513 : 257, path: path,
            message: writing ? "no permission to write here" : "no permission to read the store")
    }

    /// A model whose hierarchy's table would need more columns than SQLite allows.
    static func tooManyColumns(path: String, table: String, columns: Int) -> StoreError {
        StoreError(
            .tooManyColumns, path: path,
            message: "table \(table) would need \(columns) columns; SQLite allows \(ColumnLimit.maximum)", sqliteCode: 1)
    }

    /// A path already taken: modelc never replaces a file.
    public static func alreadyExists(path: String) -> StoreError {
        StoreError(.alreadyExists, path: path, message: "a file already exists at this path")
    }
}

/// The classes of store failure, each with Core Data's code and the safe next step.
public enum StoreErrorClass: String, Sendable, CaseIterable, Codable {
    case notFound
    case permissionDenied
    case corrupt
    case notACoreDataStore
    case locked
    case alreadyExists
    case incompatibleVersionHash
    case missingSourceModel
    case incompatibleSchema
    case newerModel
    case notRegularFile
    case hotJournal
    case tooManyColumns

    /// The code Core Data (or Foundation, for file errors) reports for this class.
    public var code: Int {
        switch self {
        case .notFound: 260  // NSFileReadNoSuchFileError
        case .permissionDenied: 257  // NSFileReadNoPermissionError; 513 when writing
        case .corrupt: 259  // NSFileReadCorruptFileError
        case .notACoreDataStore: 134010  // NSPersistentStoreTypeMismatchError
        case .locked: 134090  // NSPersistentStoreTimeoutError (SQLITE_BUSY underneath)
        case .alreadyExists: 516  // NSFileWriteFileExistsError
        case .incompatibleVersionHash: 134100  // NSPersistentStoreIncompatibleVersionHashError
        case .missingSourceModel: 134130  // NSMigrationMissingSourceModelError
        case .incompatibleSchema: 134020  // NSPersistentStoreIncompatibleSchemaError
        case .newerModel: 134130  // what Core Data reports: no source model for the store
        case .notRegularFile: 256  // NSFileReadUnknownError: a FIFO, device or socket is no store
        case .hotJournal: 134080  // NSPersistentStoreOpenError: the store needs recovery on open
        case .tooManyColumns: 256  // SQLite refuses the table (SQLITE_ERROR, "too many columns")
        }
    }

    public var advice: String {
        switch self {
        case .notFound:
            "Check the path. Opened here, Core Data would create a new, empty store: the data the app expects is elsewhere."
        case .permissionDenied:
            "Fix the file's permissions or run as its owner. The store itself is not damaged; do not copy it elsewhere to work around this."
        case .corrupt:
            "Do not open it with the app, which may fail or start over with an empty store. Quarantine it (with its -wal and -shm) and restore a backup; salvage rows from a copy with sqlite3's .recover."
        case .notACoreDataStore:
            "It is a SQLite database without Core Data's Z_METADATA, not a store Core Data can load. Check the path; do not let Core Data open it as a store."
        case .locked:
            "Another process holds the store's lock. Wait for it to finish or quit it, then retry; do not copy the files while it writes (use a WAL-safe backup)."
        case .alreadyExists:
            "modelc never replaces a file. Choose another path or move the existing file aside first."
        case .incompatibleVersionHash:
            "The store was made by an older version of the model. Back it up, then migrate it to the current version (modelc migrate); opening it without migration fails."
        case .missingSourceModel:
            "No version of the model made this store. Recover the store's own model with 'modelc store info --dump-model', add it to the bundle as a version, then migrate. Do not delete the store."
        case .incompatibleSchema:
            "The store's metadata matches the model but its tables do not: it was changed outside Core Data. Back it up and quarantine it; do not write to it."
        case .newerModel:
            "A newer version of the model, not in this bundle, wrote the store (an app downgrade?). Open it with the newer app; never migrate it backwards or delete it."
        case .hotJournal:
            "Keep the -journal beside the store: deleting it leaves the store corrupt. Let a writer open the store once (the app, or sqlite3 STORE 'PRAGMA quick_check;') so SQLite rolls the interrupted write back, then check again."
        case .tooManyColumns:
            "SQLite allows at most 2,000 columns in a table, and one table holds an entity and all its subentities: split the hierarchy (fewer subentities of one root, or properties moved to related entities). Core Data cannot create this store either."
        case .notRegularFile:
            "The store (or a -wal, -shm or -journal file beside it) is a FIFO, device or socket, not a file. Check the path; a store is always a regular file."
        }
    }
}
