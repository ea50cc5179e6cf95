/// What the hash of an attribute that is neither derived nor composite depends on.
struct AttributeHashKey: Hashable {
    var name: String
    var type: AttributeType
    var isOptional: Bool
    var isTransient: Bool
    var versionHashModifier: String?
    var allowsExternalBinaryDataStorage: Bool
    var preservesValueInHistoryOnDeletion: Bool

    /// The values of the attribute, read in place.
    init(_ attribute: UnsafePointer<Attribute>) {
        name = attribute.pointee.name
        type = attribute.pointee.type
        isOptional = attribute.pointee.isOptional
        isTransient = attribute.pointee.isTransient
        versionHashModifier = attribute.pointee.versionHashModifier
        allowsExternalBinaryDataStorage = attribute.pointee.allowsExternalBinaryDataStorage
        preservesValueInHistoryOnDeletion = attribute.pointee.preservesValueInHistoryOnDeletion
    }

    /// The hash of an attribute with these values.
    var versionHash: VersionHash {
        var input = HashInput()
        input.append(
            sha256Of: VersionHasher.baseInput(
                name: name, isOptional: isOptional, isTransient: isTransient, modifier: versionHashModifier))
        input.append(uint32: type.rawValue)
        if allowsExternalBinaryDataStorage { input.append(byte: 1) }
        if preservesValueInHistoryOnDeletion { input.append(byte: 1) }
        return input.sha256
    }

    /// Only the name and type: they tell a model's attributes apart well enough, and hashing
    /// fewer fields makes every look-up cheaper (equality still compares them all).
    func hash(into hasher: inout Hasher) {
        hasher.combine(name)
        hasher.combine(type)
    }

    /// Whether the attribute has these values; `==` without copying the attribute's into a key.
    func matches(_ attribute: UnsafePointer<Attribute>) -> Bool {
        name == attribute.pointee.name && type == attribute.pointee.type
            && isOptional == attribute.pointee.isOptional && isTransient == attribute.pointee.isTransient
            && versionHashModifier == attribute.pointee.versionHashModifier
            && allowsExternalBinaryDataStorage == attribute.pointee.allowsExternalBinaryDataStorage
            && preservesValueInHistoryOnDeletion == attribute.pointee.preservesValueInHistoryOnDeletion
    }

    /// FNV-1a of the name's bytes and the type, or `nil` when the name is not all ASCII: only
    /// then are equal names equal bytes, as a hash must have it.
    static func asciiCode(name: String, type: AttributeType) -> Int? {
        let nameCode = name.utf8.withContiguousStorageIfAvailable { bytes -> UInt64? in
            var code: UInt64 = 0xcbf2_9ce4_8422_2325
            var all: UInt8 = 0
            for byte in bytes {
                all |= byte
                code = (code ^ UInt64(byte)) &* 0x100_0000_01b3
            }
            return all < 0x80 ? code : nil
        } ?? nil
        guard let nameCode else { return nil }
        return Int(truncatingIfNeeded: (nameCode ^ UInt64(type.rawValue)) &* 0x100_0000_01b3)
    }
}
