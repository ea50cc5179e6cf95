/// The objects a context knows, by ID. Core Data's contexts do not keep objects without unsaved
/// changes alive (`retainsRegisteredObjects` is false by default): an object stays registered
/// while the app holds it, and changed objects are held by the context's change lists. As in
/// Core Data, the table does not retain its objects and an object leaves it when it is
/// deallocated (``ManagedObject``'s `deinit`), which, like every use of an object, happens on
/// its context's queue. Weak references would do the same at a price paid on every retain and
/// release of every object (Swift moves a weakly referenced object's counts to a side table).
/// Objects are found by their row, entity number and key: two integers hash and compare faster
/// than an ID's strings, and a fetch of a million rows looks each up, registers it and, as it
/// goes, removes it. New objects inserted here, until they have a permanent ID, are not in the
/// table: the context's inserted list holds them, and a save of many would otherwise fill the
/// table with entries only to move them all (a lookup by temporary ID goes to that list's own
/// table). The new objects a child's save brings are kept the same way. Objects with a temporary
/// ID that a child reads from its parent, or that a child saved and still holds, are in the
/// table under their negated temporary number (``ManagedObjectID/rowKey``).
struct ObjectRegistry {
    /// An object's place in the table.
    struct Key: Hashable {
        let number: Int
        let value: Int64
    }

    private var entries: [Key: Unmanaged<ManagedObject>] = [:]
    /// Every registered object, when the context retains them.
    private var retained: [Key: ManagedObject]?

    /// Whether registered objects are kept alive by the context itself.
    var retainsObjects: Bool { retained != nil }

    /// Starts or stops retaining every registered object; returns the objects no longer retained,
    /// for the caller to release once it no longer changes the table (their `deinit` changes it).
    mutating func setRetainsObjects(_ retains: Bool) -> [Key: ManagedObject]? {
        guard retains != retainsObjects else { return nil }
        let released = retained
        retained = retains ? entries.mapValues { $0.takeUnretainedValue() } : nil
        return released
    }

    subscript(key: Key) -> ManagedObject? {
        get { entries[key]?.takeUnretainedValue() }
        set {
            guard let newValue else {
                entries[key] = nil
                retained?[key] = nil
                return
            }
            entries[key] = Unmanaged.passUnretained(newValue)
            retained?[key] = newValue
        }
    }

    /// Registers `object` under its ID.
    mutating func add(_ object: ManagedObject) {
        self[Key(of: object)] = object
    }

    /// Unregisters `object` under its current ID.
    mutating func remove(_ object: ManagedObject) {
        self[Key(of: object)] = nil
    }

    /// Removes an object being deallocated, if it is the one registered under its ID.
    mutating func forget(_ object: ManagedObject) {
        let key = Key(of: object)
        if entries[key]?.toOpaque() == Unmanaged.passUnretained(object).toOpaque() { entries[key] = nil }
    }

    /// Makes room for `count` more objects at once, as a fetch knows how many it registers.
    mutating func reserve(_ count: Int) {
        entries.reserveCapacity(entries.count + count)
    }

    /// The registered objects.
    var objects: [ManagedObject] { entries.values.map { $0.takeUnretainedValue() } }

    /// Forgets every object; returns those the table retained, for the caller to release once
    /// their objects are detached.
    mutating func removeAll() -> [Key: ManagedObject]? {
        entries = [:]
        let released = retained
        retained = retained == nil ? nil : [:]
        return released
    }
}

extension ObjectRegistry.Key {
    /// Where `object` is, under its ID.
    init(of object: ManagedObject) {
        self.init(number: object.entity.shape.number, value: object.objectID.rowKey)
    }
}
