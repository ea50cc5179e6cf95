/// Core Data builds (`NSPersistenceFrameworkVersion`) whose store format differs, as observed in
/// the corpus's stores: what a store written by that build contains.
public struct FrameworkVersion: Sendable, Hashable, Comparable, CustomStringConvertible {
    public var number: Int

    public init(_ number: Int) {
        self.number = number
    }

    /// The newest build seen in a real store (iOS 17 / macOS 14 and later), written by default.
    public static let current = FrameworkVersion(1344)

    /// Stores carry `Z_MODELCACHE` from here on (519 has none; 637 has it).
    public var writesModelCache: Bool { number >= 600 }
    /// Join tables get their `<TABLE>_<COLUMN>_INDEX` from here on. Every corpus store with join
    /// tables (637 and later) has them and none older has join tables, so the corpus cannot
    /// place the change more exactly; 600 is the boundary of the other pre-iOS 5 differences.
    public var indexesJoinTables: Bool { number >= 600 }
    /// `NSStoreModelVersionHashesDigest` is written from here on (866 has none; 977 has it).
    public var writesHashesDigest: Bool { number >= 900 }
    /// `NSStoreModelVersionChecksumKey` is written from here on (1145 has none; 1344 has it).
    public var writesVersionChecksum: Bool { number >= 1200 }
    /// `NSPersistenceMaximumFrameworkVersion` (the writing build's own number) is written from
    /// here on (1344 has none; 1513 has it). The exact build is between the two; 1400 is an estimate.
    public var writesMaximumFrameworkVersion: Bool { number >= 1400 }
    /// Indexed attributes and compound indexes are `Z_<Entity>_<name>` indexes with explicit
    /// collation from here on; before, `<TABLE>_<COLUMN>_INDEX` without (640 legacy; 1048 not).
    /// The exact build is between the two; 800 is an estimate.
    public var namesIndexesByEntity: Bool { number >= 800 }

    public var description: String { String(number) }

    public static func < (lhs: FrameworkVersion, rhs: FrameworkVersion) -> Bool {
        lhs.number < rhs.number
    }
}
