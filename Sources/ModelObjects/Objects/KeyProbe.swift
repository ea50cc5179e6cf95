/// What a key path of a managed object class reads: the keys its accessors ask
/// ``ManagedObject/value(forKey:)`` for, found by reading it on a probe object of the class.
final class KeyProbe {
    var keys: [String] = []

    /// The property name `keyPath` reads, when it is one managed property of its class (every
    /// generated and `@Managed` accessor goes through `value(forKey:)`); nil for a key path of
    /// several components, or of a class whose entity no coordinator's model has.
    static func key<Root: ManagedObject, Value>(of keyPath: KeyPath<Root, Value>) -> String? {
        guard let entity = Root.registeredEntity else { return nil }
        let probe = Root(entity: entity, insertInto: nil)
        let recorder = KeyProbe()
        probe.keyProbe = recorder
        _ = probe[keyPath: keyPath]
        probe.keyProbe = nil
        // Each component of a key path through accessors prints as `<computed …>`.
        let components = String(reflecting: keyPath).components(separatedBy: "<computed ").count - 1
        guard recorder.keys.count == 1, components <= 1, let key = recorder.keys.first, entity.properties[key] != nil else { return nil }
        return key
    }
}

extension FetchSortDescriptor {
    /// A descriptor of the managed property `keyPath` names (`NSSortDescriptor(keyPath:ascending:)`),
    /// for a key path of one component (`\Item.timestamp`). A key path of several components
    /// (`\Item.author?.name`) is not supported: it gives a key no entity has, so the fetch
    /// using it fails (134060) with the key path in its message; use `init(key:ascending:)`.
    public init<Root: ManagedObject, Value>(keyPath: KeyPath<Root, Value>, ascending: Bool) {
        let key = KeyProbe.key(of: keyPath) ?? "<key path \(String(reflecting: keyPath)) is not one managed property: use NSSortDescriptor(key:ascending:)>"
        self.init(key: key, ascending: ascending)
    }
}
