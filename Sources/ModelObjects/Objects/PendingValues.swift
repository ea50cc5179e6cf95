import ModelStore

/// An object's unsaved values, kept as its row is: stored attributes and to-ones by their slot in
/// the entity's row (as saved values are read, numbers as their bits), with the set of slots
/// changed, and transient properties by name. A new object's values start as its entity's
/// defaults, all changed, so the save that writes its row makes them its saved values as they are.
struct PendingValues {
    private(set) var attributes = AttributeValues(nils: 0)
    private(set) var changedAttributes = SlotSet()
    private(set) var toOnes: [ManagedObject?] = []
    private(set) var changedToOnes = SlotSet()
    /// Transient attributes' and transient to-ones' new values, by name.
    private(set) var transients: [String: Any?] = [:]

    var isEmpty: Bool { changedAttributes.isEmpty && changedToOnes.isEmpty && transients.isEmpty }

    /// The unsaved value of the attribute in `slot`, if it changed.
    func attribute(_ slot: Int) -> Any?? {
        changedAttributes.contains(slot) ? .some(attributes[slot]) : nil
    }

    /// ``attribute(_:)`` for values kept in their box: `mutating`, though it changes nothing, so
    /// that the box lends the values in place instead of copying them, their storage retained
    /// and released, for each read (a save's validation reads every attribute of a new object).
    mutating func attributeInPlace(_ slot: Int) -> Any?? {
        guard changedAttributes.contains(slot) else { return nil }
        return .some(attributes.valueInPlace(at: slot))
    }

    /// The unsaved target of the to-one in `slot`, if it changed.
    func toOne(_ slot: Int) -> ManagedObject?? {
        changedToOnes.contains(slot) ? .some(toOnes[slot]) : nil
    }

    func transient(_ name: String) -> Any?? {
        transients.isEmpty ? nil : transients[name]
    }

    mutating func setAttribute(_ value: Any?, slot: Int, of shapeCount: Int) {
        if attributes.isEmpty { attributes = AttributeValues(nils: shapeCount) }
        attributes[slot] = value
        changedAttributes.insert(slot)
    }

    /// Sets the attribute in `slot` to `value`, already of the attribute's type: a number,
    /// boolean, date or string kept as itself, without asking its type again.
    mutating func setAttribute(_ value: AccessorValue, slot: Int, of shapeCount: Int) {
        if attributes.isEmpty { attributes = AttributeValues(nils: shapeCount) }
        if let scalar = value.scalar {
            attributes.set(scalar, at: slot)
        } else if case .string(let string) = value {
            attributes.set(string, at: slot)
        } else {
            attributes[slot] = value.value
        }
        changedAttributes.insert(slot)
    }

    /// Sets the attribute in `slot` to `scalar`, a number, boolean or date of its own type.
    mutating func setAttribute(_ scalar: AttributeValues.Scalar, slot: Int, of shapeCount: Int) {
        if attributes.isEmpty { attributes = AttributeValues(nils: shapeCount) }
        attributes.set(scalar, at: slot)
        changedAttributes.insert(slot)
    }

    mutating func setToOne(_ target: ManagedObject?, slot: Int, of shapeCount: Int) {
        if toOnes.isEmpty { toOnes = Array(repeating: nil, count: shapeCount) }
        toOnes[slot] = target
        changedToOnes.insert(slot)
    }

    /// Forgets the change of the attribute in `slot` (its saved value stands).
    mutating func discardAttribute(_ slot: Int) {
        changedAttributes.remove(slot)
    }

    mutating func discardToOne(_ slot: Int) {
        changedToOnes.remove(slot)
    }

    mutating func setTransient(_ value: Any?, name: String) {
        transients[name] = .some(value)
    }

    /// Starts a new object's values from its entity's defaults (slots already set keep theirs).
    mutating func startWith(_ defaults: AttributeValues) {
        guard !changedAttributes.isEmpty else {
            attributes = defaults
            changedAttributes = SlotSet(all: defaults.count)
            return
        }
        for slot in defaults.indices where !changedAttributes.contains(slot) { setAttribute(defaults[slot], slot: slot, of: defaults.count) }
    }

    /// The attribute values when every slot changed (a new object's), to become its saved values as they are.
    var allAttributes: AttributeValues? {
        changedAttributes == SlotSet(all: attributes.count) ? attributes : nil
    }
}

/// An object's unsaved values in a box of their own (``ManagedObject/pending``).
final class PendingChanges {
    /// Unchecked for exclusivity: the values are changed only through their own methods, which
    /// call nothing that could reach the object again, so no two accesses overlap, and the
    /// runtime's checks on them were a sixth of a typed setter's time.
    @exclusivity(unchecked) var values: PendingValues

    init(_ values: consuming PendingValues) {
        self.values = values
    }
}
