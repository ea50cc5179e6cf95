/// An entity: Core Data's `NSEntityDescription` as Xcode writes it in `<entity>`.
///
/// Only the entity's own properties are listed; inherited ones come from ``parentEntityName``.
public struct Entity: Sendable, Hashable {
    public var name: String
    /// `representedClassName`; absent means `NSManagedObject`.
    public var representedClassName: String?
    /// The superentity's name (`parentEntity`).
    public var parentEntityName: String?
    public var isAbstract: Bool
    /// The legacy `syncable="YES"` flag, kept for round trips.
    public var isSyncable: Bool
    /// `codeGenerationType` (`class`, `category`), codegen only.
    public var codeGenerationType: String?
    /// The renaming identifier, stored in XML as `elementID`.
    public var renamingIdentifier: String?
    public var versionHashModifier: String?
    public var attributes: [Attribute]
    public var relationships: [Relationship]
    public var fetchedProperties: [FetchedProperty]
    public var fetchIndexes: [FetchIndex]
    /// Legacy `<compoundIndexes>`: each an ordered list of property names.
    public var compoundIndexes: [[String]]
    /// `<uniquenessConstraints>`: each an ordered list of property names.
    public var uniquenessConstraints: [[String]]
    /// Where each uniqueness constraint is declared, parallel to ``uniquenessConstraints``.
    public var uniquenessConstraintLocations: [SourceLocation]
    public var userInfo: UserInfo
    public var location: SourceLocation

    public init(
        name: String, representedClassName: String? = nil, parentEntityName: String? = nil,
        isAbstract: Bool = false, isSyncable: Bool = false, codeGenerationType: String? = nil,
        renamingIdentifier: String? = nil, versionHashModifier: String? = nil,
        attributes: [Attribute] = [], relationships: [Relationship] = [],
        fetchedProperties: [FetchedProperty] = [], fetchIndexes: [FetchIndex] = [],
        compoundIndexes: [[String]] = [], uniquenessConstraints: [[String]] = [],
        uniquenessConstraintLocations: [SourceLocation] = [], userInfo: UserInfo = nil,
        location: SourceLocation = .unknown
    ) {
        self.name = name
        self.representedClassName = representedClassName
        self.parentEntityName = parentEntityName
        self.isAbstract = isAbstract
        self.isSyncable = isSyncable
        self.codeGenerationType = codeGenerationType
        self.renamingIdentifier = renamingIdentifier
        self.versionHashModifier = versionHashModifier
        self.attributes = attributes
        self.relationships = relationships
        self.fetchedProperties = fetchedProperties
        self.fetchIndexes = fetchIndexes
        self.compoundIndexes = compoundIndexes
        self.uniquenessConstraints = uniquenessConstraints
        self.uniquenessConstraintLocations = uniquenessConstraintLocations
        self.userInfo = userInfo
        self.location = location
    }

    /// The names of the entity's own attributes, relationships and fetched properties.
    public var ownPropertyNames: [String] {
        attributes.map(\.name) + relationships.map(\.name) + fetchedProperties.map(\.name)
    }

    /// The own property with this name, of any kind.
    public func property(named name: String) -> Property? {
        if let attribute = attributes.first(where: { $0.name == name }) { return .attribute(attribute) }
        if let relationship = relationships.first(where: { $0.name == name }) {
            return .relationship(relationship)
        }
        if let fetched = fetchedProperties.first(where: { $0.name == name }) { return .fetched(fetched) }
        return nil
    }
}

/// Any property of an entity.
public enum Property: Sendable, Hashable {
    case attribute(Attribute)
    case relationship(Relationship)
    case fetched(FetchedProperty)

    public var name: String {
        switch self {
        case .attribute(let a): a.name
        case .relationship(let r): r.name
        case .fetched(let f): f.name
        }
    }

    public var location: SourceLocation {
        switch self {
        case .attribute(let a): a.location
        case .relationship(let r): r.location
        case .fetched(let f): f.location
        }
    }

    public var isTransient: Bool {
        switch self {
        case .attribute(let a): a.isTransient
        case .relationship(let r): r.isTransient
        case .fetched: true
        }
    }
}
