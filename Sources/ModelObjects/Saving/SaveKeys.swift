import ModelStore

/// The keys a save hands its new objects (and the rows they take over), by object identity: an
/// open-addressed table that places an identity by one multiplication. A `Dictionary` hashed
/// every identity with SipHash, and a save looks a new object's key up three times (its row, the
/// to-ones that name it, its new ID): those lookups took 7 % of inserting and saving new objects.
/// The identities are addresses of objects the save holds for as long as it uses the table, which
/// no input chooses, so a fixed multiplier spreads them as well as a random one would.
struct SaveKeys {
    /// The identities (nil for an empty place), and their keys beside them.
    private var identities: [ObjectIdentifier?]
    private var keys: [ObjectKey]
    /// The number of identities in the table.
    private(set) var count = 0
    /// 64 minus the base-2 logarithm of the number of places.
    private var shift: UInt64

    /// A table that holds `minimumCapacity` identities without growing (with none, a table that
    /// allocates nothing until its first key: most saves of changed objects add none).
    init(minimumCapacity: Int = 0) {
        guard minimumCapacity > 0 else {
            (identities, keys, shift) = ([], [], 64)
            return
        }
        // At most half full: a probe then rarely passes more than one place.
        var places = 16
        while places < 2 * minimumCapacity { places <<= 1 }
        identities = Array(repeating: nil, count: places)
        keys = Array(repeating: ObjectKey(number: 0, key: 0), count: places)
        shift = UInt64(64 - places.trailingZeroBitCount)
    }

    var isEmpty: Bool { count == 0 }

    /// The key of the object whose identity is `identity`.
    subscript(identity: ObjectIdentifier) -> ObjectKey? {
        get {
            guard count > 0 else { return nil }
            var place = home(of: identity)
            while true {
                guard let found = identities[place] else { return nil }
                if found == identity { return keys[place] }
                place = (place &+ 1) & (identities.count &- 1)
            }
        }
        set {
            guard let newValue else { preconditionFailure("a save's keys are never removed") }
            if 2 * (count + 1) > identities.count { grow() }
            var place = home(of: identity)
            while let found = identities[place], found != identity { place = (place &+ 1) & (identities.count &- 1) }
            if identities[place] == nil { count += 1 }
            identities[place] = identity
            keys[place] = newValue
        }
    }

    /// The key of `object`.
    subscript(object: ManagedObject) -> ObjectKey? { self[ObjectIdentifier(object)] }

    /// Adds the keys of `other` whose identities are not in the table already.
    mutating func merge(_ other: SaveKeys) {
        for (place, identity) in other.identities.enumerated() {
            if let identity, self[identity] == nil { self[identity] = other.keys[place] }
        }
    }

    /// Where the search for `identity` starts: its address without the alignment bits, times the
    /// 64-bit golden ratio, the product's top bits.
    private func home(of identity: ObjectIdentifier) -> Int {
        Int(truncatingIfNeeded: ((UInt64(UInt(bitPattern: identity)) >> 4) &* 0x9E37_79B9_7F4A_7C15) >> shift)
    }

    /// Doubles the places, every identity placed again.
    private mutating func grow() {
        var larger = SaveKeys(minimumCapacity: max(8, identities.count))
        for (place, identity) in identities.enumerated() {
            if let identity { larger[identity] = keys[place] }
        }
        self = larger
    }
}
