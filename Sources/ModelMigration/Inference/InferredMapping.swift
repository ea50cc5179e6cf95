import ModelSchema

/// The mapping Core Data's inference would produce between two versions of a model
/// (FORMATS §8.4): one entity mapping per destination entity and per removed source entity,
/// each with its property mappings, plus every reason the inference is impossible.
public struct InferredMapping: Sendable {
    public var sourceVersion: String
    public var destinationVersion: String
    public var entities: [EntityMapping]
    /// Errors make the migration impossible; warnings (`M210`) suggest renaming identifiers.
    public var diagnostics: [Diagnostic]

    /// Whether Core Data could infer this mapping: no error among the diagnostics.
    public var isPossible: Bool { !diagnostics.contains { $0.severity == .error } }

    /// Whether applying the mapping drops stored values.
    public var dropsData: Bool { entities.contains { $0.kind == .remove || $0.properties.contains(where: \.dropsData) } }

    /// The mapping of the destination entity with this name.
    public func mapping(forDestination name: String) -> EntityMapping? {
        entities.first { $0.destination == name }
    }
}

/// How one entity's instances move from the source version to the destination version.
public struct EntityMapping: Sendable, Hashable {
    /// NSEntityMappingType's inferred kinds: copy (same hash), transform, add, remove.
    public enum Kind: String, Sendable, Codable {
        case copy, transform, add, remove
    }

    public var kind: Kind
    public var source: String?
    public var destination: String?
    /// Every stored property of the destination entity (inherited ones included) and every
    /// source property that has no destination.
    public var properties: [PropertyMapping]
}

/// How one stored property's values move.
public struct PropertyMapping: Sendable, Hashable {
    public enum Kind: String, Sendable, Codable {
        /// Same name, same storage: `$source.name`.
        case copy
        /// Renamed with a renaming identifier: `$source.oldName`.
        case rename
        /// The value changes form: optional to required with its default, integer widening,
        /// Float to Double, to-one to to-many, ordering added or removed.
        case transform
        /// New in the destination: its default value, or nothing.
        case add
        /// Gone from the destination: its values are dropped.
        case remove
    }

    public var kind: Kind
    public var source: String?
    public var destination: String?
    public var isRelationship: Bool
    /// What changes, for people ("Integer 16 → Integer 32", "optional → required, default 0").
    public var change: String?
    /// Whether stored values are lost (a removed property, to-many to to-one).
    public var dropsData: Bool
}
