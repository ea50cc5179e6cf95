/// A growable buffer of plain values in memory it owns: ``BinaryPropertyListWriter`` stores
/// about a million bytes and references per archive, and writing them through a pointer skips
/// the uniqueness and bounds checks each array write makes.
struct GrowableBuffer<Element: BitwiseCopyable>: ~Copyable {
    private(set) var base: UnsafeMutablePointer<Element>
    private(set) var count = 0
    private var capacity: Int

    /// An empty buffer with room for `capacity` elements.
    init(capacity: Int = 64) {
        self.capacity = max(capacity, 1)
        base = .allocate(capacity: self.capacity)
    }

    deinit { base.deallocate() }

    /// Makes room for `extra` more elements.
    @inline(__always)
    mutating func reserve(_ extra: Int) {
        if count + extra > capacity { grow(to: count + extra) }
    }

    /// Moves the elements to memory with room for at least `needed`, doubling the capacity.
    private mutating func grow(to needed: Int) {
        let newCapacity = max(needed, 2 * capacity)
        let newBase = UnsafeMutablePointer<Element>.allocate(capacity: newCapacity)
        newBase.update(from: base, count: count)
        base.deallocate()
        base = newBase
        capacity = newCapacity
    }

    /// Appends `element`.
    @inline(__always)
    mutating func append(_ element: Element) {
        reserve(1)
        (base + count).initialize(to: element)
        count += 1
    }

    /// Appends `elements`.
    mutating func append(contentsOf elements: UnsafeBufferPointer<Element>) {
        reserve(elements.count)
        if let start = elements.baseAddress { (base + count).update(from: start, count: elements.count) }
        count += elements.count
    }

    /// Appends `extra` elements the caller then sets; returns the index of the first.
    @inline(__always)
    mutating func appendUninitialized(_ extra: Int) -> Int {
        reserve(extra)
        let start = count
        count += extra
        return start
    }

    /// Removes the last `removed` elements.
    @inline(__always)
    mutating func removeLast(_ removed: Int) {
        count -= removed
    }

    /// The element at `index`, which must be below ``count``.
    @inline(__always)
    subscript(index: Int) -> Element {
        base[index]
    }

    /// The elements as a buffer, valid until the next change.
    var elements: UnsafeBufferPointer<Element> {
        UnsafeBufferPointer(start: base, count: count)
    }
}

extension GrowableBuffer where Element == UInt8 {
    /// Appends the low `size` bytes of `value` (1, 2, 4 or 8), most significant first.
    @inline(__always)
    mutating func appendBigEndian(_ value: UInt64, size: Int) {
        let start = appendUninitialized(size)
        Self.store(value, size: size, at: base + start)
    }

    /// Writes the low `size` bytes of `value` (1, 2, 4 or 8) at `target`, most significant first.
    @inline(__always)
    static func store(_ value: UInt64, size: Int, at target: UnsafeMutablePointer<UInt8>) {
        let raw = UnsafeMutableRawPointer(target)
        switch size {
        case 1: raw.storeBytes(of: UInt8(truncatingIfNeeded: value), as: UInt8.self)
        case 2: raw.storeBytes(of: UInt16(truncatingIfNeeded: value).bigEndian, as: UInt16.self)
        case 4: raw.storeBytes(of: UInt32(truncatingIfNeeded: value).bigEndian, as: UInt32.self)
        default: raw.storeBytes(of: value.bigEndian, as: UInt64.self)
        }
    }
}
