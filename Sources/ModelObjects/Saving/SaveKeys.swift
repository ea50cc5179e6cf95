import ModelStore

/// The keys a save hands its new objects (and the rows they take over), by object identity. A
/// save looks a new object's key up three times (its row, the to-ones that name it, its new ID),
/// mostly in the order it handed the keys out; a `Dictionary` hashed every identity with SipHash
/// and reached a random bucket each time, a cache miss apiece, which took 7 % of inserting and
/// saving 50,000 objects. Here the entries are kept in the order they were added, a lookup tries
/// the entry after the one it found last first, and only otherwise asks an open-addressed index
/// that places an identity by one multiplication. The identities are addresses of objects the save
/// holds for as long as it uses the table, which no input chooses, so a fixed multiplier spreads
/// them as well as a random one would.
struct SaveKeys {
    /// The identities and their keys, in the order they were added.
    private var identities: [ObjectIdentifier] = []
    private var keys: [ObjectKey] = []
    /// For each place of the index, the number of the entry there plus one (0 for an empty place).
    private var places: [UInt32] = []
    /// 64 minus the base-2 logarithm of the number of places.
    private var shift: UInt64 = 64
    /// The entry after the one found or added last, which a lookup tries first.
    private var next = 0

    /// A table that holds `minimumCapacity` identities without growing its index (with none, a
    /// table that allocates nothing until its first key: most saves of changed objects add none).
    init(minimumCapacity: Int = 0) {
        guard minimumCapacity > 0 else { return }
        identities.reserveCapacity(minimumCapacity)
        keys.reserveCapacity(minimumCapacity)
        makeIndex(holding: minimumCapacity)
    }

    var count: Int { identities.count }
    var isEmpty: Bool { identities.isEmpty }

    /// The key of the object whose identity is `identity`. Reading is `mutating`: it moves the
    /// place the next lookup tries first.
    subscript(identity: ObjectIdentifier) -> ObjectKey? {
        mutating get {
            if next < identities.count, identities[next] == identity {
                next += 1
                return keys[next - 1]
            }
            guard let entry = entry(of: identity) else { return nil }
            next = entry + 1
            return keys[entry]
        }
        set {
            guard let newValue else { preconditionFailure("a save's keys are never removed") }
            if let entry = entry(of: identity) {
                keys[entry] = newValue
            } else {
                append(identity, newValue)
            }
        }
    }

    /// Adds the keys of `other` whose identities are not in the table already.
    mutating func merge(_ other: SaveKeys) {
        for (identity, key) in zip(other.identities, other.keys) where entry(of: identity) == nil {
            append(identity, key)
        }
    }

    /// Adds `identity`, not in the table, with `key`, the index grown first if it would pass half full.
    private mutating func append(_ identity: ObjectIdentifier, _ key: ObjectKey) {
        if 2 * (identities.count + 1) > places.count { makeIndex(holding: max(8, places.count)) }
        identities.append(identity)
        keys.append(key)
        place(identities.count - 1)
    }

    /// The number of the entry of `identity`, found through the index.
    private func entry(of identity: ObjectIdentifier) -> Int? {
        guard !places.isEmpty else { return nil }
        var place = home(of: identity)
        while true {
            let found = Int(places[place])
            if found == 0 { return nil }
            if identities[found - 1] == identity { return found - 1 }
            place = (place &+ 1) & (places.count &- 1)
        }
    }

    /// Puts entry `entry` in the index, in the first empty place from its identity's home on.
    private mutating func place(_ entry: Int) {
        var place = home(of: identities[entry])
        while places[place] != 0 { place = (place &+ 1) & (places.count &- 1) }
        places[place] = UInt32(entry + 1)
    }

    /// Where the search for `identity` starts: its address without the alignment bits, times the
    /// 64-bit golden ratio, the product's top bits.
    private func home(of identity: ObjectIdentifier) -> Int {
        Int(truncatingIfNeeded: ((UInt64(UInt(bitPattern: identity)) >> 4) &* 0x9E37_79B9_7F4A_7C15) >> shift)
    }

    /// Makes an index at most half full with `count` identities, every entry placed again.
    private mutating func makeIndex(holding count: Int) {
        var size = 16
        while size < 2 * count { size <<= 1 }
        places = Array(repeating: 0, count: size)
        shift = UInt64(64 - size.trailingZeroBitCount)
        for entry in identities.indices { place(entry) }
    }
}
