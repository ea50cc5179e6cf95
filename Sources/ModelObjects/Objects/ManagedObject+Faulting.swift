import Dispatch
import ModelStore

/// When an object's saved values were read: the coordinator's save count then (a save through
/// the coordinator may have changed any row) and the time, for the context's staleness interval.
/// A class, shared by the objects a fetch or a save reads at once: an object holds one word
/// for it, not two.
final class ReadStamp: Sendable {
    /// The coordinator's ``PersistentStoreCoordinator/saveCount`` at the read.
    let saves: Int
    /// The read's time, in nanoseconds of uptime.
    let time: UInt64

    init(saves: Int, time: UInt64) {
        self.saves = saves
        self.time = time
    }
}

/// The saved values of an object turned into a fault, as Core Data's row cache keeps a row's
/// snapshot: a fault fired while they are fresh enough takes them instead of reading the store.
/// A class, so that an object without one carries a single empty reference.
final class CachedRow {
    /// The attribute values, and the to-ones' targets after them.
    let attributes: AttributeValues
    let version: Int64
    let stamp: ReadStamp?

    init(attributes: AttributeValues, version: Int64, stamp: ReadStamp?) {
        self.attributes = attributes
        self.version = version
        self.stamp = stamp
    }
}

/// Turning into a fault, as a refresh or a reset does in Core Data: the hooks run around it,
/// transient values and relationships read so far are let go, and the saved values are kept as the
/// cached row (the row cache of `refresh(_:mergeChanges:)`: "reloads the object's values from the
/// persistent store or last cached state").
extension ManagedObject {
    /// Makes the object a fault; `keepingRow`, its saved values stay as its cached row.
    func turnIntoFault(keepingRow: Bool) {
        willTurnIntoFault()
        cachedRow = keepingRow ? committed.map { CachedRow(attributes: $0, version: version, stamp: readStamp) } : nil
        replaceSaved(with: nil)
        transients = [:]
        toManys = [:]
        committedToManys = [:]
        didTurnIntoFault()
    }
}
