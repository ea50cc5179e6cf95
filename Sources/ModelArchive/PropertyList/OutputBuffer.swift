/// Writes bytes into memory known to be large enough, without the capacity and uniqueness
/// checks of appending to an array byte by byte: ``BinaryPropertyListWriter`` computes the size
/// of the file before writing it.
struct OutputBuffer {
    private let base: UnsafeMutablePointer<UInt8>
    private(set) var count = 0

    /// Writes from `base` on.
    init(_ base: UnsafeMutablePointer<UInt8>) {
        self.base = base
    }

    /// Appends an array's or a slice's bytes (any contiguous collection).
    mutating func append(contentsOf bytes: some Collection<UInt8>) {
        let copied = bytes.withContiguousStorageIfAvailable { source in
            if let start = source.baseAddress { (base + count).update(from: start, count: source.count) }
            return source.count
        }
        guard let copied else { preconditionFailure("bytes must be contiguous") }
        count += copied
    }

    /// Appends the low `size` bytes of `value` (1, 2, 4 or 8), most significant first.
    mutating func appendBigEndian(_ value: UInt64, size: Int) {
        let target = UnsafeMutableRawPointer(base + count)
        switch size {
        case 1: target.storeBytes(of: UInt8(truncatingIfNeeded: value), as: UInt8.self)
        case 2: target.storeBytes(of: UInt16(truncatingIfNeeded: value).bigEndian, as: UInt16.self)
        case 4: target.storeBytes(of: UInt32(truncatingIfNeeded: value).bigEndian, as: UInt32.self)
        default: target.storeBytes(of: value.bigEndian, as: UInt64.self)
        }
        count += size
    }
}
