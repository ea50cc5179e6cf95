/// SHA-2 (FIPS 180-4): the digests Core Data builds its version hashes from, SHA-256 for an entity,
/// a property or the model checksum and SHA-512 for a store's hashes digest.
///
/// Written here rather than taken from a cryptography library: the inputs are a model's names and
/// hashes, nothing secret, and a library brings hundreds of C files into every build of the
/// build plugin's tool. This type pads the message and feeds whole blocks, as many at once as
/// it has, to its ``SHA2State``.
struct SHA2<State: SHA2State> {
    private var state = State()
    /// The bytes of the block not yet complete, fewer than a block.
    private var pending: [UInt8] = []
    private var length: UInt64 = 0

    init() {
        pending.reserveCapacity(State.blockSize)
    }

    /// The digest of `bytes` in one call.
    static func hash(_ bytes: [UInt8]) -> [UInt8] {
        var hasher = SHA2()
        bytes.withUnsafeBytes { hasher.update(bufferPointer: $0) }
        return hasher.finalize()
    }

    mutating func update(bufferPointer bytes: UnsafeRawBufferPointer) {
        length &+= UInt64(bytes.count)
        var start = 0
        if !pending.isEmpty {
            start = min(State.blockSize - pending.count, bytes.count)
            pending.append(contentsOf: bytes[0..<start])
            guard pending.count == State.blockSize else { return }
            pending.withUnsafeBytes { state.compress($0) }
            pending.removeAll(keepingCapacity: true)
        }
        let whole = (bytes.count - start) / State.blockSize * State.blockSize
        if whole > 0 {
            state.compress(UnsafeRawBufferPointer(rebasing: bytes[start..<start + whole]))
            start += whole
        }
        pending.append(contentsOf: bytes[start...])
    }

    /// Pads the message as the standard says (a one bit, zeros to the block's length field, the
    /// message's length in bits, big-endian) and returns the final state's words, big-endian.
    consuming func finalize() -> [UInt8] {
        let bitLength = length &* 8
        let used = (pending.count + 1) % State.blockSize
        let zeros = (2 * State.blockSize - State.lengthFieldSize - used) % State.blockSize
        var padding: [UInt8] = [0x80]
        padding.append(contentsOf: repeatElement(0, count: zeros + State.lengthFieldSize - 8))
        withUnsafeBytes(of: bitLength.bigEndian) { padding.append(contentsOf: $0) }
        padding.withUnsafeBytes { update(bufferPointer: $0) }
        assert(pending.isEmpty)
        return state.digest
    }
}

typealias SHA256 = SHA2<SHA256State>
typealias SHA512 = SHA2<SHA512State>

/// The part of SHA-256 and SHA-512 that differs: the word, the block size, the standard's
/// initial words and the C function that runs blocks through the compression function.
protocol SHA2State {
    associatedtype Word: FixedWidthInteger
    static var blockSize: Int { get }
    static var compressBlocks: (UnsafeMutablePointer<Word>?, UnsafePointer<UInt8>?, Int) -> Void { get }
    /// The standard's initial hash value.
    init()
    var words: [Word] { get set }
}

extension SHA2State {
    /// The bytes at the end of the last block that hold the message's length: 8 for SHA-256,
    /// 16 for SHA-512.
    static var lengthFieldSize: Int { blockSize / 8 }

    /// The words' bytes, most significant first: how SHA-2 writes its digest.
    var digest: [UInt8] {
        var bytes = [UInt8]()
        bytes.reserveCapacity(words.count * Word.bitWidth / 8)
        for word in words {
            withUnsafeBytes(of: word.bigEndian) { bytes.append(contentsOf: $0) }
        }
        return bytes
    }

    /// Runs whole blocks, one or more, through the compression function.
    mutating func compress(_ blocks: UnsafeRawBufferPointer) {
        let bytes = blocks.assumingMemoryBound(to: UInt8.self)
        words.withUnsafeMutableBufferPointer { Self.compressBlocks($0.baseAddress, bytes.baseAddress, bytes.count / Self.blockSize) }
    }
}
