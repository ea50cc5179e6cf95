/// The element and attribute names of the model XML that the reader acts on, numbered so that
/// the parser hands each tag over with small integers instead of strings to compare.
///
/// The raw names are the XML spellings; a name that is both an element and an attribute
/// (`entity`, `composite`) is one term.
enum ModelTerm: UInt8, CaseIterable {
    // Elements.
    case model, entity, attribute, relationship, fetchedProperty, fetchRequest, fetchIndex,
        fetchIndexElement, compoundIndexes, compoundIndex, index, uniquenessConstraints,
        uniquenessConstraint, constraint, userInfo, entry, configuration, memberEntity, composite
    // Attributes of <model>.
    case userDefinedModelVersionIdentifier, lastSavedToolsVersion, systemVersion, minimumToolsVersion,
        sourceLanguage, usedWithCloudKit, usedWithSwiftData, macOSVersion, iOSVersion
    // Attributes shared by entities and properties.
    case name, elementID, versionHashModifier, syncable, optional, transient, indexed
    // Attributes of <entity>.
    case representedClassName, parentEntity, isAbstract, codeGenerationType
    // Attributes of <attribute>.
    case attributeType, defaultValueString, defaultDateTimeInterval, minValueString, maxValueString,
        minDateTimeInterval, maxDateTimeInterval, regularExpressionString, usesScalarValueType,
        customClassName, valueTransformerName, allowsExternalBinaryDataStorage, spotlightIndexingEnabled,
        storedInTruthFile, allowsCloudEncryption, preserveAfterDeletion, derived, derivationExpression
    // Attributes of <relationship>.
    case deletionRule, toMany, ordered, minCount, maxCount, destinationEntity, inverseName, inverseEntity
    // Attributes of <fetchRequest>.
    case predicateString, fetchLimit, fetchBatchSize, resultType, includeSubentities,
        includePropertyValues, includesPendingChanges, returnObjectsAsFaults, returnDistinctResults
    // Attributes of fetch indexes, user info entries and lists of names.
    case partialIndexPredicate, property, expression, expressionType, type, order, key, value

    /// The term spelled `name` in the XML, if the reader knows it.
    init?(xmlName name: String) {
        guard let term = Self.byName[name] else { return nil }
        self = term
    }

    private static let byName: [String: ModelTerm] = Dictionary(
        uniqueKeysWithValues: allCases.map { (String(describing: $0), $0) })
}
