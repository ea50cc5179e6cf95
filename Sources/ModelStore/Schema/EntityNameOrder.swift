import ModelSchema

/// The order of entity names in a store: case-insensitive, as Core Data numbers entities
/// (`Z_ENT`) and walks them to lay out join tables; names equal but for case fall back to
/// `NameOrder`.
enum EntityNameOrder {
    /// `names` sorted case-insensitively; each name is folded once.
    static func sorted(_ names: [String]) -> [String] {
        names.map { (folded: Array($0.lowercased().utf16), name: $0) }
            .sorted { lhs, rhs in
                lhs.folded == rhs.folded
                    ? NameOrder.precedes(lhs.name, rhs.name) : lhs.folded.lexicographicallyPrecedes(rhs.folded)
            }
            .map(\.name)
    }
}
