/// The objects a context knows, by ID. Core Data's contexts do not keep objects without unsaved
/// changes alive (`retainsRegisteredObjects` is false by default): an object stays registered
/// while the app holds it, and changed objects are held by the context's change lists. So the
/// memory a fetch costs follows what the app keeps, and the entries of released objects are
/// swept whenever the table has doubled since the last sweep.
struct ObjectRegistry {
    private struct Entry {
        weak var object: ManagedObject?
    }

    private var entries: [ManagedObjectID: Entry] = [:]
    /// Every registered object, when the context retains them.
    private var retained: [ManagedObjectID: ManagedObject]?
    private var sweepAt = 1024

    /// Whether registered objects are kept alive by the context itself.
    var retainsObjects: Bool {
        get { retained != nil }
        set {
            guard newValue != retainsObjects else { return }
            retained = newValue ? Dictionary(uniqueKeysWithValues: objects.map { ($0.objectID, $0) }) : nil
        }
    }

    subscript(id: ManagedObjectID) -> ManagedObject? {
        get { entries[id]?.object }
        set {
            guard let newValue else {
                entries[id] = nil
                retained?[id] = nil
                return
            }
            entries[id] = Entry(object: newValue)
            retained?[id] = newValue
            if entries.count >= sweepAt { sweep() }
        }
    }

    /// Makes room for `count` more objects at once, as a fetch knows how many it registers.
    mutating func reserve(_ count: Int) {
        entries.reserveCapacity(entries.count + count)
    }

    /// The registered objects still alive.
    var objects: [ManagedObject] { entries.values.compactMap(\.object) }

    mutating func removeAll() {
        entries = [:]
        retained = retained == nil ? nil : [:]
        sweepAt = 1024
    }

    /// Removes the entries of released objects in place (a fetch whose objects are all alive
    /// costs one pass, no copy of the table).
    private mutating func sweep() {
        let released = entries.compactMap { $0.value.object == nil ? $0.key : nil }
        for id in released { entries[id] = nil }
        sweepAt = max(1024, entries.count * 2)
    }
}
