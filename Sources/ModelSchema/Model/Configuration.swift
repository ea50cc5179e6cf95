/// A named configuration: a subset of the model's entities (the default one is implicit).
public struct Configuration: Sendable, Hashable {
    public var name: String
    public var usedWithCloudKit: Bool
    public var memberEntityNames: [String]
    public var location: SourceLocation

    public init(
        name: String, usedWithCloudKit: Bool = false, memberEntityNames: [String] = [],
        location: SourceLocation = .unknown
    ) {
        self.name = name
        self.usedWithCloudKit = usedWithCloudKit
        self.memberEntityNames = memberEntityNames
        self.location = location
    }
}

/// A composite attribute definition (`<composite>`, Xcode 15+): named, nestable groups of attributes.
public struct CompositeDefinition: Sendable, Hashable {
    public var name: String
    public var attributes: [Attribute]
    public var location: SourceLocation

    public init(name: String, attributes: [Attribute] = [], location: SourceLocation = .unknown) {
        self.name = name
        self.attributes = attributes
        self.location = location
    }
}

/// One `<entry key value>` of a `<userInfo>` dictionary; values are always strings.
public struct UserInfoEntry: Sendable, Hashable {
    public var key: String
    public var value: String

    public init(key: String, value: String) {
        self.key = key
        self.value = value
    }
}

/// A `<userInfo>` dictionary in document order: `nil` when the element is absent, empty when
/// Xcode wrote `<userInfo/>`.
public typealias UserInfo = [UserInfoEntry]?
