import Foundation
import GRDB
import ModelMigration
import ModelStore

/// The one place where the errors of the layers below (``StoreError``, the migrator's failures,
/// SQLite's and Foundation's errors) become load errors.
extension PersistentStoreLoadError {
    /// What the loader knew about the store when the error happened.
    struct Context {
        var path: String
        var storeVersion: String?
        var modelVersion: String?
        var metadata: StoreMetadata?
    }

    /// `error` as a load error of the store in `context`; an error already classified keeps its
    /// class and gains what the context knows.
    static func classify(_ error: any Error, _ context: Context) -> PersistentStoreLoadError {
        var result: PersistentStoreLoadError
        switch error {
        case let error as PersistentStoreLoadError:
            result = error
        case let error as StoreError:
            result = PersistentStoreLoadError(
                kind(of: error.errorClass), code: code(of: error), path: error.path, message: error.message, sqliteCode: error.sqliteCode)
        case let error as MigrationError:
            switch error.errorClass {
            case .store(let storeClass):
                result = PersistentStoreLoadError(
                    kind(of: storeClass), code: error.code, path: error.path, message: error.message, sqliteCode: error.sqliteCode)
            case .unknownVersion:
                result = PersistentStoreLoadError(.missingSourceModel, code: error.code, path: context.path, message: error.message)
            case .unsupported, .failed, .constraintViolation, .missingPolicy, .policyFailed, .validationFailed:
                result = PersistentStoreLoadError(
                    .migrationFailed, code: error.code, path: context.path,
                    message: "the migration failed, the store is as it was: \(error.message)", sqliteCode: error.sqliteCode)
            }
        case let error as DatabaseError:
            return classify(StoreError(sqlite: error, path: context.path), context)
        case let error as CocoaError where [.fileWriteNoPermission, .fileReadNoPermission].contains(error.code):
            result = PersistentStoreLoadError(
                .permissionDenied, code: error.code.rawValue, path: context.path, message: "no permission: \(error.localizedDescription)")
        case let error as CocoaError where error.code == .fileWriteFileExists:
            // Two loaders backing the same store up in the same second: the other one is busy
            // with it, so this one waits like for a lock.
            result = PersistentStoreLoadError(
                .locked, path: context.path, message: "another loader is writing beside the store: \(error.localizedDescription)")
        case let error as CocoaError where error.code == .fileWriteVolumeReadOnly:
            result = PersistentStoreLoadError(.readOnlyVolume, path: context.path, message: "the volume is read-only")
        default:
            result = PersistentStoreLoadError(.migrationFailed, path: context.path, message: "the store could not be loaded: \(error)")
        }
        result.storeVersion = result.storeVersion ?? context.storeVersion
        result.modelVersion = result.modelVersion ?? context.modelVersion
        result.metadata = result.metadata ?? context.metadata
        return result
    }

    /// The load class of a store error class.
    private static func kind(of errorClass: StoreErrorClass) -> Kind {
        switch errorClass {
        case .notFound: .notFound
        case .permissionDenied: .permissionDenied
        case .corrupt: .corrupted
        case .notACoreDataStore: .notACoreDataStore
        // Another loader created the store between our look and our create: it is busy.
        case .locked, .alreadyExists: .locked
        case .incompatibleVersionHash: .incompatibleVersion
        case .missingSourceModel, .newerModel: .missingSourceModel
        case .incompatibleSchema: .incompatibleSchema
        // A FIFO, device or folder where the store should be: nothing Core Data could open.
        case .notRegularFile: .notACoreDataStore
        // A read-only load found a write interrupted, which only a writer can roll back (a
        // writable load does, first): not damage, so never quarantined; surfaced with its advice.
        case .hotJournal: .locked
        // The model's tables cannot exist in SQLite: no store of it can be created or opened.
        case .tooManyColumns: .incompatibleSchema
        }
    }

    /// The store error's own code where it is more precise than its class's (513 when writing).
    private static func code(of error: StoreError) -> Int {
        error.errorClass == .permissionDenied || error.errorClass == .corrupt ? error.code : kind(of: error.errorClass).code
    }
}
