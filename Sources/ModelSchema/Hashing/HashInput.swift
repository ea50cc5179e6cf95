/// The byte string fed to a version hash, built in Core Data's order (little-endian integers).
struct HashInput {
    private(set) var bytes: [UInt8] = []

    /// An empty input with room for `capacity` bytes, so that building it allocates once.
    init(capacity: Int = 64) {
        bytes.reserveCapacity(capacity)
    }

    mutating func append(_ string: String) {
        bytes.append(contentsOf: string.utf8)
    }

    mutating func append(_ hash: VersionHash) {
        bytes.append(contentsOf: hash.bytes)
    }

    /// Appends the SHA-256 of `other` without making a ``VersionHash`` of it first.
    mutating func append(sha256Of other: HashInput) {
        bytes.append(contentsOf: other.digest)
    }

    mutating func append(byte: UInt8) {
        bytes.append(byte)
    }

    mutating func append(uint16 value: UInt16) {
        bytes.append(UInt8(value & 0xFF))
        bytes.append(UInt8(value >> 8))
    }

    mutating func append(uint32 value: UInt32) {
        for shift in stride(from: 0, to: 32, by: 8) {
            bytes.append(UInt8((value >> UInt32(shift)) & 0xFF))
        }
    }

    var sha256: VersionHash {
        VersionHash(bytes: digest)
    }

    var sha512: [UInt8] {
        SHA512.hash(bytes)
    }

    private var digest: [UInt8] {
        SHA256.hash(bytes)
    }
}
