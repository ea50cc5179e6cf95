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
        var left = lhs.utf8.makeIterator()
        var right = rhs.utf8.makeIterator()
        while let l = left.next() {
            guard let r = right.next() else { return false }
            if l == r { continue }
            if l < 0xEE && r < 0xEE { return l < r }
            return lhs.utf16.lexicographicallyPrecedes(rhs.utf16)
        }
        return right.next() != nil
    }
}
