/// What an object holds besides its saved values, in one word: the objects read for its saved
/// to-ones, its unsaved changes, or its extras, which keep the other two once an object needs
/// more than one of the three. Most objects of a fetch hold none of them, one read with its
/// to-one holds that object, and one changed holds its changes' box: each pays one word, where
/// three references cost every object three.
enum ObjectSideState {
    case none
    /// Held to-ones, never ``HeldToOnes/none``.
    case held(HeldToOnes)
    case pending(PendingChanges)
    case extras(ObjectExtras)
}

/// The three kinds of state read as if each were stored in the object: storing one where another
/// is held moves both into the extras, made then.
extension ManagedObject {
    /// The objects the saved to-ones were read as: an object holds its related objects, as Core
    /// Data's do, so that reading a to-one again finds the same object instead of a new fault
    /// each time, until the object is refreshed or its context goes.
    var heldToOnes: HeldToOnes {
        get {
            switch side {
            case .held(let held): held
            case .extras(let extras): extras.heldToOnes
            case .none, .pending: .none
            }
        }
        set {
            switch side {
            case .extras(let extras):
                extras.heldToOnes = newValue
            case .none, .held:
                side = newValue.isEmpty ? .none : .held(newValue)
            case .pending(let changes):
                guard !newValue.isEmpty else { return }
                side = .extras(ObjectExtras(heldToOnes: newValue, pendingChanges: changes))
            }
        }
    }

    /// The unsaved changes' box, there exactly while ``pending`` is not empty.
    var pendingChanges: PendingChanges? {
        @inline(__always) get {
            switch side {
            case .pending(let changes): changes
            case .extras(let extras): extras.pendingChanges
            case .none, .held: nil
            }
        }
        set {
            switch side {
            case .extras(let extras):
                extras.pendingChanges = newValue
            case .none, .pending:
                side = newValue.map { .pending($0) } ?? .none
            case .held(let held):
                guard let newValue else { return }
                side = .extras(ObjectExtras(heldToOnes: held, pendingChanges: newValue))
            }
        }
    }

    /// The object's extras; nil until one of their values is first stored (ObjectExtras.swift).
    var extras: ObjectExtras? {
        @inline(__always) get {
            if case .extras(let extras) = side { return extras }
            return nil
        }
    }

    /// The object's extras, made now if it has none, keeping what the object held.
    func madeExtras() -> ObjectExtras {
        let made: ObjectExtras
        switch side {
        case .extras(let extras): return extras
        case .none: made = ObjectExtras()
        case .held(let held): made = ObjectExtras(heldToOnes: held)
        case .pending(let changes): made = ObjectExtras(pendingChanges: changes)
        }
        side = .extras(made)
        return made
    }
}
