import Foundation

/// Core Data's key of the conflicts a failed save lists (`NSPersistentStoreSaveConflictsErrorKey`).
public let NSPersistentStoreSaveConflictsErrorKey = "conflictList"

/// An object whose row changed or went in the store since the context read it
/// (`NSMergeConflict`): the values the context read, the row's values now, and both versions.
/// Contexts of one coordinator share its store as Core Data's share the coordinator's row cache,
/// so the row's values are the cached snapshot and there is no persisted one, as Core Data
/// reports a conflict between a context and its coordinator. Snapshots hold attributes and
/// to-ones (their objects' IDs), never to-manys.
public final class MergeConflict: @unchecked Sendable, CustomStringConvertible {
    /// The context's object whose row changed.
    public let sourceObject: ManagedObject
    /// The saved values the context read.
    public let objectSnapshot: [String: Any]?
    /// The row's values now; nil when it is gone.
    public let cachedSnapshot: [String: Any]?
    /// Always nil: contexts share the store as Core Data's share the coordinator's cache.
    public let persistedSnapshot: [String: Any]?
    /// The row's `Z_OPT` now; 0 when it is gone.
    public let newVersionNumber: Int
    /// The `Z_OPT` the context read.
    public let oldVersionNumber: Int

    init(sourceObject: ManagedObject, objectSnapshot: [String: Any]?, cachedSnapshot: [String: Any]?, newVersionNumber: Int, oldVersionNumber: Int) {
        self.sourceObject = sourceObject
        self.objectSnapshot = objectSnapshot
        self.cachedSnapshot = cachedSnapshot
        persistedSnapshot = nil
        self.newVersionNumber = newVersionNumber
        self.oldVersionNumber = oldVersionNumber
    }

    /// The object's ID and the two version numbers.
    public var description: String {
        "MergeConflict(\(sourceObject.objectID), version \(oldVersionNumber) read, \(newVersionNumber) in the store)"
    }
}
