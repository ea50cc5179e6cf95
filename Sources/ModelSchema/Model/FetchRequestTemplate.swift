/// A fetch request: a model-level template (`<fetchRequest>` under `<model>`) or the request of
/// a fetched property.
public struct FetchRequestTemplate: Sendable, Hashable {
    public var name: String
    public var entityName: String
    public var predicateString: String?
    public var fetchLimit: Int?
    public var fetchBatchSize: Int?
    /// `resultType`: 0 managed objects, 1 object IDs, 2 dictionaries, 4 count.
    public var resultType: Int?
    public var includesSubentities: Bool
    public var includesPropertyValues: Bool
    public var includesPendingChanges: Bool
    public var returnsObjectsAsFaults: Bool
    public var returnsDistinctResults: Bool
    public var location: SourceLocation

    public init(
        name: String, entityName: String, predicateString: String? = nil,
        fetchLimit: Int? = nil, fetchBatchSize: Int? = nil, resultType: Int? = nil,
        includesSubentities: Bool = false, includesPropertyValues: Bool = false,
        includesPendingChanges: Bool = false, returnsObjectsAsFaults: Bool = false,
        returnsDistinctResults: Bool = false, location: SourceLocation = .unknown
    ) {
        self.name = name
        self.entityName = entityName
        self.predicateString = predicateString
        self.fetchLimit = fetchLimit
        self.fetchBatchSize = fetchBatchSize
        self.resultType = resultType
        self.includesSubentities = includesSubentities
        self.includesPropertyValues = includesPropertyValues
        self.includesPendingChanges = includesPendingChanges
        self.returnsObjectsAsFaults = returnsObjectsAsFaults
        self.returnsDistinctResults = returnsDistinctResults
        self.location = location
    }
}

/// A fetched property: a property whose value is the result of a fetch request.
public struct FetchedProperty: Sendable, Hashable {
    public var name: String
    public var isOptional: Bool
    public var isSyncable: Bool
    public var fetchRequest: FetchRequestTemplate
    public var userInfo: UserInfo
    public var location: SourceLocation

    public init(
        name: String, isOptional: Bool = false, isSyncable: Bool = false,
        fetchRequest: FetchRequestTemplate, userInfo: UserInfo = nil,
        location: SourceLocation = .unknown
    ) {
        self.name = name
        self.isOptional = isOptional
        self.isSyncable = isSyncable
        self.fetchRequest = fetchRequest
        self.userInfo = userInfo
        self.location = location
    }
}
