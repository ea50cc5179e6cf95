import ModelSchema

/// The mapping Core Data's inference would produce between two versions of a model: one entity mapping per destination entity and per removed source entity,
/// each with its property mappings, plus every reason the inference is impossible.
public struct InferredMapping: Sendable {
    public var sourceVersion: String
    public var destinationVersion: String
    public var entities: [InferredEntityMapping]
    /// Errors make the migration impossible; warnings (`M210`) suggest renaming identifiers.
    public var diagnostics: [Diagnostic]
    /// Errors that hold only when the store has rows of a kind (``RowCondition``); without a
    /// store they stand, as what the change does if such rows exist.
    public var conditions: [RowCondition] = []

    /// Whether Core Data could infer this mapping: no error among the diagnostics.
    public var isPossible: Bool { !diagnostics.contains { $0.severity == .error } }

    /// Whether some store's rows could make the mapping possible: every error it has is one
    /// that only rows decide (a store with no such rows migrates).
    public var couldBePossible: Bool {
        let conditional = Set(conditions.map(\.diagnostic))
        return diagnostics.allSatisfy { $0.severity != .error || conditional.contains($0) }
    }

    /// Whether applying the mapping drops stored values.
    public var dropsData: Bool { entities.contains { $0.kind == .remove || $0.properties.contains(where: \.dropsData) } }

    /// The mapping with the errors the store's rows disprove turned into notes: `holds` says,
    /// for each condition, whether the store has rows it applies to.
    public func resolved(by holds: (RowCondition) throws -> Bool) rethrows -> InferredMapping {
        var result = self
        for condition in conditions where try !holds(condition) {
            guard let index = result.diagnostics.firstIndex(of: condition.diagnostic) else { continue }
            var relaxed = condition.diagnostic
            relaxed.severity = .note
            relaxed.message += " (the store has no such rows, so this is safe here)"
            result.diagnostics[index] = relaxed
        }
        result.conditions = []
        return result
    }

    /// The mapping of the destination entity with this name.
    public func mapping(forDestination name: String) -> InferredEntityMapping? {
        entities.first { $0.destination == name }
    }
}

/// How one entity's instances move from the source version to the destination version.
public struct InferredEntityMapping: Sendable, Hashable {
    /// NSEntityMappingType's inferred kinds: copy (same hash), transform, add, remove.
    public enum Kind: String, Sendable, Codable {
        case copy, transform, add, remove
    }

    public var kind: Kind
    public var source: String?
    public var destination: String?
    /// Every stored property of the destination entity (inherited ones included) and every
    /// source property that has no destination.
    public var properties: [InferredPropertyMapping]
}

/// How one stored property's values move.
public struct InferredPropertyMapping: Sendable, Hashable {
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

/// A reason a mapping is impossible that the store's data decides: it holds when the source
/// entity (subentities included) has rows, or, with `emptyProperty`, rows where that source
/// property has no value.
public struct RowCondition: Sendable, Hashable {
    public var sourceEntity: String
    public var emptyProperty: String?
    /// The error that holds when the condition does.
    public var diagnostic = Diagnostic.error("", "")
}
