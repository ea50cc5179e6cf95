/// An object's unsaved values, kept as its row is: stored attributes and to-ones by their slot in
/// the entity's row (as saved values are read), transient properties by name. A slot that holds
/// nil is unchanged; one that holds `.some(nil)` was set to nil. A slot array is made on the first
/// change it records, so an object without changes costs nothing and `isEmpty` is exact.
struct PendingValues {
    private(set) var attributes: [Any??] = []
    private(set) var toOnes: [ManagedObject??] = []
    /// Transient attributes' and transient to-ones' new values, by name.
    private(set) var transients: [String: Any?] = [:]

    var isEmpty: Bool { attributes.isEmpty && toOnes.isEmpty && transients.isEmpty }

    /// The unsaved value of the attribute in `slot`, if it changed.
    func attribute(_ slot: Int) -> Any?? {
        slot < attributes.count ? attributes[slot] : nil
    }

    /// The unsaved target of the to-one in `slot`, if it changed.
    func toOne(_ slot: Int) -> ManagedObject?? {
        slot < toOnes.count ? toOnes[slot] : nil
    }

    func transient(_ name: String) -> Any?? {
        transients.isEmpty ? nil : transients[name]
    }

    mutating func setAttribute(_ value: Any?, slot: Int, of shapeCount: Int) {
        if attributes.isEmpty { attributes = Array(repeating: nil, count: shapeCount) }
        attributes[slot] = .some(value)
    }

    mutating func setToOne(_ target: ManagedObject?, slot: Int, of shapeCount: Int) {
        if toOnes.isEmpty { toOnes = Array(repeating: nil, count: shapeCount) }
        toOnes[slot] = .some(target)
    }

    mutating func setTransient(_ value: Any?, name: String) {
        transients[name] = .some(value)
    }

    /// Starts a new object's values from its entity's defaults (slots already set keep theirs).
    mutating func startWith(_ defaults: [Any??]) {
        guard !attributes.isEmpty else {
            attributes = defaults
            return
        }
        for (slot, value) in defaults.enumerated() where attributes[slot] == nil { attributes[slot] = value }
    }
}
