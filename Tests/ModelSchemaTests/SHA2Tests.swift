import CSHA2
@testable import ModelSchema
import Testing

/// SHA-256 and SHA-512 against FIPS 180-4's examples and, at every length where the padding
/// changes shape, against OpenSSL's digests (Python's hashlib) of the same bytes.
struct SHA2Tests {
    /// The standard's examples: empty, "abc", the two-block messages, and a million "a".
    static let examples: [(message: String, sha256: String, sha512: String)] = [
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
         "cf83e1357eefb8bdf1542850d66d8007d620e4050b5715dc83f4a921d36ce9ce47d0d13c5d85f2b0ff8318d2877eec2f63b931bd47417a81a538327af927da3e"),
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
         "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f"),
    ]

    @Test(arguments: examples.indices)
    func standardExamples(_ index: Int) {
        let example = Self.examples[index]
        #expect(hex(SHA256.hash(Array(example.message.utf8))) == example.sha256)
        #expect(hex(SHA512.hash(Array(example.message.utf8))) == example.sha512)
    }

    @Test func multiBlockExamples() {
        let short = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"
        #expect(hex(SHA256.hash(Array(short.utf8))) == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        let long = "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu"
        #expect(
            hex(SHA512.hash(Array(long.utf8)))
                == "8e959b75dae313da8cf4f72814fc143f8f7779c6eb9f7fa17299aeadb6889018501d289e4900f7e4331b99dec4b5433ac7d329eeb6dd26545e96e55b874be909")
        let million = [UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000)
        #expect(hex(SHA256.hash(million)) == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
        #expect(
            hex(SHA512.hash(million))
                == "e718483d0ce769644e2e42c7bc15b4638e1f98b13b2044285632a803afa973ebde0ff244877ea60a4cb0432ce577c31beb009c5c2c49aa2e4eadb217ad8cc09b")
    }

    /// Lengths on each side of where the padding needs a second block (55/56 and 111/112 bytes)
    /// and of a whole block (64 and 128), hashed by OpenSSL.
    static let boundaries: [(length: Int, sha256: String, sha512: String)] = [
        (55, "e7313d333c272e639f790978283f9eb392e843d0f29b7016828bb1daa4aac70b",
         "14fd424b1fcadee624da946ab03f7e1def7c0d6e00f689594319881a26ff30b875ba4c622ac13100c8cc784c9c2eb23159aecbb4a02e3999062f551193e2b256"),
        (56, "4324d65f3c103567f5589c710bc08f8523f929a9272e3af36fc968e52abc6c27",
         "480fa85be41ef55a41208ca28ffc8743c91cf7d24758defe6f95bfb16de614fc86b701034896b047dd571de4318853d80e0809df162f1752cb26da6ddb94a0dd"),
        (57, "35df609437dcfea3279283ab79fd554e2bf78f8f7ae2de532d8ee300b09e8f73",
         "0582c85feba6881e7c3c371a82a645547a1a9bdb3fd0709d6a42e271697333b23d1692ff0076071fef520f46d04ca74c2b088b58a60ade3ba0c18380d230789c"),
        (63, "81c80242132f230c3bd41b3e63bbcff16107339549214a99614ff26664625055",
         "ecd42a703a4e93e163d60d55e3785b1a763838b0351bc2e6f7c94b4bfb24f9aa15da5d744ebcebe11f0fc4315d45ba3a047b6e60e07448357f2795bf34b73502"),
        (64, "39e3d7b6b5d075d37d053ad89b24b41bef4f3c29760c84447cab3f3be1882241",
         "8f3cc30b3fb5bf963688a46488249248ac2c67f0f85a145233c6c1e3c16dcd1df634c07d1d31da02576f65b9cf64e1c3fdb318b689b8a14e2e9552bcf30fb133"),
        (65, "aacca6ff74fdbb296d165a45cecfa04e5127bc008770fbbdd48006f2d2fae95e",
         "22050d1b2c5bd016c4b04c3e84f513ffbbbc057f83dc9ab196fee6684e5ee19d98b84c6538b3c5e1fc67dbc484e9d0a198254e41d0fa0cf5106991e106632419"),
        (111, "67d9492e628fd376e0b2efec8ca2b99b123e202cf620deb270728df979b2f73e",
         "68cffa6d0d76f309c9ce0d35280939f8e25990c43b7b086ccdf709be35b07d4ddba599541ff2b1c19d34ea49aeafb9659adb7ac3c0b078bb30a22d57fc6687ef"),
        (112, "96b928cff8528dbb99602c709a65b846cb6467acb8b722f0d758e4dc27bfc508",
         "d0865c524d1dddf7c23b799c413f5adcd7caefd3f66a9b49750ec81066012c25a8bcf94ddea6dc525691673097ca40e0101e897fc97218cfdb0704084e2bef4b"),
        (113, "cded73eed7df41eecd1ead825a38ca8763a9e910d5181c8ad8f201cc8ff2cbe4",
         "606314353bd419f9f7720e8297f2af8a9ed5f0bb0bed29b716bf18e34577623ae7effa46f496bd4282134e7e895284a4760a910d2ad8ec11e9dd75863058cd9c"),
        (127, "a8d23e75d936f303d248888d9b165ee543f4cbafcad3c9dd2a79bd84faa11d07",
         "e0b6a20f1c0c88970a9340152cd5a1c1ecf3d3b8de55102741879438079473540133b812706e5dbec322c8c9523b6fc8c6d16ee626e87ad5fe3d2916afedc369"),
        (128, "d2742f1f4ac6bb7ca2b239ee18402ba8b3f9f8e652d2a72973c2b9ba11c08cf6",
         "99b16f17aa0b969a5b8f08f367719d516e330ccd2660b6f0688ec031dbc783de50a1cd185a2568dba75070a2403d17d4741d163578515dfd2ff756ddfe4d47b1"),
        (129, "307f8fc2c1622b92762e818d39a185d4d667ad49a4b07ceae1f4afa008a93ec4",
         "a1556e29185778aa5991e34b8884c840d589f0fbb4b8ed590e51e9ac4eb03a008125000db2671f8fe7f485b59a77b518670078ecb41a54b4cd02a7f1d2ca4c6d"),
        (1000, "1e9bc38cbf860b9ec31918b065f9b52476c549a782e0e7990bed8ce3868d2371",
         "00e36fccf193e59697a92b5ab24666ce6326d7fa16bf10832d0991ddc591112e9dfa6a636950ed9c4d67344a760654c2ff7785e1d60094d651038735b5dccabd"),
    ]

    @Test(arguments: boundaries.indices)
    func paddingBoundaries(_ index: Int) {
        let boundary = Self.boundaries[index]
        let message = Self.message(count: boundary.length)
        #expect(hex(SHA256.hash(message)) == boundary.sha256)
        #expect(hex(SHA512.hash(message)) == boundary.sha512)
    }

    /// A message fed in two parts, split at every position, hashes as it does in one call.
    @Test func splitUpdatesMatchOneCall() {
        let message = Self.message(count: 300)
        let whole256 = SHA256.hash(message)
        let whole512 = SHA512.hash(message)
        for split in 0...message.count {
            var first = SHA256()
            var second = SHA512()
            message.withUnsafeBytes { bytes in
                for part in [UnsafeRawBufferPointer(rebasing: bytes[..<split]), UnsafeRawBufferPointer(rebasing: bytes[split...])] {
                    first.update(bufferPointer: part)
                    second.update(bufferPointer: part)
                }
            }
            #expect(first.finalize() == whole256, "SHA-256 split at \(split)")
            #expect(second.finalize() == whole512, "SHA-512 split at \(split)")
        }
    }

    /// The CPU's SHA instructions, where the machine has them, and the plain C compute the same
    /// state block by block: the tests above check only the path this machine takes.
    @Test func acceleratedAndPortableSHA256Agree() {
        let initial: [UInt32] = [0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19]
        let message = Self.message(count: 64 * 300)
        for blocks in [1, 2, 3, 300] {
            var dispatched = initial
            var portable = initial
            message.withUnsafeBufferPointer { bytes in
                modelc_sha256_blocks(&dispatched, bytes.baseAddress, blocks)
                modelc_sha256_blocks_portable(&portable, bytes.baseAddress, blocks)
            }
            #expect(dispatched == portable, "\(blocks) blocks, accelerated: \(modelc_sha256_is_accelerated() != 0)")
        }
    }

    static func message(count: Int) -> [UInt8] {
        (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ 3) }
    }

    func hex(_ bytes: [UInt8]) -> String {
        VersionHash(bytes: bytes).hex
    }
}
