/// Orders names as Core Data's archives and version hashes do: as `-[NSString compare:]` with no
/// options, by UTF-16 code unit.
public enum NameOrder {
    /// Whether `lhs` sorts before `rhs`.
    ///
    /// Compares UTF-8 bytes, which is quicker than walking UTF-16 units and gives the same
    /// answer wherever the first difference lies below U+E000 (lead bytes below 0xEE); from there
    /// up, where UTF-16's surrogates sort characters outside the Basic Multilingual Plane before
    /// U+E000–U+FFFF, it compares UTF-16 units.
    public static func precedes(_ lhs: String, _ rhs: String) -> Bool {
        let byBytes = lhs.utf8.withContiguousStorageIfAvailable { left in
            rhs.utf8.withContiguousStorageIfAvailable { right in precedes(left, right) } ?? nil
        } ?? nil
        return byBytes ?? lhs.utf16.lexicographicallyPrecedes(rhs.utf16)
    }

    /// Whether the UTF-8 bytes `left` sort before `right`, or `nil` when the first difference is
    /// at or above U+E000 and only UTF-16 units can tell. Equal stretches are skipped eight bytes
    /// at a time, since names often share long prefixes (`Account0001`, `Account0002`).
    private static func precedes(_ left: UnsafeBufferPointer<UInt8>, _ right: UnsafeBufferPointer<UInt8>) -> Bool? {
        let count = min(left.count, right.count)
        var index = 0
        while index + 8 <= count {
            let l = UInt64(littleEndian: UnsafeRawPointer(left.baseAddress! + index).loadUnaligned(as: UInt64.self))
            let r = UInt64(littleEndian: UnsafeRawPointer(right.baseAddress! + index).loadUnaligned(as: UInt64.self))
            if l != r {
                index += (l ^ r).trailingZeroBitCount / 8
                break
            }
            index += 8
        }
        while index < count {
            let l = left[index]
            let r = right[index]
            if l != r {
                return l < 0xEE && r < 0xEE ? l < r : nil
            }
            index += 1
        }
        return left.count < right.count
    }
}

extension NameOrder {
    /// The positions of `names` sorted in name order, identical names by position.
    ///
    /// Names already in order, as Xcode writes them, are only checked neighbour by neighbour.
    /// Otherwise each name's first sixteen bytes, read once as two big-endian numbers, decide
    /// most comparisons with two integer comparisons; only names whose prefixes tie, or hold a
    /// byte from 0xEE up (where UTF-16 order can differ from UTF-8's), are compared with
    /// `precedes`.
    public static func sortedPositions(of names: [String]) -> [Int] {
        if names.indices.dropFirst().allSatisfy({ !precedes(names[$0], names[$0 - 1]) }) {
            return Array(names.indices)
        }
        let keys = names.map(SortKey.init)
        return names.withUnsafeBufferPointer { names in
            keys.withUnsafeBufferPointer { keys in
                names.indices.sorted { a, b in
                    if keys[a].isDecisive, keys[b].isDecisive, keys[a] != keys[b] {
                        return (keys[a].high, keys[a].low) < (keys[b].high, keys[b].low)
                    }
                    return precedes(names[a], names[b]) || (a < b && !precedes(names[b], names[a]))
                }
            }
        }
    }

    /// A name's first sixteen UTF-8 bytes as two big-endian numbers, zero-padded.
    private struct SortKey: Equatable {
        var high: UInt64 = 0
        var low: UInt64 = 0
        /// Whether all those bytes are below 0xEE, so that where two such keys differ they order
        /// their names as `precedes` does.
        var isDecisive = true

        init(_ name: String) {
            self = name.utf8.withContiguousStorageIfAvailable(SortKey.init(bytes:))
                ?? Array(name.utf8).withUnsafeBufferPointer(SortKey.init(bytes:))
        }

        private init(bytes: UnsafeBufferPointer<UInt8>) {
            var raw: (UInt64, UInt64) = (0, 0)
            withUnsafeMutableBytes(of: &raw) { $0.copyMemory(from: UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: bytes.prefix(16)))) }
            high = UInt64(bigEndian: raw.0)
            low = UInt64(bigEndian: raw.1)
            // ASCII, the usual case, needs no look at each byte.
            if (high | low) & 0x8080_8080_8080_8080 != 0 {
                isDecisive = !bytes.prefix(16).contains { $0 >= 0xEE }
            }
        }
    }
}
