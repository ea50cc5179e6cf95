import GRDB
import ModelStore

/// Why a migration did not run, whatever the cause (the store, the model, the data, SQLite): a
/// class, Core Data's code for it and what is safe to do next. The store is left as it was.
public struct MigrationError: Error, Sendable, Equatable, CustomStringConvertible {
    public var errorClass: MigrationErrorClass
    /// The `NSCocoaErrorDomain` code Core Data would report.
    public var code: Int
    public var path: String
    /// What happened, for people.
    public var message: String
    /// The SQLite result code behind the failure, when there is one.
    public var sqliteCode: Int32?

    public init(_ errorClass: MigrationErrorClass, code: Int? = nil, path: String, message: String, sqliteCode: Int32? = nil) {
        self.errorClass = errorClass
        self.code = code ?? errorClass.code
        self.path = path
        self.message = message
        self.sqliteCode = sqliteCode
    }

    /// A store that cannot be used as it is, with its class and code.
    public init(_ error: StoreError) {
        self.init(.store(error.errorClass), code: error.code, path: error.path, message: error.message, sqliteCode: error.sqliteCode)
    }

    /// A SQLite failure while the migration ran (`step`, when one was under way): a violated
    /// constraint, a full disk or other I/O failure fails the migration; a busy, damaged or
    /// unreadable store keeps its store class.
    init(sqlite error: DatabaseError, path: String, step: MigrationStep?) {
        let during = step.map { " during \($0.source) → \($0.destination)" } ?? ""
        switch error.resultCode {
        case .SQLITE_CONSTRAINT:
            self.init(
                .constraintViolation, path: path, message: "migration failed, the store is unchanged: the data violates a constraint of the destination\(during): \(error.message ?? "")",
                sqliteCode: error.resultCode.rawValue)
        case .SQLITE_FULL, .SQLITE_IOERR, .SQLITE_NOMEM, .SQLITE_INTERRUPT, .SQLITE_ABORT, .SQLITE_ERROR, .SQLITE_TOOBIG:
            self.init(
                .failed, path: path, message: "migration failed, the store is unchanged: SQLite error \(error.resultCode.rawValue)\(during): \(error.message ?? "")",
                sqliteCode: error.resultCode.rawValue)
        default:
            self.init(StoreError(sqlite: error, path: path))
        }
    }

    /// What is safe to do next.
    public var advice: String { errorClass.advice }

    public var description: String { "\(path): \(message) [\(errorClass), \(code)]" }

    /// A change the in-place migrator does not do yet; the path is set by ``during(_:_:at:)``.
    static func unsupported(_ what: String) -> MigrationError {
        MigrationError(.unsupported, path: "", message: "modelc's in-place migrator cannot do this yet: \(what)")
    }

    /// Tables that are not those of the store's version; the path is set by ``during(_:_:at:)``.
    static func schemaMismatch(_ what: String) -> MigrationError {
        MigrationError(.store(.incompatibleSchema), path: "", message: "the store's tables are not those of its version: \(what)")
    }

    /// The same error, for the store at `path`, saying which step it happened in.
    func during(_ source: String, _ destination: String, at path: String) -> MigrationError {
        var error = self
        error.path = path
        error.message += " (\(source) → \(destination))"
        return error
    }
}

/// The classes of migration failure: a store's (`StoreErrorClass`) or one of the migration's own.
public enum MigrationErrorClass: Sendable, Equatable, CustomStringConvertible {
    /// The store cannot be used as it is (not found, locked, corrupt, incompatible schema, …).
    case store(StoreErrorClass)
    /// The destination or a stage names no version of the model.
    case unknownVersion
    /// A change modelc's in-place migrator does not do yet.
    case unsupported
    /// The store's rows violate a constraint of the destination.
    case constraintViolation
    /// SQLite failed while the migration ran (a full disk, an I/O error).
    case failed
    /// A mapping model names an entity migration policy or policy function nobody registered.
    case missingPolicy
    /// An entity migration policy, or a mapping's value expression, failed.
    case policyFailed
    /// The migrated objects fail the destination's validation (required values, bounds).
    case validationFailed

    /// Core Data's code for the class.
    public var code: Int {
        switch self {
        case .store(let store): store.code
        case .unknownVersion: 134130  // NSMigrationMissingSourceModelError: no such model
        case .unsupported, .failed: 134110  // NSMigrationError
        case .constraintViolation: 134111  // NSMigrationConstraintViolationError
        case .missingPolicy: 134110  // NSMigrationError
        case .policyFailed: 134170  // NSEntityMigrationPolicyError
        case .validationFailed: 1560  // NSValidationMultipleErrorsError
        }
    }

    /// The class's name as printed and in JSON.
    public var description: String {
        switch self {
        case .store(let store): store.rawValue
        case .unknownVersion: "unknownVersion"
        case .unsupported: "unsupported"
        case .constraintViolation: "constraintViolation"
        case .failed: "migrationFailed"
        case .missingPolicy: "missingPolicy"
        case .policyFailed: "policyFailed"
        case .validationFailed: "validationFailed"
        }
    }

    public var advice: String {
        switch self {
        case .store(let store): store.advice
        case .unknownVersion: "Name a version of the model's bundle ('modelc inspect' lists them)."
        case .unsupported: "The store is unchanged. Migrate with Core Data on a Mac, or in stages (--through) that avoid this change."
        case .constraintViolation: "The store is unchanged. Fix the rows that violate the constraint (in the app, at the old version), then migrate again."
        case .failed: "The store is unchanged (SQLite rolled the transaction back). Free disk space or fix the I/O problem, then migrate again."
        case .missingPolicy: "The store is unchanged. Register a Swift port of the policy (PolicyRegistry) and migrate with the library, or migrate with Core Data on a Mac."
        case .policyFailed: "The store is unchanged. Fix the policy or the mapping's expression named in the message, then migrate again."
        case .validationFailed: "The store is unchanged. Fix the mapping (or the rows) so that every migrated object is valid, then migrate again."
        }
    }
}
