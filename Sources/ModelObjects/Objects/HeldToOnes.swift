import ModelStore

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

    /// The objects held for the to-ones whose target is the same in `old` and `new` (the keys of
    /// the saved to-ones before and after a change of the saved values), the others let go.
    func keeping(from old: [ObjectKey?], to new: [ObjectKey?]) -> HeldToOnes {
        func unchanged(_ slot: Int) -> Bool {
            slot < old.count && slot < new.count && old[slot] != nil && old[slot] == new[slot]
        }
        switch self {
        case .none:
            return .none
        case .first:
            return unchanged(0) ? self : .none
        case .all(let all):
            let kept = all.indices.map { unchanged($0) ? all[$0] : nil }
            return kept.contains { $0 != nil } ? .all(kept) : .none
        }
    }
}
