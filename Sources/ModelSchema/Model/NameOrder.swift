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
