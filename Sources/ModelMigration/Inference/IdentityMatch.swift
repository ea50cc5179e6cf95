/// Pairs destination elements with source elements as Core Data's inference does: an element's
/// identity is its renaming identifier, or its name when it has none, on BOTH sides, so a source
/// element that carries its own renaming identifier is found as well as one a destination
/// identifier names; names match when identities do not.
struct IdentityMatch {
    /// One element to pair: its name and its renaming identifier.
    struct Element {
        var name: String
        var renamingIdentifier: String?

        var identity: String { renamingIdentifier ?? name }
    }

    /// Destination index → source index, each source used at most once. Tried in this order:
    /// identity = identity, destination identifier = source name, name = name, destination
    /// name = source identifier. Linear in the number of elements.
    static func pairs(destinations: [Element], sources: [Element]) -> [Int: Int] {
        var result = [Int: Int]()
        var used = Set<Int>()
        let keys: [((Element) -> String?, (Element) -> String?)] = [
            ({ $0.identity }, { $0.identity }),
            ({ $0.renamingIdentifier }, { $0.name }),
            ({ $0.name }, { $0.name }),
            ({ $0.name }, { $0.renamingIdentifier }),
        ]
        for (destinationKey, sourceKey) in keys {
            var index = [String: Int]()
            for (position, source) in sources.enumerated() where !used.contains(position) {
                if let key = sourceKey(source), index[key] == nil { index[key] = position }
            }
            for (position, destination) in destinations.enumerated() where result[position] == nil {
                guard let key = destinationKey(destination), let source = index[key], !used.contains(source) else { continue }
                result[position] = source
                used.insert(source)
            }
        }
        return result
    }
}
