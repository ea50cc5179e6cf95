import ModelExpression

/// One instance of the source or the destination store, as a policy sees it (`NSManagedObject`
/// during a migration): its entity, and its values and relationships by key. Source instances
/// are read-only.
public struct MigrationObject: Hashable, CustomStringConvertible {
    public let reference: ObjectReference
    let context: MigrationContext

    init(_ reference: ObjectReference, context: MigrationContext) {
        self.reference = reference
        self.context = context
    }

    /// The instance's own entity.
    public var entityName: String { reference.entity }

    /// The value of an attribute, the object of a to-one (`.null` when none), the objects of a
    /// to-many (`.collection`).
    public func value(forKey key: String) throws -> EvaluatedValue {
        try context.rows(reference.side).value(forKey: key, of: reference)
    }

    /// The instances a relationship links this one to.
    public func objects(forKey key: String) throws -> [MigrationObject] {
        try value(forKey: key).elements.compactMap { element in
            if case .object(let reference) = element { return MigrationObject(reference, context: context) }
            return nil
        }
    }

    /// Sets an attribute's value, or links a relationship to `.object`/`.collection` values
    /// (setting the inverse too); only destination instances can be changed.
    public func setValue(_ value: EvaluatedValue, forKey key: String) throws {
        guard reference.side == .destination else {
            throw MigrationError(.policyFailed, path: context.path, message: "source instances are read-only (setting '\(key)' of \(reference))")
        }
        try context.destination.setValue(value, forKey: key, of: reference)
    }

    /// Links a relationship to `objects` (for a to-one, the first or none).
    public func setObjects(_ objects: [MigrationObject], forKey key: String) throws {
        try setValue(.collection(objects.map { .object($0.reference) }), forKey: key)
    }

    public var description: String { reference.description }

    public static func == (lhs: MigrationObject, rhs: MigrationObject) -> Bool { lhs.reference == rhs.reference }
    public func hash(into hasher: inout Hasher) { hasher.combine(reference) }
}
