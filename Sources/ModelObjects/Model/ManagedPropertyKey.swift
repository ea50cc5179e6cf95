import Synchronization

/// A property's name as generated accessors and `@Managed` properties hold it: it remembers
/// where the property is in the entity it was last used with, so that an access finds the
/// property by number instead of comparing names, as `@NSManaged` accessors do not look a
/// property up by name either. One key serves any entity that has the property (a subentity's
/// objects, another model's entity of the same name): a different entity looks it up once more.
public final class ManagedPropertyKey: Sendable {
    /// The property's name in the model.
    public let name: String
    /// The key path Observation tracks the property by, made as its entity's table makes it
    /// (`ManagedObject.observedKeyPath(of:)`): held here, a read passes it without retaining it.
    let keyPath: ManagedObject.ObservedKeyPath
    /// The serial of the entity last looked up in (``EntityDescription/serial``) in the high
    /// 40 bits, and the property's index in its table plus one in the low 24; 0 before the first.
    private let place = Atomic<UInt64>(0)
    private static let indexBits: UInt64 = 24
    /// The low bits, which hold the index plus one.
    private static let indexMask: UInt64 = 1 << indexBits - 1

    /// A key for the property `name`, made once per property by the generated code and looked
    /// up on first use.
    public init(_ name: String) {
        self.name = name
        keyPath = ManagedObject.observedKeyPath(of: name)
    }

    /// Where the property is in `entity`'s table, nil when the entity has no such property.
    func index(in entity: EntityDescription) -> Int? {
        knownIndex(inEntityWithSerial: entity.serial) ?? lookUp(in: entity)
    }

    /// Where the property is in the table of the entity whose ``EntityDescription/serial`` is
    /// `serial`, if the last lookup was in that entity: the usual case, which a read asks by the
    /// serial alone so as not to retain the entity for a call.
    @inline(__always)
    func knownIndex(inEntityWithSerial serial: UInt64) -> Int? {
        let known = place.load(ordering: .relaxed)
        guard known >> Self.indexBits == serial, known & Self.indexMask != 0 else { return nil }
        return Int(known & Self.indexMask) - 1
    }

    /// Finds the property in `entity`'s table by name, and keeps where it is for the next lookup.
    private func lookUp(in entity: EntityDescription) -> Int? {
        guard let index = entity.properties.index(of: name) else { return nil }
        if UInt64(index + 1) <= Self.indexMask { place.store(entity.serial << Self.indexBits | UInt64(index + 1), ordering: .relaxed) }
        return index
    }
}
