/// An object's row version (`Z_OPT`) and its flags in one word, where a version and three bytes
/// of flags took two: the life cycle's flags in the low byte, the change lists' bits in the next,
/// whether the object checks its queue in bit 16, and the version, signed, in the 47 bits above.
/// `Z_OPT` counts a row's saves, so every row Core Data writes has a version that fits; one that
/// does not (a row written otherwise) is marked here and kept whole in the object's extras
/// (``ManagedObject/version``), so that every version a store holds is written back exactly.
struct VersionAndFlags {
    private var bits: UInt64

    private static let versionShift: UInt64 = 17
    private static let checksQueueBit: UInt64 = 1 << 16
    /// The version field's least value, which marks a version kept elsewhere.
    private static let outOfRange = Int64.min >> versionShift

    /// Version 0, no flags set.
    init(checksQueue: Bool) {
        bits = checksQueue ? Self.checksQueueBit : 0
    }

    var lifecycle: ManagedObject.Lifecycle {
        @inline(__always) get { ManagedObject.Lifecycle(rawValue: UInt8(truncatingIfNeeded: bits)) }
        set { bits = bits & ~0xFF | UInt64(newValue.rawValue) }
    }

    /// Which of its context's change lists the object is in, a bit each (``ChangeList``).
    var listed: UInt8 {
        @inline(__always) get { UInt8(truncatingIfNeeded: bits >> 8) }
        set { bits = bits & ~0xFF00 | UInt64(newValue) << 8 }
    }

    /// ``ConcurrencyDebug/isEnabled`` when the object was made.
    var checksQueue: Bool { bits & Self.checksQueueBit != 0 }

    /// The version, or nil when it did not fit and is kept elsewhere.
    var version: Int64? {
        let version = Int64(bitPattern: bits) >> Self.versionShift
        return version == Self.outOfRange ? nil : version
    }

    /// Stores `version` and tells whether it fitted; one that did not is marked as kept elsewhere.
    mutating func setVersion(_ version: Int64) -> Bool {
        let fits = version > Self.outOfRange && version <= Int64.max >> Self.versionShift
        let field = fits ? version : Self.outOfRange
        bits = bits & (1 << Self.versionShift - 1) | UInt64(bitPattern: field) << Self.versionShift
        return fits
    }
}
