import Foundation

/// The seed of every random choice the tests make (kill points, damaged bytes), printed so that a
/// failing run can be replayed with `MODELC_TEST_SEED=<seed> swift test --filter …`.
public enum TestSeed {
    /// `MODELC_TEST_SEED` when it is set, else a fresh random seed; printed once per process.
    public static let value: UInt64 = {
        let given = ProcessInfo.processInfo.environment["MODELC_TEST_SEED"].flatMap { UInt64($0) }
        let seed = given ?? UInt64.random(in: 1...UInt64.max)
        print("modelc tests: random choices use seed \(seed) (set MODELC_TEST_SEED=\(seed) to replay)")
        return seed
    }()

    /// A generator for one test, seeded from ``value`` and the test's own name so that tests
    /// running in parallel do not disturb each other's sequences.
    public static func generator(for test: String) -> SeededGenerator {
        var mixed = value
        for byte in test.utf8 { mixed = (mixed ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return SeededGenerator(seed: mixed)
    }
}

/// SplitMix64: a small generator whose whole sequence follows from its seed.
public struct SeededGenerator: RandomNumberGenerator, Sendable {
    private var state: UInt64

    public init(seed: UInt64) {
        state = seed
    }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
