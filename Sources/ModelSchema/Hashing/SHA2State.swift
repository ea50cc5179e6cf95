import CSHA2

/// SHA-256's state: eight 32-bit words, 64-byte blocks, compressed by `CSHA2`.
struct SHA256State: SHA2State {
    static let blockSize = 64
    static let compressBlocks = modelc_sha256_blocks

    /// The first 32 bits of the fractional parts of the square roots of the first 8 primes.
    var words: [UInt32] = [
        0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
        0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
    ]
}

/// SHA-512's state: eight 64-bit words, 128-byte blocks, compressed by `CSHA2`.
struct SHA512State: SHA2State {
    static let blockSize = 128
    static let compressBlocks = modelc_sha512_blocks

    /// The first 64 bits of the fractional parts of the square roots of the first 8 primes.
    var words: [UInt64] = [
        0x6a09e667f3bcc908, 0xbb67ae8584caa73b, 0x3c6ef372fe94f82b, 0xa54ff53a5f1d36f1,
        0x510e527fade682d1, 0x9b05688c2b3e6c1f, 0x1f83d9abfb41bd6b, 0x5be0cd19137e2179,
    ]
}
