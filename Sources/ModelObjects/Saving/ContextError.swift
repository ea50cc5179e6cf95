import Foundation
import GRDB

/// Core Data's user-info keys of validation and save errors (CoreDataErrors.h), with their values.
public let NSDetailedErrorsKey = "NSDetailedErrors"
/// The user-info key of the object that failed validation.
public let NSValidationObjectErrorKey = "NSValidationErrorObject"
/// The user-info key of the property that failed validation.
public let NSValidationKeyErrorKey = "NSValidationErrorKey"
/// The user-info key of the validation predicate the value failed.
public let NSValidationPredicateErrorKey = "NSValidationErrorPredicate"
/// The user-info key of the value that failed validation.
public let NSValidationValueErrorKey = "NSValidationErrorValue"
/// The user-info key of the objects an error concerns.
public let NSAffectedObjectsErrorKey = "NSAffectedObjectsErrorKey"
/// The user-info key of the stores an error concerns.
public let NSAffectedStoresErrorKey = "NSAffectedStoresErrorKey"
/// The user-info key of the SQLite result code behind a store's error (Core Data's `NSSQLiteErrorDomain`).
public let NSSQLiteErrorDomain = "NSSQLiteErrorDomain"

/// The errors of the object layer: `NSError`s in `NSCocoaErrorDomain` with Core Data's codes and
/// user info, so that code which switches on `(error as NSError).code` ports as it is.
enum ContextError {
    /// An error with `code` and a description.
    static func make(_ code: Int, _ message: String, _ userInfo: [String: Any] = [:]) -> NSError {
        var info = userInfo
        info[NSLocalizedDescriptionKey] = message
        return NSError(domain: NSCocoaErrorDomain, code: code, userInfo: info)
    }

    /// A validation error for `key` of `object` holding `value`.
    static func validation(_ code: Int, _ message: String, object: ManagedObject, key: String, value: Any?) -> NSError {
        var info: [String: Any] = [NSValidationObjectErrorKey: object, NSValidationKeyErrorKey: key]
        if let value { info[NSValidationValueErrorKey] = value }
        return make(code, message, info)
    }

    /// A SQLite failure of a save or a batch request as Core Data reports it: a row colliding on
    /// a unique index 133021 (`NSManagedObjectConstraintMergeError`), anything else 134030
    /// (`NSPersistentStoreSaveError`); SQLite's extended result code in `NSSQLiteErrorDomain`.
    static func store(_ error: DatabaseError) -> NSError {
        let code = error.extendedResultCode
        let info: [String: Any] = [NSSQLiteErrorDomain: Int(code.rawValue)]
        if code == .SQLITE_CONSTRAINT_UNIQUE || code == .SQLITE_CONSTRAINT_PRIMARYKEY {
            return make(133021, "a row collides on a uniqueness constraint: \(error.message ?? "")", info)
        }
        return make(134030, "the store failed to save (SQLite error \(code.rawValue)): \(error.message ?? "")", info)
    }

    /// A SQLite failure of a fetch, a count or another read as Core Data reports it: 256
    /// (`NSFileReadUnknownError`) with SQLite's extended result code in `NSSQLiteErrorDomain` and
    /// its message as the failure reason, the code apps see when a fetch meets a locked or broken store.
    static func storeRead(_ error: DatabaseError) -> NSError {
        let code = error.extendedResultCode
        return make(
            256, "the store could not be read (SQLite error \(code.rawValue)): \(error.message ?? "")",
            [NSSQLiteErrorDomain: Int(code.rawValue), NSLocalizedFailureReasonErrorKey: error.message ?? ""])
    }

    /// Runs `body`, which reads (`reading`) or writes a store, with SQLite's errors reported as
    /// Core Data reports them (``storeRead(_:)``, ``store(_:)``): a store locked past the busy
    /// timeout, read-only or missing a table comes out of a public entry point as Core Data's
    /// `NSError`, never GRDB's.
    static func mappingStore<T>(reading: Bool = false, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as DatabaseError {
            throw reading ? storeRead(error) : store(error)
        }
    }

    /// The one error a save reports for `errors`: itself when alone, else 1560
    /// (`NSValidationMultipleErrorsError`) listing each under `NSDetailedErrorsKey`.
    static func combined(_ errors: [NSError]) -> NSError? {
        guard errors.count > 1 else { return errors.first }
        return make(1560, "\(errors.count) validation errors", [NSDetailedErrorsKey: errors])
    }
}
