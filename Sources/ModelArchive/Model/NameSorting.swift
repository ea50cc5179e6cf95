import ModelSchema

/// Puts names in the order archives list entities, properties and keys in (``NameOrder``), so
/// that the bytes depend on the model and not on the order of its XML. Models keep Xcode's
/// order, which is usually sorted already, so checking neighbours with a byte comparison
/// usually settles it without sorting.
enum NameSorting {
    /// The indexes of `names` in ``NameOrder``, equal names in their order. Sorting indexes
    /// rather than entities or attributes saves copying each of them.
    static func order(_ names: [String]) -> [Int] {
        // The sort is stable, so names in order sort to themselves.
        let isSorted = names.indices.dropFirst().allSatisfy { !precedes(names[$0], names[$0 - 1]) }
        if isSorted { return Array(names.indices) }
        return names.indices.sorted { NameOrder.precedes(names[$0], names[$1]) }
    }

    /// Whether every name is ASCII, where equal strings are equal bytes (elsewhere canonically
    /// equivalent strings, such as a precomposed and a decomposed `é`, are equal too).
    static func isASCII(_ names: [String]) -> Bool {
        names.allSatisfy { name in
            name.utf8.withContiguousStorageIfAvailable { $0.reduce(0, |) < 0x80 } ?? false
        }
    }

    /// ``NameOrder/precedes(_:_:)``, comparing the strings' UTF-8 storage in place; a first
    /// difference from lead byte 0xEE on, where UTF-16 order differs, goes to ``NameOrder``.
    static func precedes(_ lhs: String, _ rhs: String) -> Bool {
        let answer = lhs.utf8.withContiguousStorageIfAvailable { left -> Bool? in
            rhs.utf8.withContiguousStorageIfAvailable { right -> Bool? in
                let common = min(left.count, right.count)
                var index = 0
                while index < common, left[index] == right[index] { index += 1 }
                if index == common { return left.count < right.count }
                let (l, r) = (left[index], right[index])
                return l < 0xEE && r < 0xEE ? l < r : nil
            } ?? nil
        }
        return (answer ?? nil) ?? NameOrder.precedes(lhs, rhs)
    }
}
