/// The objects a context knows, by ID, one object per ID. The table retains its objects, and, on
/// the context's queue, lets go of those only it still holds (sweeps): as in Core Data, an object
/// without unsaved changes stays registered while the app holds it (`retainsRegisteredObjects`
/// false, the default), and changed objects are held by the context's change lists as well. So an
/// object's last release, and its `deinit`, happens on the queue in a sweep, or once the context is
/// gone, never under a caller's hands on another thread; and no object keeps a reference that
/// outlives what it points to. Sweeps are amortized: one runs when the table has doubled since the
/// last (from a floor), so a fetch of a million rows the app lets go of as it reads keeps a table
/// of a few thousand. Objects are found by their row, entity number and key: two integers hash and
/// compare faster than an ID's strings. New objects inserted here, until they have a permanent ID,
/// are not in the table: the context's inserted list holds them, and a save of many would
/// otherwise fill the table with entries only to move them all (a lookup by temporary ID goes to
/// that list's own table). The new objects a child's save brings are kept the same way. Objects
/// with a temporary ID that a child reads from its parent, or that a child saved and still holds,
/// are in the table under their negated temporary number (``ManagedObjectID/rowKey``).
struct ObjectRegistry {
    /// An object's place in the table.
    struct Key: Hashable {
        let number: Int
        let value: Int64
    }

    /// The size below which the table is not swept.
    static let sweepFloor = 1_024

    private var entries: [Key: ManagedObject] = [:]
    /// The number of entries at which the next sweep runs.
    private var sweepAt = sweepFloor
    /// Whether every registered object is kept alive by the context (no sweeps).
    var retainsObjects = false

    /// The object registered under `key`, unless only the table held it: that one is let go
    /// then, as a sweep would have done, so that a lookup finds what the app can still see and a
    /// row read again makes a new object, as if the old one had ended when the app let it go.
    subscript(key: Key) -> ManagedObject? {
        mutating get {
            guard let index = entries.index(forKey: key) else { return nil }
            if !retainsObjects, isKnownUniquelyReferenced(&entries.values[index]) {
                entries.remove(at: index)
                return nil
            }
            return entries.values[index]
        }
    }

    /// Registers `object` under its ID unless another object is registered there that someone
    /// besides the table still holds; returns the object registered under the ID afterwards.
    /// An object only the table held is dropped, as a sweep would have done.
    @discardableResult
    mutating func add(_ object: ManagedObject) -> ManagedObject {
        let key = Key(of: object)
        if let index = entries.index(forKey: key) {
            if entries.values[index] === object { return object }
            if retainsObjects || !isKnownUniquelyReferenced(&entries.values[index]) { return entries.values[index] }
        } else if entries.count >= sweepAt, !retainsObjects {
            sweep()
        }
        entries[key] = object
        return object
    }

    /// Registers `object` under `key`, where nothing is registered (a lookup just found nothing,
    /// or the table was empty when a fetch began): one hash instead of ``add(_:)``'s lookup and
    /// store. Returns the object registered under the key afterwards: `object`, unless the key
    /// had one after all, which stays.
    mutating func insertNew(_ object: ManagedObject, at key: Key) -> ManagedObject {
        if entries.count >= sweepAt, !retainsObjects { sweep() }
        guard let earlier = entries.updateValue(object, forKey: key) else { return object }
        entries[key] = earlier
        return earlier
    }

    /// Whether no object is registered.
    var isEmpty: Bool { entries.isEmpty }

    /// Unregisters `object` under its current ID, if it is the one registered there.
    mutating func remove(_ object: ManagedObject) {
        let key = Key(of: object)
        if entries[key] === object { entries[key] = nil }
    }

    /// Makes room for `count` more objects at once, as a fetch knows how many it registers.
    mutating func reserve(_ count: Int) {
        entries.reserveCapacity(entries.count + count)
    }

    /// The registered objects.
    var objects: [ManagedObject] { Array(entries.values) }

    /// The registered objects that something besides the table holds, after sweeping until
    /// nothing more goes (an object let go may have held others).
    mutating func heldObjects() -> [ManagedObject] {
        if !retainsObjects {
            while sweep() > 0 {}
        }
        return objects
    }

    /// Lets go of every object only the table holds, on the context's queue (their `deinit`
    /// touches nothing of the context's); returns how many went.
    @discardableResult
    mutating func sweep() -> Int {
        var gone = [Key]()
        var index = entries.values.startIndex
        while index != entries.values.endIndex {
            if isKnownUniquelyReferenced(&entries.values[index]) { gone.append(entries.keys[index]) }
            entries.values.formIndex(after: &index)
        }
        for key in gone { entries[key] = nil }
        sweepAt = max(Self.sweepFloor, entries.count * 2)
        return gone.count
    }

    /// Forgets every object.
    mutating func removeAll() {
        entries = [:]
        sweepAt = Self.sweepFloor
    }
}

extension ObjectRegistry.Key {
    /// Where `object` is, under its ID.
    init(of object: ManagedObject) {
        self.init(number: object.entity.shape.number, value: object.objectID.rowKey)
    }
}
