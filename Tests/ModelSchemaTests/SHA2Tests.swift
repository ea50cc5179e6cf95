import Testing

@testable import ModelSchema

/// The digests against the examples of FIPS 180-2's appendices (the standard's own test vectors),
/// whole and fed in pieces that straddle block boundaries.
@Suite struct SHA2Tests {
    private static let twoBlocks256 = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"
    private static let twoBlocks512 =
        "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu"

    private static func hex(_ bytes: [UInt8]) -> String {
        bytes.map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined()
    }

    private static func sha256(_ bytes: [UInt8], pieces: Int = 1) -> String {
        var hasher = SHA256()
        feed(bytes, pieces: pieces) { hasher.update($0) }
        return hex(hasher.finalize())
    }

    private static func sha512(_ bytes: [UInt8], pieces: Int = 1) -> String {
        var hasher = SHA512()
        feed(bytes, pieces: pieces) { hasher.update($0) }
        return hex(hasher.finalize())
    }

    /// Hands `bytes` over in `pieces` parts of unequal sizes.
    private static func feed(_ bytes: [UInt8], pieces: Int, into update: ([UInt8]) -> Void) {
        var start = 0
        for piece in 1...pieces {
            let end = piece == pieces ? bytes.count : min(bytes.count, start + 7 * piece + 3)
            update(Array(bytes[start..<end]))
            start = end
        }
    }

    @Test func sha256MatchesTheStandardsExamples() {
        #expect(Self.sha256([]) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(Self.sha256(Array("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(Self.sha256(Array(Self.twoBlocks256.utf8)) == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        #expect(Self.sha256(Array(Self.twoBlocks256.utf8), pieces: 5) == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        #expect(Self.sha256(Array(repeating: UInt8(ascii: "a"), count: 1_000_000), pieces: 40)
            == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    @Test func sha512MatchesTheStandardsExamples() {
        #expect(Self.sha512([]) == "cf83e1357eefb8bdf1542850d66d8007d620e4050b5715dc83f4a921d36ce9ce47d0d13c5d85f2b0ff8318d2877eec2f63b931bd47417a81a538327af927da3e")
        #expect(Self.sha512(Array("abc".utf8)) == "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f")
        #expect(Self.sha512(Array(Self.twoBlocks512.utf8), pieces: 6) == "8e959b75dae313da8cf4f72814fc143f8f7779c6eb9f7fa17299aeadb6889018501d289e4900f7e4331b99dec4b5433ac7d329eeb6dd26545e96e55b874be909")
        #expect(Self.sha512(Array(repeating: UInt8(ascii: "a"), count: 1_000_000), pieces: 40)
            == "e718483d0ce769644e2e42c7bc15b4638e1f98b13b2044285632a803afa973ebde0ff244877ea60a4cb0432ce577c31beb009c5c2c49aa2e4eadb217ad8cc09b")
    }

    /// Every length around the padding's edges (55, 56, 64 bytes for SHA-256; 111, 112, 128 for
    /// SHA-512) is hashed the same whole and in pieces.
    @Test func piecesAndWholeAgreeAtEveryPaddingEdge() {
        for count in 0...260 {
            let bytes = (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
            #expect(Self.sha256(bytes) == Self.sha256(bytes, pieces: 4))
            #expect(Self.sha512(bytes) == Self.sha512(bytes, pieces: 4))
        }
    }
}
