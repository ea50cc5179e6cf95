/// A relationship: Core Data's `NSRelationshipDescription` as written in `<relationship>`.
///
/// `minCount`/`maxCount` are kept exactly as written (absent is `nil`) because they feed the
/// version hash: an Xcode 4 file's `minCount="1"` on an optional to-one hashes differently.
public struct Relationship: Sendable, Hashable {
    public var name: String
    public var isOptional: Bool
    public var isTransient: Bool
    public var isToMany: Bool
    public var isOrdered: Bool
    public var minCount: Int?
    public var maxCount: Int?
    public var deleteRule: DeleteRule
    public var destinationEntityName: String
    public var inverseName: String?
    public var inverseEntityName: String?
    /// The legacy index flag (`indexed="YES"`).
    public var isIndexed: Bool
    public var isSyncable: Bool
    public var renamingIdentifier: String?
    public var versionHashModifier: String?
    public var userInfo: UserInfo
    public var location: SourceLocation

    public init(
        name: String, isOptional: Bool = false, isTransient: Bool = false, isToMany: Bool = false,
        isOrdered: Bool = false, minCount: Int? = nil, maxCount: Int? = nil,
        deleteRule: DeleteRule = .nullify, destinationEntityName: String,
        inverseName: String? = nil, inverseEntityName: String? = nil, isIndexed: Bool = false,
        isSyncable: Bool = false, renamingIdentifier: String? = nil,
        versionHashModifier: String? = nil, userInfo: UserInfo = nil,
        location: SourceLocation = .unknown
    ) {
        self.name = name
        self.isOptional = isOptional
        self.isTransient = isTransient
        self.isToMany = isToMany
        self.isOrdered = isOrdered
        self.minCount = minCount
        self.maxCount = maxCount
        self.deleteRule = deleteRule
        self.destinationEntityName = destinationEntityName
        self.inverseName = inverseName
        self.inverseEntityName = inverseEntityName
        self.isIndexed = isIndexed
        self.isSyncable = isSyncable
        self.renamingIdentifier = renamingIdentifier
        self.versionHashModifier = versionHashModifier
        self.userInfo = userInfo
        self.location = location
    }

    /// `NSMinCount` as momc compiles it: the written value, absent is 0.
    public var effectiveMinCount: Int { minCount ?? 0 }
    /// `NSMaxCount` as momc compiles it: the written value, absent is 0 (unbounded).
    public var effectiveMaxCount: Int { maxCount ?? 0 }
}

/// What happens to the destination objects when the source object is deleted.
public enum DeleteRule: Int, Sendable, Hashable, CaseIterable {
    case noAction = 0
    case nullify = 1
    case cascade = 2
    case deny = 3

    /// The spelling of `deletionRule` in the XML.
    public var xmlName: String {
        switch self {
        case .noAction: "No Action"
        case .nullify: "Nullify"
        case .cascade: "Cascade"
        case .deny: "Deny"
        }
    }

    public init?(xmlName: String) {
        guard let match = Self.all.first(where: { $0.xmlName == xmlName }) else { return nil }
        self = match
    }

    /// ``allCases`` once: the synthesized property builds a new array at each call.
    private static let all = allCases
}
