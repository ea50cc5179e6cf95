import CSHA2

/// SHA-256's state: eight 32-bit words, 64-byte blocks, compressed in C (`CSHA2`).
struct SHA256State: SHA2State {
    static let blockSize = 64
    static let lengthFieldSize = 8

    /// The first 32 bits of the fractional parts of the square roots of the first 8 primes.
    private var words: [UInt32] = [
        0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
        0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
    ]

    var digest: [UInt8] { SHA2Words.bigEndianBytes(of: words) }

    mutating func compress(_ blocks: UnsafeRawBufferPointer) {
        let bytes = blocks.assumingMemoryBound(to: UInt8.self)
        words.withUnsafeMutableBufferPointer {
            modelc_sha256_blocks($0.baseAddress, bytes.baseAddress, bytes.count / Self.blockSize)
        }
    }
}

/// SHA-512's state: eight 64-bit words, 128-byte blocks, compressed in C (`CSHA2`).
struct SHA512State: SHA2State {
    static let blockSize = 128
    static let lengthFieldSize = 16

    /// The first 64 bits of the fractional parts of the square roots of the first 8 primes.
    private var words: [UInt64] = [
        0x6a09e667f3bcc908, 0xbb67ae8584caa73b, 0x3c6ef372fe94f82b, 0xa54ff53a5f1d36f1,
        0x510e527fade682d1, 0x9b05688c2b3e6c1f, 0x1f83d9abfb41bd6b, 0x5be0cd19137e2179,
    ]

    var digest: [UInt8] { SHA2Words.bigEndianBytes(of: words) }

    mutating func compress(_ blocks: UnsafeRawBufferPointer) {
        let bytes = blocks.assumingMemoryBound(to: UInt8.self)
        words.withUnsafeMutableBufferPointer {
            modelc_sha512_blocks($0.baseAddress, bytes.baseAddress, bytes.count / Self.blockSize)
        }
    }
}

enum SHA2Words {
    /// The words' bytes, most significant first: how SHA-2 writes its digest.
    static func bigEndianBytes<Word: FixedWidthInteger>(of words: [Word]) -> [UInt8] {
        var bytes = [UInt8]()
        bytes.reserveCapacity(words.count * Word.bitWidth / 8)
        for word in words {
            withUnsafeBytes(of: word.bigEndian) { bytes.append(contentsOf: $0) }
        }
        return bytes
    }
}
