import GRDB
import ModelStore

/// The changes one batch request makes, gathered for its history transaction when the store
/// tracks history (Core Data records batch inserts, updates and deletes as it records saves:
/// Documentation/History.md); nothing is gathered when it does not.
struct BatchHistory {
    let isTracked: Bool
    private var lists: HistoryPropertyLists
    /// Each entity's updated properties' positions, worked out once per request.
    private var positions = [Int: [Int]]()
    private(set) var changes = [HistoryWriter.Change]()

    init(model: ManagedObjectModel, db: Database) throws {
        isTracked = try PersistentHistoryLayout.isPresent(in: db)
        lists = HistoryPropertyLists(model: model)
    }

    mutating func inserted(_ key: ObjectKey) {
        guard isTracked else { return }
        changes.append(HistoryWriter.Change(type: HistoryChangeType.insert.rawValue, object: key, updatedPositions: nil))
    }

    /// An update of the row `key` that set the properties `names`.
    mutating func updated(_ key: ObjectKey, names: some Collection<String>) throws {
        guard isTracked else { return }
        if positions[key.number] == nil {
            positions[key.number] = lists.positions(of: names, in: try lists.entity(number: key.number, change: 0))
        }
        changes.append(HistoryWriter.Change(type: HistoryChangeType.update.rawValue, object: key, updatedPositions: positions[key.number]))
    }

    mutating func deleted(_ key: ObjectKey, tombstone: [DatabaseValue]) throws {
        guard isTracked else { return }
        changes.append(HistoryWriter.Change(type: HistoryChangeType.delete.rawValue, object: key, updatedPositions: nil, tombstones: tombstone))
    }

    /// The tombstone of the row `key`, read before it is deleted: empty when history is not
    /// tracked or its entity preserves nothing.
    mutating func tombstone(of key: ObjectKey, _ reader: ObjectRowReader) throws -> [DatabaseValue] {
        guard isTracked else { return [] }
        let entity = try lists.entity(number: key.number, change: 0)
        let preserved = lists.preservedAttributes(of: entity)
        guard !preserved.isEmpty, let stored = try reader.object(key) else { return [] }
        return try preserved.map { attribute in
            guard case .attribute(_, let slot)? = entity.properties[attribute.name], slot < stored.attributes.count else { return .null }
            return try StoredValue.databaseValue(object: stored.attributes[slot], as: attribute.type)
        }
    }
}
