import Foundation
import ModelStore

extension StoreBackup.Pending {
    /// Names the backup of `path` once its migration has committed; a failure says the store
    /// is migrated and where the unnamed copy is, since the run cannot be undone any more.
    func publishAfterMigrating(_ path: String) throws -> String {
        do {
            return try publish()
        } catch {
            throw MigrationError(
                .failed, path: path,
                message: "the store was migrated, but its backup could not be named: \(error.localizedDescription); the copy is \(staging)")
        }
    }
}
