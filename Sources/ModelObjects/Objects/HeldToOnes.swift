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
}
