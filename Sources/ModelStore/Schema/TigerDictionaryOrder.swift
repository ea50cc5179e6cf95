/// The order in which Core Data walks an entity's column keys when it lays out many-to-many join
/// tables: the bucket order of the private copy of CoreFoundation's Mac OS X 10.4 dictionary that
/// Core Data carries (`PF_Tiger_CFDictionary`), filled with the keys.
///
/// The dictionary is made for exactly the key count: its bucket count is the prime at the
/// position of the first capacity that holds the keys, and a key goes to the first free bucket
/// from `hash % buckets` on (linear probing). Core Data then reads the keys back bucket by bucket.
enum TigerDictionaryOrder {
    /// The capacities of the 10.4 dictionary, each paired with the bucket count below.
    static let capacities = [
        4, 8, 17, 29, 47, 76, 123, 199, 322, 521, 843, 1364, 2207, 3571, 5778, 9349, 15127, 24476, 39603, 64079,
    ]
    /// Prime bucket counts, one per capacity.
    static let bucketCounts = [
        5, 11, 23, 41, 67, 113, 199, 317, 521, 839, 1361, 2207, 3571, 5779, 9349, 15121, 24473, 39607, 64081, 103681,
    ]

    // MARK: - Hash

    /// The hash Core Data's copy gives a string (`_PF_TigerHashCFString`): UTF-16 units four at
    /// a time with the factors 67503105, 16974593, 66049 and 257 and the rest one at a time with
    /// 257, starting from the length; a string longer than 23 units hashes only its first 8 and
    /// last 16 units. The result adds itself shifted left by the length (modulo 32); all in 32 bits.
    static func hash(_ key: String) -> UInt32 {
        let units = Array(key.utf16)
        let length = units.count
        var result = UInt32(truncatingIfNeeded: length)
        func mix(_ start: Int) {
            result =
                result &* 67_503_105 &+ UInt32(units[start]) &* 16_974_593 &+ UInt32(units[start + 1]) &* 66049
                &+ UInt32(units[start + 2]) &* 257 &+ UInt32(units[start + 3])
        }
        if length > 23 {
            for start in [0, 4, length - 16, length - 12, length - 8, length - 4] { mix(start) }
        } else {
            var index = 0
            while index + 4 <= length {
                mix(index)
                index += 4
            }
            for unit in units[index...] { result = result &* 257 &+ UInt32(unit) }
        }
        return result &+ (result &<< UInt32(length & 31))
    }

    // MARK: - Order

    /// The bucket count of a dictionary made for `count` keys; `nil` beyond the table, which no
    /// entity reaches (64,079 columns).
    static func bucketCount(forKeys count: Int) -> Int? {
        capacities.firstIndex { $0 >= count }.map { bucketCounts[$0] }
    }

    /// `keys` (duplicates dropped) in the order Core Data's dictionary holds them; in the given
    /// order when there are more than the table has room for.
    static func ordered(_ keys: [String]) -> [String] {
        var seen = Set<String>()
        let unique = keys.filter { seen.insert($0).inserted }
        guard let count = bucketCount(forKeys: unique.count) else { return unique }
        var buckets = [String?](repeating: nil, count: count)
        for key in unique {
            var bucket = Int(hash(key) % UInt32(count))
            while buckets[bucket] != nil { bucket = bucket + 1 == count ? 0 : bucket + 1 }
            buckets[bucket] = key
        }
        return buckets.compactMap { $0 }
    }
}
