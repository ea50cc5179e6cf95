/// The objects a context knows, by ID, one object per ID. The table retains its objects, and, on
/// the context's queue, lets go of those only it still holds (sweeps): as in Core Data, an object
/// without unsaved changes stays registered while the app holds it (`retainsRegisteredObjects`
/// false, the default), and changed objects are held by the context's change lists as well. So an
/// object's last release, and its `deinit`, happens on the queue in a sweep, or once the context is
/// gone, never under a caller's hands on another thread; and no object keeps a reference that
/// outlives what it points to. Sweeps are amortized: one runs when the table has doubled since the
/// last (from a floor), so a fetch of a million rows the app lets go of as it reads keeps a table
/// of a few thousand. Objects are found by their row, entity number and key: two integers hash and
/// compare faster than an ID's strings. The table is an open-addressed one of our own rather than
/// a `Dictionary`, so that neighbouring keys sit in neighbouring slots: a fetch registers rows in
/// key order, and each object then lands beside the one before it instead of in a random bucket
/// (a cache miss apiece, a fifth of a large fetch). Keys go to slots in runs of 16; which run is
/// found by multiplying by a multiplier drawn for each table (``spreadingMultiplier()``), which
/// spreads keys that follow one another evenly over the runs and cannot be foreseen, so no choice
/// of keys (rows of several stores, keys a stride apart) makes one table slow. New objects inserted here, until they have a permanent ID,
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
    /// How many neighbouring keys share a run of neighbouring slots (a power of two).
    private static let runLength = 16

    /// The slots: none, or a power of two of them, at most three quarters full, each object in
    /// the first free slot from its key's home (``home(of:)``) on. A slot keeps the object alone,
    /// eight bytes, and a lookup reads the key from the object it reaches (every object is
    /// registered under its own ID's key, ``Key/init(of:)``): with the key's row value kept beside
    /// it, a table of 200,000 objects took 4 MB more, 21 bytes an object, for no gain in speed, as
    /// a fetch's rows, registered in key order, mostly find their slot free or holding the object
    /// sought.
    private var slots: [ManagedObject?] = []
    /// The number of registered objects.
    private(set) var count = 0
    /// The odd multiplier that places runs, drawn for each table.
    private let multiplier = spreadingMultiplier()
    /// The number of entries at which the next sweep runs.
    private var sweepAt = sweepFloor
    /// Whether every registered object is kept alive by the context (no sweeps).
    var retainsObjects = false

    /// The object registered under `key`, unless only the table held it: that one is let go
    /// then, as a sweep would have done, so that a lookup finds what the app can still see and a
    /// row read again makes a new object, as if the old one had ended when the app let it go.
    subscript(key: Key) -> ManagedObject? {
        mutating get {
            guard case .found(let index) = find(key) else { return nil }
            if !retainsObjects, isKnownUniquelyReferenced(&slots[index]) {
                remove(at: index)
                return nil
            }
            return slots[index]
        }
    }

    /// Registers `object` under its ID unless another object is registered there that someone
    /// besides the table still holds; returns the object registered under the ID afterwards.
    /// An object only the table held is dropped, as a sweep would have done.
    @discardableResult
    mutating func add(_ object: ManagedObject) -> ManagedObject {
        let key = Key(of: object)
        if case .found(let index) = find(key) {
            if slots[index] === object { return object }
            if retainsObjects || !isKnownUniquelyReferenced(&slots[index]) { return slots[index]! }
            slots[index] = object
            return object
        }
        return insertNew(object, at: key)
    }

    /// Registers `object` under `key`, where nothing is registered (a lookup just found nothing,
    /// or the table was empty when a fetch began). Returns the object registered under the key
    /// afterwards: `object`, unless the key had one after all, which stays.
    mutating func insertNew(_ object: ManagedObject, at key: Key) -> ManagedObject {
        if count >= sweepAt, !retainsObjects { sweep() }
        if (count + 1) * 4 > slots.count * 3 { resize(toHold: count + 1) }
        switch find(key) {
        case .found(let index):
            return slots[index]!
        case .free(let index):
            assert(Key(of: object) == key, "an object is registered under its own ID's key")
            slots[index] = object
            count += 1
            return object
        }
    }

    /// Whether no object is registered.
    var isEmpty: Bool { count == 0 }

    /// Unregisters `object` under its current ID, if it is the one registered there.
    mutating func remove(_ object: ManagedObject) {
        if case .found(let index) = find(Key(of: object)), slots[index] === object { remove(at: index) }
    }

    /// Makes room for `count` more objects at once, as a fetch knows how many it registers: the
    /// table is swept first if they would pass the next sweep, and the next sweep is put off
    /// until they are all in, so none runs among the fetch's own objects (which the fetch holds:
    /// a sweep there would only read each one's reference count). It is put off no further: put
    /// off to twice the table, as it once was, each fetch pushed it ahead of the next, and a
    /// batch-faulting fetch, or any run of small fetches, kept every object it had ever read.
    mutating func reserve(_ more: Int) {
        guard more > 0 else { return }
        if !retainsObjects, count + more > sweepAt { sweep() }
        sweepAt = max(sweepAt, count + more)
        if (count + more) * 4 > slots.count * 3 { resize(toHold: count + more) }
    }

    /// The registered objects.
    var objects: [ManagedObject] { slots.compactMap { $0 } }

    /// Calls `body` with each registered object in place, gathering no array of them (a context
    /// going away with 200,000 objects spent a seventh of its teardown making one).
    func forEachObject(_ body: (ManagedObject) -> Void) {
        for index in slots.indices {
            if let object = slots[index] { body(object) }
        }
    }

    /// The registered objects that something besides the table holds, after sweeping until
    /// nothing more goes (an object let go may have held others).
    mutating func heldObjects() -> [ManagedObject] {
        if !retainsObjects {
            while sweep() > 0 {}
        }
        return objects
    }

    /// Lets go of every object only the table holds, on the context's queue (their `deinit`
    /// touches nothing of the context's); returns how many went. The rest are placed again, as
    /// the empty slots left behind would otherwise cut the runs a lookup follows.
    @discardableResult
    mutating func sweep() -> Int {
        var gone = 0
        for index in slots.indices where slots[index] != nil {
            if isKnownUniquelyReferenced(&slots[index]) {
                slots[index] = nil
                gone += 1
            }
        }
        count -= gone
        if gone > 0 { resize(toHold: count) }
        sweepAt = max(Self.sweepFloor, count * 2)
        return gone
    }

    /// Forgets every object.
    mutating func removeAll() {
        slots = []
        count = 0
        sweepAt = Self.sweepFloor
    }

    /// Where a lookup of a key ends: at its object, or at the free slot where it would go.
    private enum Place {
        case found(Int)
        case free(Int)
    }

    /// Follows `key`'s slots from its home to its object or to the first free slot.
    private func find(_ key: Key) -> Place {
        guard !slots.isEmpty else { return .free(0) }
        let mask = slots.count - 1
        var index = home(of: key)
        while let object = slots[index] {
            // The row value first: the entity number is two reads further, and for rows of one
            // entity, equal values mean the object sought.
            if object.objectID.rowKey == key.value, object.entity.shape.number == key.number { return .found(index) }
            index = (index + 1) & mask
        }
        return .free(index)
    }

    /// The slot where `key` belongs: keys that differ only in their last four bits share a run
    /// of slots, in key order, and the run is the high bits of the rest times the multiplier.
    /// Each entity's keys are shifted by a step of their own, which keeps their order's spread.
    func home(of key: Key) -> Int {
        let runs = slots.count / Self.runLength
        let rest = UInt64(bitPattern: key.value >> 4) &+ (UInt64(bitPattern: Int64(key.number)) &* 0x9E37_79B9_7F4A_7C15)
        let run = runs > 1 ? Int(truncatingIfNeeded: (rest &* multiplier) >> UInt64(64 - runs.trailingZeroBitCount)) : 0
        return run * Self.runLength + (Int(truncatingIfNeeded: key.value) & (Self.runLength - 1))
    }

    /// A random odd multiplier whose ratio to 2^64 has a continued fraction of ones and twos
    /// (until its denominators pass 2^32). Multiplying by it and keeping the high bits puts any
    /// number of keys that follow one another, or keep a stride, at gaps of nearly equal size at
    /// every table size (the three-distance theorem), as the golden ratio of Fibonacci hashing
    /// does; a multiplier drawn from every odd number had, one draw in ten, a ratio close to a
    /// fraction of small denominator, which piled a fetch's keys into a few runs (probes of 10 to
    /// 380 slots where these take 1). Drawn, not fixed, so that a store cannot pick keys that
    /// crowd one run.
    static func spreadingMultiplier() -> UInt64 {
        // The convergents of [0; a1, a2, …], each term 1 or 2: the fraction before the last, and the last.
        var (before, last) = ((numerator: UInt64(1), denominator: UInt64(0)), (numerator: UInt64(0), denominator: UInt64(1)))
        // One random bit a term: even with every term 1, 47 terms take the denominator past 2^32.
        var bits = UInt64.random(in: 0 ... .max)
        while last.denominator <= 1 << 32 {
            let term = 1 + (bits & 1)
            bits >>= 1
            (before, last) = (last, (term * last.numerator + before.numerator, term * last.denominator + before.denominator))
        }
        // numerator < denominator, so the quotient of numerator · 2^64 fits.
        return last.denominator.dividingFullWidth((high: last.numerator, low: 0)).quotient | 1
    }

    /// Empties the slot at `index`, moving later slots of the same runs back into the gap so that
    /// every object stays reachable from its home without a marker left behind.
    private mutating func remove(at index: Int) {
        slots[index] = nil
        count -= 1
        let mask = slots.count - 1
        var gap = index
        var next = index
        while true {
            next = (next + 1) & mask
            guard let object = slots[next] else { return }
            let home = home(of: Key(of: object))
            // The object may move back into the gap unless its home lies after the gap, up to it.
            let staysPut = gap <= next ? (gap < home && home <= next) : (gap < home || home <= next)
            if !staysPut {
                slots.swapAt(gap, next)
                gap = next
            }
        }
    }

    /// Places every object again in a table of the size that holds `needed` at most three
    /// quarters full.
    private mutating func resize(toHold needed: Int) {
        var size = Self.runLength
        while needed * 4 > size * 3 { size *= 2 }
        var old = [ManagedObject?](repeating: nil, count: size)
        swap(&old, &slots)
        let mask = size - 1
        for index in old.indices {
            guard let object = old[index] else { continue }
            var place = home(of: Key(of: object))
            while slots[place] != nil { place = (place + 1) & mask }
            swap(&slots[place], &old[index])
        }
    }
}

extension ObjectRegistry.Key {
    /// Where `object` is, under its ID.
    init(of object: ManagedObject) {
        self.init(number: object.entity.shape.number, value: object.objectID.rowKey)
    }
}
