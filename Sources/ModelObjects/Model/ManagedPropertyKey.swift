import Synchronization

/// A property's name as generated accessors and `@Managed` properties hold it: it remembers
/// where the property is in the entity it was last used with, so that an access finds the
/// property by number instead of comparing names, as `@NSManaged` accessors do not look a
/// property up by name either. One key serves any entity that has the property (a subentity's
/// objects, another model's entity of the same name): a different entity looks it up once more.
public final class ManagedPropertyKey: Sendable {
    /// The property's name in the model.
    public let name: String
    /// The serial of the entity last looked up in (``EntityDescription/serial``) in the high
    /// 40 bits, and the property's index in its table plus one in the low 24; 0 before the first.
    private let place = Atomic<UInt64>(0)
    private static let indexBits: UInt64 = 24

    /// A key for the property `name`, made once per property by the generated code and looked
    /// up on first use.
    public init(_ name: String) {
        self.name = name
    }

    /// Where the property is in `entity`'s table, nil when the entity has no such property.
    func index(in entity: EntityDescription) -> Int? {
        let known = place.load(ordering: .relaxed)
        let mask: UInt64 = 1 << Self.indexBits - 1
        if known >> Self.indexBits == entity.serial, known & mask != 0 { return Int(known & mask) - 1 }
        guard let index = entity.properties.index(of: name) else { return nil }
        if UInt64(index + 1) <= mask { place.store(entity.serial << Self.indexBits | UInt64(index + 1), ordering: .relaxed) }
        return index
    }
}
