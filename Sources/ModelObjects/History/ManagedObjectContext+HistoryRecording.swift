import Foundation
import GRDB
import ModelStore

/// Recording a save in persistent history, as Core Data does for a store opened with
/// `NSPersistentHistoryTrackingKey`: a store that has the history tables was opened so (without
/// the option Core Data, and this project's loader, open it read-only), so a save into one records.
extension ManagedObjectContext {
    /// Writes the transaction of a save of `inserted`, `updated` and `deleted` (their rows written
    /// in `db` already, `key` giving each its row) into a store that tracks history: the context's
    /// `transactionAuthor` and `name`, the process's bundle identifier and name, the time, and one
    /// change per object with an update's changed properties as the `ZCOLUMNS` bitmap and a
    /// delete's `tombstones` (from ``preservedValues(of:)``); an update whose conflict store trump
    /// settled leaves out the properties the store's values won (`resolutions`). Returns the
    /// transaction's number; nil when the save wrote nothing to record.
    @discardableResult
    func recordHistory(
        _ db: Database, inserted: [ManagedObject], updated: [ManagedObject], deleted: [ManagedObject],
        tombstones: [ObjectIdentifier: [DatabaseValue]], resolutions: [ObjectIdentifier: ConflictResolution], key: (ManagedObject) -> ObjectKey?
    ) throws -> Int64? {
        guard let model = persistentStoreCoordinator?.managedObjectModel else { return nil }
        var lists = HistoryPropertyLists(model: model)
        var changes = [HistoryWriter.Change]()
        changes.reserveCapacity(inserted.count + updated.count + deleted.count)
        for (type, objects) in [(HistoryChangeType.insert, inserted), (.update, updated), (.delete, deleted)] {
            for object in objects {
                guard let own = key(object) else { continue }
                let positions = type == .update ? lists.positions(of: writtenProperties(of: object, resolutions[ObjectIdentifier(object)]), in: object.entity) : nil
                changes.append(HistoryWriter.Change(
                    type: type.rawValue, object: own, updatedPositions: positions,
                    tombstones: tombstones[ObjectIdentifier(object)] ?? []))
            }
        }
        // A save that wrote nothing (every conflict settled for the store) records nothing.
        return try recordTransaction(db, changes)
    }

    /// Writes one transaction of `changes` with this context's author and name, the process's
    /// bundle identifier and name and the time, and returns its number; nothing (nil) when there
    /// are none.
    @discardableResult
    func recordTransaction(_ db: Database, _ changes: [HistoryWriter.Change]) throws -> Int64? {
        guard !changes.isEmpty else { return nil }
        return try HistoryWriter(db: db).record(
            timestamp: Date().timeIntervalSinceReferenceDate, author: transactionAuthor, contextName: name,
            bundleID: Bundle.main.bundleIdentifier, processID: ProcessInfo.processInfo.processName, changes: changes)
    }

    /// The names of the properties a save wrote for updated `object`: those it changed, less the
    /// ones whose store values won under store trump.
    private func writtenProperties(of object: ManagedObject, _ resolution: ConflictResolution?) -> Set<String> {
        var names = Set(object.changedValues().keys)
        if case .write(_, let attributes, let toOnes, _)? = resolution {
            let shape = object.entity.shape
            names.subtract(attributes.map { shape.attributes[$0].name } + toOnes.map { shape.toOnes[$0].name })
        }
        return names
    }

    /// The saved values of the attributes each of `deleted` preserves in history (marked
    /// `preservesValueInHistoryOnDeletion`), in `ZTOMBSTONEn` order, as their columns hold them;
    /// read before the save's write transaction, which cannot read faults in.
    func preservedValues(of deleted: [ManagedObject]) throws -> [ObjectIdentifier: [DatabaseValue]] {
        guard let model = persistentStoreCoordinator?.managedObjectModel else { return [:] }
        var lists = HistoryPropertyLists(model: model)
        var values = [ObjectIdentifier: [DatabaseValue]]()
        for object in deleted {
            let attributes = lists.preservedAttributes(of: object.entity)
            guard !attributes.isEmpty else { continue }
            fulfill(object)
            values[ObjectIdentifier(object)] = try attributes.map { attribute in
                guard case .attribute(_, let slot)? = object.entity.properties[attribute.name] else { return .null }
                return try StoredValue.databaseValue(object: object.committed?[slot] ?? nil, as: attribute.type)
            }
        }
        return values
    }
}
