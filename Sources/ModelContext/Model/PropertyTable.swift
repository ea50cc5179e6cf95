/// An entity's properties by name, looked up on every `value(forKey:)` and `setValue(_:forKey:)`:
/// an entity of a few properties is searched in order, which costs less than hashing the key
/// (names that short are compared as two machine words); a larger one through a dictionary.
struct PropertyTable: Sendable {
    private let names: [String]
    private let properties: [EntityDescription.Property]
    private let byName: [String: EntityDescription.Property]?
    /// Up to this many properties are searched in order.
    private static let scanned = 16

    init(_ properties: [String: EntityDescription.Property]) {
        let pairs = Array(properties)
        names = pairs.map(\.key)
        self.properties = pairs.map(\.value)
        byName = properties.count > Self.scanned ? properties : nil
    }

    subscript(name: String) -> EntityDescription.Property? {
        if let byName { return byName[name] }
        for index in names.indices where names[index] == name { return properties[index] }
        return nil
    }

    var keys: [String] { names }
}
