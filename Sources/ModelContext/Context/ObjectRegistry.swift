/// The objects a context knows, by ID. Core Data's contexts do not keep objects without unsaved
/// changes alive (`retainsRegisteredObjects` is false by default): an object stays registered
/// while the app holds it, and changed objects are held by the context's change lists. As in
/// Core Data, the table does not retain its objects and an object leaves it when it is
/// deallocated (``ManagedObject``'s `deinit`), which, like every use of an object, happens on
/// its context's queue. Weak references would do the same at a price paid on every retain and
/// release of every object (Swift moves a weakly referenced object's counts to a side table).
/// Objects are found by their row (entity number and key) or, before they have one, by their
/// temporary number: two integers hash and compare faster than an ID's strings, and a fetch of a
/// million rows looks each up, registers it and, as it goes, removes it.
struct ObjectRegistry {
    /// An object's place in the table.
    struct Key: Hashable {
        /// The entity number of a saved object's row, or `newObject`.
        let number: Int
        /// The row's key, or the new object's temporary number.
        let value: Int64

        static let newObject = -1

        init(number: Int, value: Int64) {
            self.number = number
            self.value = value
        }

        /// Where `object` is, under its current ID.
        init(of object: ManagedObject) {
            switch object.objectID.reference {
            case .permanent(let key): self.init(number: object.entity.shape.number, value: key)
            case .temporary(let number): self.init(number: Self.newObject, value: number)
            }
        }
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

    /// Registers `object` under its current ID.
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
