/// The objects an object holds for its saved to-ones (``ManagedObject/heldToOnes``): none, the
/// first slot's alone, which most entities' one to-one needs without an array, or one per slot.
/// A word, as a reference is.
enum HeldToOnes {
    case none
    case first(ManagedObject)
    case all([ManagedObject?])

    var isEmpty: Bool {
        if case .none = self { return true }
        return false
    }

    /// The objects held for the slots `unchanged` accepts, the others let go.
    func keeping(_ unchanged: (Int) -> Bool) -> HeldToOnes {
        switch self {
        case .none:
            return .none
        case .first:
            return unchanged(0) ? self : .none
        case .all(let all):
            let kept = all.indices.map { all[$0] != nil && unchanged($0) ? all[$0] : nil }
            return kept.contains { $0 != nil } ? .all(kept) : .none
        }
    }
}
