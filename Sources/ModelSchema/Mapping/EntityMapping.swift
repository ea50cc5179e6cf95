/// One `NSEntityMapping`: how the instances of one source entity become instances of one
/// destination entity.
public struct EntityMapping: Sendable, Hashable {
    /// The mapping's name, which `destinationInstancesForEntityMappingNamed:` refers to.
    public var name: String
    public var type: EntityMappingType
    /// Nil for an add mapping.
    public var sourceEntityName: String?
    /// Nil for a remove mapping.
    public var destinationEntityName: String?
    /// The 32-byte hashes Core Data matches against the models' entities to pick this mapping model.
    public var sourceEntityVersionHash: VersionHash?
    public var destinationEntityVersionHash: VersionHash?
    /// The source instances to migrate: `FETCH` of the source entity filtered by this predicate
    /// (`TRUEPREDICATE` when the editor has no filter); nil for an add mapping.
    public var sourceExpression: SourceExpression?
    /// The `NSEntityMigrationPolicy` subclass, possibly module-qualified (`App.MyPolicy`).
    public var policyClassName: String?
    public var userInfo: UserInfo
    /// Attribute mappings, sorted by name as Xcode compiles them.
    public var attributeMappings: [PropertyMapping]
    /// Relationship mappings, sorted by name as Xcode compiles them.
    public var relationshipMappings: [PropertyMapping]
    /// Where the mapping is declared (a `.xcmappingmodel`'s object), for diagnostics.
    public var location: SourceLocation

    public init(
        name: String, type: EntityMappingType, sourceEntityName: String? = nil,
        destinationEntityName: String? = nil, sourceEntityVersionHash: VersionHash? = nil,
        destinationEntityVersionHash: VersionHash? = nil, sourceExpression: SourceExpression? = nil,
        policyClassName: String? = nil, userInfo: UserInfo = nil, attributeMappings: [PropertyMapping] = [],
        relationshipMappings: [PropertyMapping] = [], location: SourceLocation = .unknown
    ) {
        self.name = name
        self.type = type
        self.sourceEntityName = sourceEntityName
        self.destinationEntityName = destinationEntityName
        self.sourceEntityVersionHash = sourceEntityVersionHash
        self.destinationEntityVersionHash = destinationEntityVersionHash
        self.sourceExpression = sourceExpression
        self.policyClassName = policyClassName
        self.userInfo = userInfo
        self.attributeMappings = attributeMappings
        self.relationshipMappings = relationshipMappings
        self.location = location
    }
}

/// An entity mapping's source expression, in the one form Xcode writes:
/// `FETCH(FUNCTION($manager, "fetchRequestForSourceEntityNamed:predicateString:", entity, predicate), $manager.sourceContext, NO)`.
public struct SourceExpression: Sendable, Hashable {
    public var entityName: String
    /// The filter as predicate format text (`TRUEPREDICATE`, `image != nil`).
    public var predicate: String

    public init(entityName: String, predicate: String = SourceExpression.noFilter) {
        self.entityName = entityName
        self.predicate = predicate
    }

    /// The predicate Xcode writes when the mapping has no filter.
    public static let noFilter = "TRUEPREDICATE"

    /// The whole expression as `predicateFormat` prints it.
    public var format: String {
        "FETCH(FUNCTION($manager, \"fetchRequestForSourceEntityNamed:predicateString:\", \(Self.quoted(entityName)), \(Self.quoted(predicate))), $manager.sourceContext, NO)"
    }

    /// A string constant in double quotes, with `\\` and `"` escaped.
    private static func quoted(_ text: String) -> String {
        var quoted = "\""
        for character in text {
            if character == "\\" || character == "\"" { quoted.append("\\") }
            quoted.append(character)
        }
        return quoted + "\""
    }
}

/// One `NSPropertyMapping`: the destination property and the expression that gives its value.
public struct PropertyMapping: Sendable, Hashable {
    /// The destination property's name.
    public var name: String
    /// The value expression as predicate format text; nil leaves the destination's default.
    public var valueExpression: String?
    public var userInfo: UserInfo
    public var location: SourceLocation

    public init(name: String, valueExpression: String? = nil, userInfo: UserInfo = nil, location: SourceLocation = .unknown) {
        self.name = name
        self.valueExpression = valueExpression
        self.userInfo = userInfo
        self.location = location
    }
}
