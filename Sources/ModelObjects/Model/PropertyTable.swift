/// An entity's properties by name, looked up on every `value(forKey:)` and `setValue(_:forKey:)`:
/// an entity of a few properties is searched in order, which costs less than hashing the key
/// (names that short are compared as two machine words); a larger one through a dictionary.
/// Each property comes with the key path Observation tracks it by (``ManagedObject/observed(_:)``),
/// made once here so that a read does not make one. A class, so that code holding the table
/// (a save's validation, once per property of every object) retains one reference, not its arrays.
final class PropertyTable: Sendable {
    private let names: [String]
    private let properties: [EntityDescription.Property]
    private let keyPaths: [ManagedObject.ObservedKeyPath]
    /// Each stored attribute's slot in the row, -1 for the other properties: a read of an
    /// attribute finds its slot here without opening the property's description.
    private let attributeSlots: [Int]
    /// Each stored to-one's slot in the row's to-ones, -1 for the other properties, for the
    /// same reason.
    private let toOneSlots: [Int]
    /// Whether a value of the property can break a rule of the model: false for an attribute that
    /// is derived, or optional (or transient) with no bounds, lengths or pattern, which any value
    /// passes, so that a save's validation asks nothing more of it.
    private let ruled: [Bool]
    /// Whether any property's value can break a rule: an entity whose properties are all
    /// optional and unbounded has none, and its save's validation looks none up.
    let hasRules: Bool
    private let byName: [String: Int]?
    /// Up to this many properties are searched in order.
    private static let scanned = 16

    init(_ properties: [String: EntityDescription.Property]) {
        let pairs = Array(properties)
        names = pairs.map(\.key)
        self.properties = pairs.map(\.value)
        keyPaths = names.map(ManagedObject.observedKeyPath(of:))
        attributeSlots = pairs.map { pair in
            if case .attribute(_, let slot) = pair.value { return slot }
            return -1
        }
        toOneSlots = pairs.map { pair in
            if case .toOne(_, let slot?) = pair.value { return slot }
            return -1
        }
        ruled = pairs.map { ObjectValidator.canBreakRule($0.value) }
        hasRules = ruled.contains(true)
        byName = properties.count > Self.scanned ? Dictionary(uniqueKeysWithValues: names.enumerated().map { ($1, $0) }) : nil
    }

    /// Where the property `name` is in the table, nil for an unknown name.
    func index(of name: String) -> Int? {
        if let byName { return byName[name] }
        for index in names.indices where names[index] == name { return index }
        return nil
    }

    subscript(name: String) -> EntityDescription.Property? {
        index(of: name).map { properties[$0] }
    }

    /// The property at `index` (of ``index(of:)``).
    func property(at index: Int) -> EntityDescription.Property { properties[index] }

    /// Whether a value of the property at `index` can break a rule of the model.
    func isRuled(at index: Int) -> Bool { ruled[index] }

    /// The row slot of the property at `index` when it is a stored attribute, -1 otherwise.
    func attributeSlot(at index: Int) -> Int { attributeSlots[index] }

    /// The slot among the row's to-ones of the property at `index` when it is a stored to-one, -1 otherwise.
    func toOneSlot(at index: Int) -> Int { toOneSlots[index] }

    /// The key path Observation tracks the property at `index` by.
    func keyPath(at index: Int) -> ManagedObject.ObservedKeyPath { keyPaths[index] }

    /// The key path Observation tracks the property `name` by, nil for an unknown name.
    func keyPath(of name: String) -> ManagedObject.ObservedKeyPath? { index(of: name).map { keyPaths[$0] } }

    var keys: [String] { names }
    /// Every property's key path, for a change that may touch them all (a refresh).
    var allKeyPaths: [ManagedObject.ObservedKeyPath] { keyPaths }
}
