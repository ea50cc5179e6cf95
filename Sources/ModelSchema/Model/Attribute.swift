/// An attribute: Core Data's `NSAttributeDescription` (and its derived and composite kinds).
///
/// Textual values (defaults, bounds) are kept as written so that the model round-trips; the
/// validator and the compiler parse them per ``type``.
public struct Attribute: Sendable, Hashable {
    public var name: String
    public var type: AttributeType
    public var isOptional: Bool
    public var isTransient: Bool
    public var defaultValueString: String?
    /// `defaultDateTimeInterval`: a Date default in seconds since 2001-01-01.
    public var defaultDateTimeInterval: String?
    public var minValueString: String?
    public var maxValueString: String?
    public var minDateTimeInterval: String?
    public var maxDateTimeInterval: String?
    public var regularExpressionString: String?
    /// `usesScalarValueType`: `nil` when absent, as in files older than Xcode 8.
    public var usesScalarValueType: Bool?
    public var customClassName: String?
    public var valueTransformerName: String?
    public var allowsExternalBinaryDataStorage: Bool
    /// The legacy single-attribute index flag (`indexed="YES"`).
    public var isIndexed: Bool
    public var isIndexedBySpotlight: Bool
    public var isStoredInTruthFile: Bool
    public var allowsCloudEncryption: Bool
    /// `preserveAfterDeletion`: keep the value in persistent history tombstones.
    public var preservesValueInHistoryOnDeletion: Bool
    public var isSyncable: Bool
    public var versionHashModifier: String?
    /// The renaming identifier, stored in XML as `elementID`.
    public var renamingIdentifier: String?
    /// `derived="YES"` with `derivationExpression`.
    public var isDerived: Bool
    public var derivationExpression: String?
    /// For ``AttributeType/composite`` attributes: the name of the `<composite>` definition.
    public var compositeName: String?
    public var userInfo: UserInfo
    public var location: SourceLocation

    public init(
        name: String, type: AttributeType = .undefined, isOptional: Bool = false,
        isTransient: Bool = false, defaultValueString: String? = nil,
        defaultDateTimeInterval: String? = nil, minValueString: String? = nil,
        maxValueString: String? = nil, minDateTimeInterval: String? = nil,
        maxDateTimeInterval: String? = nil, regularExpressionString: String? = nil,
        usesScalarValueType: Bool? = nil, customClassName: String? = nil,
        valueTransformerName: String? = nil, allowsExternalBinaryDataStorage: Bool = false,
        isIndexed: Bool = false, isIndexedBySpotlight: Bool = false,
        isStoredInTruthFile: Bool = false, allowsCloudEncryption: Bool = false,
        preservesValueInHistoryOnDeletion: Bool = false, isSyncable: Bool = false,
        versionHashModifier: String? = nil, renamingIdentifier: String? = nil,
        isDerived: Bool = false, derivationExpression: String? = nil,
        compositeName: String? = nil, userInfo: UserInfo = nil,
        location: SourceLocation = .unknown
    ) {
        self.name = name
        self.type = type
        self.isOptional = isOptional
        self.isTransient = isTransient
        self.defaultValueString = defaultValueString
        self.defaultDateTimeInterval = defaultDateTimeInterval
        self.minValueString = minValueString
        self.maxValueString = maxValueString
        self.minDateTimeInterval = minDateTimeInterval
        self.maxDateTimeInterval = maxDateTimeInterval
        self.regularExpressionString = regularExpressionString
        self.usesScalarValueType = usesScalarValueType
        self.customClassName = customClassName
        self.valueTransformerName = valueTransformerName
        self.allowsExternalBinaryDataStorage = allowsExternalBinaryDataStorage
        self.isIndexed = isIndexed
        self.isIndexedBySpotlight = isIndexedBySpotlight
        self.isStoredInTruthFile = isStoredInTruthFile
        self.allowsCloudEncryption = allowsCloudEncryption
        self.preservesValueInHistoryOnDeletion = preservesValueInHistoryOnDeletion
        self.isSyncable = isSyncable
        self.versionHashModifier = versionHashModifier
        self.renamingIdentifier = renamingIdentifier
        self.isDerived = isDerived
        self.derivationExpression = derivationExpression
        self.compositeName = compositeName
        self.userInfo = userInfo
        self.location = location
    }
}
