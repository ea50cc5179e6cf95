import Foundation
import GRDB

/// What loading one store did: created it, migrated it, moved a corrupted one aside, waited for
/// a lock. Nothing in it is hidden from the caller.
public struct StoreLoadReport: Sendable {
    /// The description the store was loaded from.
    public var description: StoreDescription
    /// The version of the model the store has now: the current version.
    public var version: String
    /// Whether the store was created by this load (a new file, or a fresh one after quarantine).
    public var wasCreated = false
    /// The version the store was migrated from, when it was.
    public var migratedFrom: String?
    /// The mapping model the migration went through; nil for an inferred one.
    public var mappingModel: String?
    /// Where the backup made before migrating went.
    public var backupPath: String?
    /// Where the corrupted store was moved, when it was.
    public var quarantinePath: String?
    /// Whether the load rolled back a write a crashed writer left half done (a hot journal).
    public var rolledBackJournal = false
    /// How many times the load waited for another process's lock.
    public var retries = 0
    /// The store records persistent history but the description does not track it, so it was
    /// opened read-only, as Core Data does.
    public var forcedReadOnly = false
}

/// A loaded store: its report, and the database its contexts read and write.
public struct LoadedStore: Sendable {
    /// What the load did.
    public var report: StoreLoadReport
    /// The store's open database (read-only when the description says so): a `DatabasePool` for
    /// a file store in WAL mode, else a `DatabaseQueue`; within this package only, as GRDB's
    /// types stay out of the public surface.
    package var database: any DatabaseWriter
}
