import Foundation
import ModelObjects
import ModelStack
import Testing
import _ModelTestSupport

/// The object layer's errors seen as apps test them: `error as NSError` in `NSCocoaErrorDomain`,
/// its code compared with Core Data's constants by Apple's names (values from CoreDataErrors.h),
/// the user-info keys under their strings.
struct ErrorBridgingTests {
    typealias Support = ContextTestSupport

    /// CoreDataErrors.h's values, as Apple's documentation and the header's translations list them.
    @Test func theCodesHaveCoreDataValues() {
        let codes: [(Int, Int)] = [
            (NSManagedObjectValidationError, 1550), (NSManagedObjectConstraintValidationError, 1551), (NSValidationMultipleErrorsError, 1560),
            (NSValidationMissingMandatoryPropertyError, 1570), (NSValidationRelationshipLacksMinimumCountError, 1580),
            (NSValidationRelationshipExceedsMaximumCountError, 1590), (NSValidationRelationshipDeniedDeleteError, 1600),
            (NSValidationNumberTooLargeError, 1610), (NSValidationNumberTooSmallError, 1620), (NSValidationDateTooLateError, 1630),
            (NSValidationDateTooSoonError, 1640), (NSValidationInvalidDateError, 1650), (NSValidationStringTooLongError, 1660),
            (NSValidationStringTooShortError, 1670), (NSValidationStringPatternMatchingError, 1680), (NSValidationInvalidURIError, 1690),
            (NSManagedObjectContextLockingError, 132_000), (NSPersistentStoreCoordinatorLockingError, 132_010),
            (NSManagedObjectReferentialIntegrityError, 133_000), (NSManagedObjectExternalRelationshipError, 133_010),
            (NSManagedObjectMergeError, 133_020), (NSManagedObjectConstraintMergeError, 133_021), (NSPersistentStoreInvalidTypeError, 134_000),
            (NSPersistentStoreTypeMismatchError, 134_010), (NSPersistentStoreIncompatibleSchemaError, 134_020), (NSPersistentStoreSaveError, 134_030),
            (NSPersistentStoreIncompleteSaveError, 134_040), (NSPersistentStoreSaveConflictsError, 134_050), (NSCoreDataError, 134_060),
            (NSPersistentStoreOperationError, 134_070), (NSPersistentStoreOpenError, 134_080), (NSPersistentStoreTimeoutError, 134_090),
            (NSPersistentStoreUnsupportedRequestTypeError, 134_091), (NSPersistentStoreIncompatibleVersionHashError, 134_100),
            (NSMigrationError, 134_110), (NSMigrationConstraintViolationError, 134_111), (NSMigrationCancelledError, 134_120),
            (NSMigrationMissingSourceModelError, 134_130), (NSMigrationMissingMappingModelError, 134_140), (NSMigrationManagerSourceStoreError, 134_150),
            (NSMigrationManagerDestinationStoreError, 134_160), (NSEntityMigrationPolicyError, 134_170), (NSSQLiteError, 134_180),
            (NSInferredMappingModelError, 134_190), (NSExternalRecordImportError, 134_200), (NSPersistentHistoryTokenExpiredError, 134_301),
        ]
        for (constant, value) in codes { #expect(constant == value) }
    }

    /// A save missing two mandatory values: 1560 listing each 1570 under "NSDetailedErrors", each
    /// naming the object and the key ("NSValidationErrorObject", "NSValidationErrorKey"), as
    /// CoreDataErrors.h describes them.
    @Test func validationErrorsBridge() async throws {
        let container = try await Support.container(in: nil)
        let context = container.newBackgroundContext()
        let (book, error): (ManagedObject, NSError?) = context.performAndWait {
            let book = ManagedObject(entity: container.persistentStoreCoordinator.managedObjectModel.entitiesByName["Book"]!, insertInto: context)
            return (book, Support.saveError(context))
        }
        let saved = try #require(error)
        #expect(saved.domain == NSCocoaErrorDomain && saved.code == NSValidationMultipleErrorsError)
        let detailed = try #require(saved.userInfo["NSDetailedErrors"] as? [NSError])
        #expect(detailed.allSatisfy { $0.domain == NSCocoaErrorDomain && $0.code == NSValidationMissingMandatoryPropertyError })
        #expect(Set(detailed.compactMap { $0.userInfo["NSValidationErrorKey"] as? String }) == ["isbn", "title"])
        #expect(detailed.allSatisfy { ($0.userInfo["NSValidationErrorObject"] as? ManagedObject) === book })
    }

    /// A uniqueness collision under the error policy: `NSManagedObjectConstraintMergeError` with
    /// the conflicts under "conflictList" (`NSPersistentStoreSaveConflictsErrorKey`).
    @Test func constraintConflictsBridge() async throws {
        let folder = try StackFolder()
        defer { folder.remove() }
        let container = try await UniquenessConstraintTests.container(in: folder.url)
        _ = try UniquenessConstraintTests.insertTag("swift", uses: 1, in: container.newBackgroundContext(), container)
        let context = container.newBackgroundContext()
        let error = context.performAndWait {
            ManagedObject(entity: UniquenessConstraintTests.entity(container), insertInto: context).setValue("swift", forKey: "name")
            return Support.saveError(context)
        }
        #expect(error?.domain == NSCocoaErrorDomain && error?.code == NSManagedObjectConstraintMergeError)
        #expect((error?.userInfo["conflictList"] as? [ConstraintConflict])?.count == 1)
    }

    /// A fetch whose predicate the store accepts (no row there to try it on) but an unsaved object
    /// cannot answer (`MATCHES` a pattern that is no regular expression) fails with Core Data's
    /// generic `NSCoreDataError`, an `NSError` of `NSCocoaErrorDomain` as the store's failures
    /// are, not the predicate evaluator's own error type.
    @Test func aPredicateUnsavedObjectsCannotAnswerIsCoreDataError() async throws {
        let container = try await Support.container(in: nil)
        let context = container.newBackgroundContext()
        let error = context.performAndWait {
            let book = ManagedObject(entity: container.persistentStoreCoordinator.managedObjectModel.entitiesByName["Book"]!, insertInto: context)
            book.setValue("Dune", forKey: "title")
            let request = FetchRequest<ManagedObject>(entityName: "Book")
            return Self.error {
                request.predicate = FetchPredicate(format: "title MATCHES %@", "(")
                return try context.fetch(request)
            }
        }
        #expect(error?.domain == NSCocoaErrorDomain && error?.code == NSCoreDataError, "\(String(describing: error))")
    }

    /// History requests a store cannot answer: `NSPersistentStoreUnsupportedRequestTypeError`
    /// without history (Core Data's 134091 for a store opened without tracking) and
    /// `NSPersistentHistoryTokenExpiredError` for a token older than the history kept.
    @Test func historyErrorsBridge() async throws {
        let folder = try StackFolder()
        defer { folder.remove() }
        let untracked = try await BatchHistoryTests.tracked(Support.library, "Plain", in: folder.url, tracking: false)
        let plain = untracked.newBackgroundContext()
        let unsupported = plain.performAndWait { Self.error { try plain.execute(HistoryChangeRequest.fetchHistory(after: nil as HistoryToken?)) } }
        #expect(unsupported?.domain == NSCocoaErrorDomain && unsupported?.code == NSPersistentStoreUnsupportedRequestTypeError)

        let tracked = try await BatchHistoryTests.tracked(Support.library, "Library", in: folder.url)
        let context = tracked.newBackgroundContext()
        let initial = try #require(HistoryTokenTests.current(tracked))
        for name in ["Le Guin", "Banks"] { _ = try HistoryTokenTests.insertAuthor(name, context) }
        let expired = try context.performAndWait {
            _ = try context.execute(HistoryChangeRequest.deleteHistory(before: HistoryTokenTests.current(tracked)))
            return Self.error { try context.execute(HistoryChangeRequest.fetchHistory(after: initial)) }
        }
        #expect(expired?.domain == NSCocoaErrorDomain && expired?.code == NSPersistentHistoryTokenExpiredError)
    }

    /// The error `body` throws as an `NSError`, or nil.
    static func error(_ body: () throws -> Any) -> NSError? {
        do {
            _ = try body()
            return nil
        } catch {
            return error as NSError
        }
    }
}
