// Core Data's error codes in NSCocoaErrorDomain by Apple's names, with the values of CoreDataErrors.h,
// so that code testing `(error as NSError).code == NSValidationMissingMandatoryPropertyError`
// ports as it is. Every error the object layer throws is an NSError of that domain with one of them.

/// A generic validation failure.
public let NSManagedObjectValidationError = 1550
/// A uniqueness constraint was violated.
public let NSManagedObjectConstraintValidationError = 1551
/// Several validation failures; the detailed errors list them.
public let NSValidationMultipleErrorsError = 1560
/// A required property has no value.
public let NSValidationMissingMandatoryPropertyError = 1570
/// A to-many relationship has fewer objects than its minimum.
public let NSValidationRelationshipLacksMinimumCountError = 1580
/// A to-many relationship has more objects than its maximum.
public let NSValidationRelationshipExceedsMaximumCountError = 1590
/// A delete was refused by a relationship whose delete rule is Deny.
public let NSValidationRelationshipDeniedDeleteError = 1600
/// A number is above its attribute's maximum.
public let NSValidationNumberTooLargeError = 1610
/// A number is below its attribute's minimum.
public let NSValidationNumberTooSmallError = 1620
/// A date is after its attribute's maximum.
public let NSValidationDateTooLateError = 1630
/// A date is before its attribute's minimum.
public let NSValidationDateTooSoonError = 1640
/// A date is not valid.
public let NSValidationInvalidDateError = 1650
/// A string is longer than its attribute's maximum length.
public let NSValidationStringTooLongError = 1660
/// A string is shorter than its attribute's minimum length.
public let NSValidationStringTooShortError = 1670
/// A string does not match its attribute's regular expression.
public let NSValidationStringPatternMatchingError = 1680
/// A URI is not valid.
public let NSValidationInvalidURIError = 1690

/// A context could not be locked.
public let NSManagedObjectContextLockingError = 132_000
/// A coordinator could not be locked.
public let NSPersistentStoreCoordinatorLockingError = 132_010

/// A fault was fired whose object is no longer in the store.
public let NSManagedObjectReferentialIntegrityError = 133_000
/// An object has a relationship to an object in another store.
public let NSManagedObjectExternalRelationshipError = 133_010
/// A save met merge conflicts its merge policy did not resolve.
public let NSManagedObjectMergeError = 133_020
/// A save met uniqueness-constraint conflicts its merge policy did not resolve.
public let NSManagedObjectConstraintMergeError = 133_021

/// The store type is unknown.
public let NSPersistentStoreInvalidTypeError = 134_000
/// The store is not of the type asked for, or not a Core Data store.
public let NSPersistentStoreTypeMismatchError = 134_010
/// The store's tables do not match its model.
public let NSPersistentStoreIncompatibleSchemaError = 134_020
/// The store could not save.
public let NSPersistentStoreSaveError = 134_030
/// Some stores saved and others did not.
public let NSPersistentStoreIncompleteSaveError = 134_040
/// A save met conflicts with the store's rows.
public let NSPersistentStoreSaveConflictsError = 134_050
/// A general Core Data error, also a wrong-queue use in checked mode.
public let NSCoreDataError = 134_060
/// A store operation failed.
public let NSPersistentStoreOperationError = 134_070
/// The store could not be opened.
public let NSPersistentStoreOpenError = 134_080
/// The store stayed locked longer than the timeout.
public let NSPersistentStoreTimeoutError = 134_090
/// The store does not run requests of this type.
public let NSPersistentStoreUnsupportedRequestTypeError = 134_091
/// The store was made by another version of the model.
public let NSPersistentStoreIncompatibleVersionHashError = 134_100

/// A migration failed.
public let NSMigrationError = 134_110
/// A migration failed on a constraint the data violates.
public let NSMigrationConstraintViolationError = 134_111
/// A migration was cancelled.
public let NSMigrationCancelledError = 134_120
/// No version of the model made the store.
public let NSMigrationMissingSourceModelError = 134_130
/// No mapping model fits the migration, and inference is off.
public let NSMigrationMissingMappingModelError = 134_140
/// The migration could not read its source store.
public let NSMigrationManagerSourceStoreError = 134_150
/// The migration could not write its destination store.
public let NSMigrationManagerDestinationStoreError = 134_160
/// An entity migration policy failed.
public let NSEntityMigrationPolicyError = 134_170
/// SQLite reported an error; its code is in the user info.
public let NSSQLiteError = 134_180
/// A mapping model could not be inferred between the two versions.
public let NSInferredMappingModelError = 134_190
/// An external record could not be imported.
public let NSExternalRecordImportError = 134_200
/// The history after a token was deleted, so the token can no longer be used.
public let NSPersistentHistoryTokenExpiredError = 134_301
