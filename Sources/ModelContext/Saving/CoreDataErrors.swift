// Core Data's error codes in NSCocoaErrorDomain by Apple's names, with the values of CoreDataErrors.h,
// so that code testing `(error as NSError).code == NSValidationMissingMandatoryPropertyError`
// ports as it is. Every error the object layer throws is an NSError of that domain with one of them.

public let NSManagedObjectValidationError = 1550
public let NSManagedObjectConstraintValidationError = 1551
public let NSValidationMultipleErrorsError = 1560
public let NSValidationMissingMandatoryPropertyError = 1570
public let NSValidationRelationshipLacksMinimumCountError = 1580
public let NSValidationRelationshipExceedsMaximumCountError = 1590
public let NSValidationRelationshipDeniedDeleteError = 1600
public let NSValidationNumberTooLargeError = 1610
public let NSValidationNumberTooSmallError = 1620
public let NSValidationDateTooLateError = 1630
public let NSValidationDateTooSoonError = 1640
public let NSValidationInvalidDateError = 1650
public let NSValidationStringTooLongError = 1660
public let NSValidationStringTooShortError = 1670
public let NSValidationStringPatternMatchingError = 1680
public let NSValidationInvalidURIError = 1690

public let NSManagedObjectContextLockingError = 132_000
public let NSPersistentStoreCoordinatorLockingError = 132_010

public let NSManagedObjectReferentialIntegrityError = 133_000
public let NSManagedObjectExternalRelationshipError = 133_010
public let NSManagedObjectMergeError = 133_020
public let NSManagedObjectConstraintMergeError = 133_021

public let NSPersistentStoreInvalidTypeError = 134_000
public let NSPersistentStoreTypeMismatchError = 134_010
public let NSPersistentStoreIncompatibleSchemaError = 134_020
public let NSPersistentStoreSaveError = 134_030
public let NSPersistentStoreIncompleteSaveError = 134_040
public let NSPersistentStoreSaveConflictsError = 134_050
public let NSCoreDataError = 134_060
public let NSPersistentStoreOperationError = 134_070
public let NSPersistentStoreOpenError = 134_080
public let NSPersistentStoreTimeoutError = 134_090
public let NSPersistentStoreUnsupportedRequestTypeError = 134_091
public let NSPersistentStoreIncompatibleVersionHashError = 134_100

public let NSMigrationError = 134_110
public let NSMigrationConstraintViolationError = 134_111
public let NSMigrationCancelledError = 134_120
public let NSMigrationMissingSourceModelError = 134_130
public let NSMigrationMissingMappingModelError = 134_140
public let NSMigrationManagerSourceStoreError = 134_150
public let NSMigrationManagerDestinationStoreError = 134_160
public let NSEntityMigrationPolicyError = 134_170
public let NSSQLiteError = 134_180
public let NSInferredMappingModelError = 134_190
public let NSExternalRecordImportError = 134_200
public let NSPersistentHistoryTokenExpiredError = 134_301
