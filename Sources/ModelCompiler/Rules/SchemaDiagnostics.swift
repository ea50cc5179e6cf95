import ModelSchema

/// The diagnostics of the schema rules (`S1xx`).
extension Diagnostic {
    static func unknownDestination(_ relationship: String, _ destination: String, at location: SourceLocation) -> Self {
        .error("S101", "relationship '\(relationship)' has unknown destination entity '\(destination)'", at: location)
    }

    static func unknownParent(_ entity: String, _ parent: String, at location: SourceLocation) -> Self {
        .error("S102", "entity '\(entity)' has unknown parent entity '\(parent)'", at: location)
    }

    static func inheritanceCycle(_ cycle: [String], at location: SourceLocation) -> Self {
        .error("S103", "inheritance cycle: \(cycle.map { "'\($0)'" }.joined(separator: " -> "))", at: location)
    }

    static func duplicateEntity(_ name: String, at location: SourceLocation) -> Self {
        .error("S104", "duplicate entity name '\(name)'", at: location)
    }

    static func duplicateProperty(_ name: String, _ entity: String, at location: SourceLocation) -> Self {
        .error("S105", "duplicate property name '\(name)' in entity '\(entity)'", at: location)
    }

    static func inheritedClash(_ name: String, _ entity: String, _ ancestor: String, at location: SourceLocation) -> Self {
        .error("S106", "property '\(name)' of '\(entity)' clashes with the property inherited from '\(ancestor)'", at: location)
    }

    static func missingInverse(_ relationship: String, _ entity: String, at location: SourceLocation) -> Self {
        .warning("S107", "relationship '\(relationship)' of '\(entity)' has no inverse", at: location)
    }

    static func inverseNotFound(_ relationship: String, _ inverse: String, _ destination: String, at location: SourceLocation) -> Self {
        .error("S108", "inverse '\(inverse)' of relationship '\(relationship)' is not a relationship of '\(destination)'", at: location)
    }

    static func inverseNotMutual(_ relationship: String, _ inverse: String, _ other: String, at location: SourceLocation) -> Self {
        .error("S109", "relationship '\(relationship)' names '\(inverse)' as inverse, but '\(inverse)' names \(other)", at: location)
    }

    static func inverseNamesThirdRelationship(_ relationship: String, _ inverse: String, _ other: String, at location: SourceLocation) -> Self {
        .warning(
            "S128",
            "relationship '\(relationship)' names '\(inverse)' as inverse, but '\(inverse)' names \(other); Core Data keeps each side's inverse as written",
            at: location)
    }

    static func transientInverseMismatch(_ relationship: String, _ inverse: String, at location: SourceLocation) -> Self {
        .error("S110", "relationship '\(relationship)' and its inverse '\(inverse)' must both be transient or both persistent", at: location)
    }

    static func countsOutOfOrder(_ relationship: String, min: Int, max: Int, at location: SourceLocation) -> Self {
        .error("S111", "relationship '\(relationship)' has minimum count \(min) above maximum count \(max)", at: location)
    }

    static func unknownConstraintProperty(_ property: String, _ entity: String, at location: SourceLocation) -> Self {
        .error("S112", "uniqueness constraint of '\(entity)' names unknown property '\(property)'", at: location)
    }

    static func toManyConstraintProperty(_ property: String, _ entity: String, at location: SourceLocation) -> Self {
        .error("S113", "uniqueness constraint of '\(entity)' names to-many relationship '\(property)'", at: location)
    }

    static func unknownIndexProperty(_ property: String, _ index: String, at location: SourceLocation) -> Self {
        .error("S114", "index '\(index)' names unknown property '\(property)'", at: location)
    }

    static func toManyIndexProperty(_ property: String, _ index: String, at location: SourceLocation) -> Self {
        .warning("S115", "index '\(index)' names to-many relationship '\(property)', which has no column; Core Data leaves it out of the index", at: location)
    }

    static func invalidDefault(_ value: String, _ attribute: String, _ type: String, at location: SourceLocation) -> Self {
        .error("S116", "default value '\(value)' of attribute '\(attribute)' is not a valid \(type)", at: location)
    }

    static func lenientDefault(_ value: String, _ attribute: String, _ type: String, _ read: String, at location: SourceLocation) -> Self {
        .warning("S117", "default value '\(value)' of \(type) attribute '\(attribute)' is read as \(read)", at: location)
    }

    static func boundsOutOfOrder(_ attribute: String, min: String, max: String, at location: SourceLocation) -> Self {
        .error("S118", "attribute '\(attribute)' has minimum '\(min)' above maximum '\(max)'", at: location)
    }

    static func invalidBound(_ which: String, _ value: String, _ attribute: String, at location: SourceLocation) -> Self {
        .error("S119", "\(which) value '\(value)' of attribute '\(attribute)' is not a number", at: location)
    }

    static func reservedName(_ name: String, _ kind: String, at location: SourceLocation) -> Self {
        .error("S120", "\(kind) name '\(name)' is reserved by NSManagedObject", at: location)
    }

    static func invalidIdentifier(_ name: String, _ kind: String, at location: SourceLocation) -> Self {
        .error("S121", "\(kind) name '\(name)' cannot be used as an SQL identifier: use letters, digits and '_', starting with a letter", at: location)
    }

    static func tooManyProperties(_ entity: String, _ count: Int, at location: SourceLocation) -> Self {
        .warning("S122", "entity '\(entity)' has \(count) properties, more than 100", at: location)
    }

    static func noActionDeleteRule(_ relationship: String, at location: SourceLocation) -> Self {
        .warning("S123", "relationship '\(relationship)' uses the 'No Action' delete rule, which can leave dangling references", at: location)
    }

    static func unknownEntityReference(_ name: String, _ user: String, at location: SourceLocation) -> Self {
        .error("S124", "\(user) names unknown entity '\(name)'", at: location)
    }

    static func unknownComposite(_ name: String, _ attribute: String, at location: SourceLocation) -> Self {
        .error("S125", "composite attribute '\(attribute)' names unknown composite '\(name)'", at: location)
    }

    static func invalidExpression(_ text: String, _ owner: String, _ reason: String, at location: SourceLocation) -> Self {
        .error("S127", "\(owner) has a predicate or expression that does not parse: '\(text)' (\(reason))", at: location)
    }

    static func tableNameClash(_ entity: String, _ other: String, _ table: String, at location: SourceLocation) -> Self {
        .error(
            "S129",
            "entity '\(entity)' needs table '\(table)', which '\(other)' already has: Core Data upper-cases table names, so root entity names must differ in more than case",
            at: location)
    }

    static func undefinedPersistentAttribute(_ attribute: String, at location: SourceLocation) -> Self {
        .error("S126", "attribute '\(attribute)' has no type; only transient attributes may be Undefined", at: location)
    }
}

/// The catalogue of schema diagnostics, for the docs and the uniqueness test.
public enum SchemaDiagnostics {
    public static let catalog: [DiagnosticDescriptor] = [
        .init("S101", .error, "a relationship's destination entity does not exist"),
        .init("S102", .error, "an entity's parent entity does not exist"),
        .init("S103", .error, "entities inherit from each other in a cycle"),
        .init("S104", .error, "two entities have the same name"),
        .init("S105", .error, "two properties of an entity have the same name"),
        .init("S106", .error, "a property has the name of an inherited property"),
        .init("S107", .warning, "a relationship has no inverse"),
        .init("S108", .error, "a relationship's inverse is not a relationship of its destination"),
        .init("S109", .error, "a relationship's inverse has no inverse of its own"),
        .init("S110", .error, "a relationship and its inverse differ in transience"),
        .init("S111", .error, "a relationship's minimum count is above its maximum count"),
        .init("S112", .error, "a uniqueness constraint names an unknown property"),
        .init("S113", .error, "a uniqueness constraint names a to-many relationship"),
        .init("S114", .error, "a fetch or compound index names an unknown property"),
        .init("S115", .warning, "a fetch or compound index names a to-many relationship"),
        .init("S116", .error, "a default value does not parse for its attribute type"),
        .init("S117", .warning, "a default value parses only leniently (e.g. 'NO' or '0.0' for an integer)"),
        .init("S118", .error, "an attribute's minimum value is above its maximum value"),
        .init("S119", .error, "a minimum or maximum value does not parse"),
        .init("S120", .error, "a property name is reserved by NSManagedObject"),
        .init("S121", .error, "a name cannot be used as an SQL identifier"),
        .init("S122", .warning, "an entity has more than 100 properties"),
        .init("S123", .warning, "a relationship uses the No Action delete rule"),
        .init("S124", .error, "a configuration, fetch request or fetched property names an unknown entity"),
        .init("S125", .error, "a composite attribute names an unknown composite"),
        .init("S126", .error, "a persistent attribute has the Undefined type"),
        .init("S127", .error, "a predicate or expression written as text does not parse"),
        .init("S128", .warning, "a relationship's inverse names a third relationship as its inverse"),
        .init("S129", .error, "two root entities' names differ only in case, so their tables would have the same name"),
    ]
}
