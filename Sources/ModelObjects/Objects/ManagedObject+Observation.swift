import Observation

/// Observation of objects (Swift's `Observation`, which SwiftUI's views and
/// `withObservationTracking` use): every read of a property registers it, every change of it
/// (a setter, `setValue(_:forKey:)`, a relationship's inverse following, a refresh or a merge
/// letting its value go) announces it, so an observer learns of changes per property.
///
/// Observation tracks a property by key path. A property is one of the entity's, known by name
/// (generated classes, `value(forKey:)` only, a merge or a refresh all name it the same way), so its
/// key path is one made of its name, `\ManagedObject.[observed: name]`: equal key paths for equal
/// names, whichever way the property was read or changed. The entity makes them once
/// (``PropertyTable``). An object makes its registrar when an observer first reads it
/// (``ObservationProbe``), so that objects no observer reads carry none, and a change of an object
/// no observer read announces nothing.
extension ManagedObject: Observable {
    /// The key path Observation tracks a property by.
    typealias ObservedKeyPath = KeyPath<ManagedObject, Any?> & Sendable

    /// The value of property `name`: the subscript whose key paths name properties for Observation.
    subscript(observed name: String) -> Any? { value(forKey: name) }

    /// The key path Observation tracks property `name` by: the one way the entity's table and a
    /// generated accessor's key both make it, so that theirs are equal.
    static func observedKeyPath(of name: String) -> ObservedKeyPath { \ManagedObject.[observed: name] }

    /// Registers a read of the property of `keyPath` with the observer tracking reads, if any.
    func observeAccess(_ keyPath: ObservedKeyPath) {
        observeAccess { keyPath }
    }

    /// Registers a read of the property at `index` of the entity's table with the observer
    /// tracking reads, if any.
    func observeAccess(at index: Int) {
        observeAccess { entity.properties.keyPath(at: index) }
    }

    /// Registers a read of the property of the key path `keyPath` gives, asked for only when the
    /// read can be tracked, with the object's registrar, made for a first tracked read.
    @inline(__always)
    private func observeAccess(_ keyPath: () -> ObservedKeyPath) {
        if let observation {
            observation.access(self, keyPath())
        } else if let box = ObservationProbe.registrar(forReadOf: self) {
            observation = box
            box.access(self, keyPath())
        }
    }

    /// Announces to observers that the property of `keyPath` is about to change.
    func observeWillChange(_ keyPath: ObservedKeyPath) {
        observation?.willSet(self, keyPath)
    }

    /// Announces to observers that the property of `keyPath` changed.
    func observeDidChange(_ keyPath: ObservedKeyPath) {
        observation?.didSet(self, keyPath)
    }

    /// Runs `change` of the property `key`, announced to observers before and after; `index`, its
    /// place in the entity's table when the caller knows it, spares looking its name up, and
    /// `keyPath`, its key path when the caller holds it (a generated accessor's key), spares
    /// retaining one loaded from the table.
    func observingChange<Result>(
        of key: String, at index: Int? = nil, keyPath given: ObservedKeyPath? = nil, _ change: () -> Result
    ) -> Result {
        // The registrar's box taken once for both announcements.
        guard let box = observation,
            let keyPath = given ?? index.map(entity.properties.keyPath(at:)) ?? entity.properties.keyPath(of: key)
        else { return change() }
        box.willSet(self, keyPath)
        defer { box.didSet(self, keyPath) }
        return change()
    }

    /// Runs `change`, which lets the object's values go (a refresh, a merge, a reset) to be read
    /// again when next used, announcing a change of every property: any may now read differently.
    /// A fault without changes has no values to let go, and announces nothing.
    func observingValuesReplaced(_ change: () -> Void) {
        guard let observation, !isFault || hasChanges else { return change() }
        let keyPaths = entity.properties.allKeyPaths
        for keyPath in keyPaths { observation.willSet(self, keyPath) }
        change()
        for keyPath in keyPaths { observation.didSet(self, keyPath) }
    }

    /// Registers a read of property `key` with Observation, as Core Data's `willAccessValue(forKey:)`
    /// precedes a read: for an accessor of a subclass that reads a value of its own making.
    public func willAccessValue(forKey key: String?) {
        guard let key, let keyPath = entity.properties.keyPath(of: key) else { return }
        observeAccess(keyPath)
    }

    /// Announces that property `key` is about to change, as Core Data's `willChangeValue(forKey:)`
    /// does to key-value observers: for a subclass's accessor that changes a value of its own
    /// making (the object's setters and `setValue(_:forKey:)` announce their changes themselves).
    public func willChangeValue(forKey key: String) {
        guard let keyPath = entity.properties.keyPath(of: key) else { return }
        observeWillChange(keyPath)
    }

    /// Announces that property `key` changed, after ``willChangeValue(forKey:)``.
    public func didChangeValue(forKey key: String) {
        guard let keyPath = entity.properties.keyPath(of: key) else { return }
        observeDidChange(keyPath)
    }
}

/// An object's Observation registrar, in a box of its own (``ManagedObject/observation``). The
/// registrar's layout is private to the Observation library, so one stored in the object would be
/// copied, through its value witnesses, on every read; the box's constant is used in place from
/// the box's own methods.
final class ObservationBox: Sendable {
    private let registrar = ObservationRegistrar()

    /// Registers a read of `keyPath` of `object` with the observer tracking reads, if any.
    @inline(__always)
    func access(_ object: ManagedObject, _ keyPath: ManagedObject.ObservedKeyPath) {
        registrar.access(object, keyPath: keyPath)
    }

    /// Announces that `keyPath` of `object` is about to change.
    @inline(__always)
    func willSet(_ object: ManagedObject, _ keyPath: ManagedObject.ObservedKeyPath) {
        registrar.willSet(object, keyPath: keyPath)
    }

    /// Announces that `keyPath` of `object` changed.
    @inline(__always)
    func didSet(_ object: ManagedObject, _ keyPath: ManagedObject.ObservedKeyPath) {
        registrar.didSet(object, keyPath: keyPath)
    }
}
