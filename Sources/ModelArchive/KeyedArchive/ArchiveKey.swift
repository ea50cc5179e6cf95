/// A key of the fields ``ModelArchiver`` writes. Keys are a fixed set of names, so the
/// archive writer keeps them as small numbers: it compares and looks up numbers, not strings,
/// and turns each key into its property list string once per archive.
enum ArchiveKey: UInt8, CaseIterable {
    case compilerToolVersion
    case compilerXcodeVersion
    case keys
    case objects
    case time
    case uuidBytes
    case base
    case relative
    case exponent
    case length
    case negative
    case compact
    case mantissaByteOrder
    case mantissa
    case allocationType
    case allowsCloudEncryption
    case ascending
    case attributeType
    case attributeValueClassName
    case batchSize
    case classNameForEntity
    case compoundIndexes
    case configurations
    case defaultValue
    case deleteRule
    case derivationExpression
    case destinationEntity
    case entities
    case entity
    case entityName
    case fetchIndexDescription
    case fetchIndexDescriptions
    case fetchIndexElementType
    case fetchLimit
    case fetchOffset
    case fetchRequest
    case fetchRequestFlags
    case fetchRequestTemplates
    case filteringPredicate
    case flags
    case hasFetchRequestFlags
    case havingPredicate
    case indexElements
    case indexName
    case indexedBySpotlight
    case inverseRelationship
    case isAbstract
    case isIndexed
    case isOptional
    case isOrdered
    case isReadOnly
    case isStoredInTruth
    case isTransient
    case managedObjectModel
    case maxCount
    case minCount
    case partialIndexPredicate
    case predicate
    case properties
    case propertyName
    case relationshipKeyPathsForPrefetching
    case renamingIdentifier
    case resultType
    case sortDescriptors
    case subentities
    case superentity
    case uniqueTuples
    case userInfo
    case validationPredicates
    case validationWarnings
    case valueTransformerName
    case valuesToFetch
    case valuesToGroupBy
    case versionHashModifier
    case versionIdentifiers
    case destinationEntityName
    case fetchRequestEntityName
    case inverseRelationshipName
    case propertyFlags

    /// The key as the archive spells it.
    var name: String {
        switch self {
        case .compilerToolVersion: "CDMCompilerToolVersion"
        case .compilerXcodeVersion: "CDMCompilerXcodeVersion"
        case .keys: "NS.keys"
        case .objects: "NS.objects"
        case .time: "NS.time"
        case .uuidBytes: "NS.uuidbytes"
        case .base: "NS.base"
        case .relative: "NS.relative"
        case .exponent: "NS.exponent"
        case .length: "NS.length"
        case .negative: "NS.negative"
        case .compact: "NS.compact"
        case .mantissaByteOrder: "NS.mantissa.bo"
        case .mantissa: "NS.mantissa"
        case .allocationType: "NSAllocationType"
        case .allowsCloudEncryption: "NSAllowsCloudEncryption"
        case .ascending: "NSAscending"
        case .attributeType: "NSAttributeType"
        case .attributeValueClassName: "NSAttributeValueClassName"
        case .batchSize: "NSBatchSize"
        case .classNameForEntity: "NSClassNameForEntity"
        case .compoundIndexes: "NSCompoundIndexes"
        case .configurations: "NSConfigurations"
        case .defaultValue: "NSDefaultValue"
        case .deleteRule: "NSDeleteRule"
        case .derivationExpression: "NSDerivationExpression"
        case .destinationEntity: "NSDestinationEntity"
        case .entities: "NSEntities"
        case .entity: "NSEntity"
        case .entityName: "NSEntityName"
        case .fetchIndexDescription: "NSFetchIndexDescription"
        case .fetchIndexDescriptions: "NSFetchIndexDescriptions"
        case .fetchIndexElementType: "NSFetchIndexElementType"
        case .fetchLimit: "NSFetchLimit"
        case .fetchOffset: "NSFetchOffset"
        case .fetchRequest: "NSFetchRequest"
        case .fetchRequestFlags: "NSFetchRequestFlags"
        case .fetchRequestTemplates: "NSFetchRequestTemplates"
        case .filteringPredicate: "NSFilteringPredicate"
        case .flags: "NSFlagsKey"
        case .hasFetchRequestFlags: "NSHasFetchRequestFlags"
        case .havingPredicate: "NSHavingPredicate"
        case .indexElements: "NSIndexElements"
        case .indexName: "NSIndexName"
        case .indexedBySpotlight: "NSIndexedBySpotlight"
        case .inverseRelationship: "NSInverseRelationship"
        case .isAbstract: "NSIsAbstract"
        case .isIndexed: "NSIsIndexed"
        case .isOptional: "NSIsOptional"
        case .isOrdered: "NSIsOrdered"
        case .isReadOnly: "NSIsReadOnly"
        case .isStoredInTruth: "NSIsStoredInTruth"
        case .isTransient: "NSIsTransient"
        case .managedObjectModel: "NSManagedObjectModel"
        case .maxCount: "NSMaxCount"
        case .minCount: "NSMinCount"
        case .partialIndexPredicate: "NSPartialIndexPredicate"
        case .predicate: "NSPredicate"
        case .properties: "NSProperties"
        case .propertyName: "NSPropertyName"
        case .relationshipKeyPathsForPrefetching: "NSRelationshipKeyPathsForPrefetching"
        case .renamingIdentifier: "NSRenamingIdentifier"
        case .resultType: "NSResultType"
        case .sortDescriptors: "NSSortDescriptors"
        case .subentities: "NSSubentities"
        case .superentity: "NSSuperentity"
        case .uniqueTuples: "NSUniqueTuples"
        case .userInfo: "NSUserInfo"
        case .validationPredicates: "NSValidationPredicates"
        case .validationWarnings: "NSValidationWarnings"
        case .valueTransformerName: "NSValueTransformerName"
        case .valuesToFetch: "NSValuesToFetch"
        case .valuesToGroupBy: "NSValuesToGroupBy"
        case .versionHashModifier: "NSVersionHashModifier"
        case .versionIdentifiers: "NSVersionIdentifiers"
        case .destinationEntityName: "_NSDestinationEntityName"
        case .fetchRequestEntityName: "_NSFetchRequestEntityName"
        case .inverseRelationshipName: "_NSInverseRelationshipName"
        case .propertyFlags: "_P"
        }
    }
}
