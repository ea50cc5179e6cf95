/// The hashes of plain attributes computed so far, by the values they cover: models repeat
/// attributes (`id`, `createdAt`) across entities, and a look-up is far cheaper than two SHA-256s.
///
/// Keys with ASCII names, where equal names are equal bytes, sit in an open-addressing table
/// indexed by ``AttributeHashKey/asciiCode(name:type:)``, which is cheaper to compute than
/// `Hasher`'s hash, and attributes are compared with them in place. Every key also goes in a
/// dictionary, which answers all look-ups once a non-ASCII name has been stored, since such a
/// name can equal one spelled differently (`K` and the Kelvin sign).
struct AttributeMemo {
    /// A table slot: the code of the key stored there and its position, -1 when empty.
    private struct Slot {
        var code: Int
        var position: Int
    }

    /// A power of two long, at most half full.
    private var slots = [Slot](repeating: Slot(code: 0, position: -1), count: 64)
    private var keys: [AttributeHashKey] = []
    private var hashes: [VersionHash] = []
    private var byKey: [AttributeHashKey: VersionHash] = [:]
    private var holdsNonASCIIName = false

    /// The stored hash of an attribute with this one's values.
    func hash(of attribute: UnsafePointer<Attribute>) -> VersionHash? {
        guard !holdsNonASCIIName,
            let code = AttributeHashKey.asciiCode(name: attribute.pointee.name, type: attribute.pointee.type)
        else { return byKey[AttributeHashKey(attribute)] }
        let position = slots.withUnsafeBufferPointer { slots in
            keys.withUnsafeBufferPointer { keys -> Int? in
                var slot = code & (slots.count - 1)
                while slots[slot].position >= 0 {
                    if slots[slot].code == code, keys[slots[slot].position].matches(attribute) { return slots[slot].position }
                    slot = (slot + 1) & (slots.count - 1)
                }
                return nil
            }
        }
        return position.map { hashes[$0] }
    }

    /// Stores the hash of a key that ``hash(of:)`` does not know.
    mutating func insert(_ hash: VersionHash, for key: AttributeHashKey) {
        byKey[key] = hash
        guard let code = AttributeHashKey.asciiCode(name: key.name, type: key.type) else {
            holdsNonASCIIName = true
            return
        }
        keys.append(key)
        hashes.append(hash)
        if keys.count * 2 > slots.count {
            slots = [Slot](repeating: Slot(code: 0, position: -1), count: slots.count * 2)
            for position in keys.indices {
                place(Slot(code: AttributeHashKey.asciiCode(name: keys[position].name, type: keys[position].type)!, position: position))
            }
        } else {
            place(Slot(code: code, position: keys.count - 1))
        }
    }

    /// Puts the slot in the first free one from its code on.
    private mutating func place(_ entry: Slot) {
        var slot = entry.code & (slots.count - 1)
        while slots[slot].position >= 0 { slot = (slot + 1) & (slots.count - 1) }
        slots[slot] = entry
    }
}
