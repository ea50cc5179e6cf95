import Foundation
import ModelExpression
import ModelSchema

/// Turns a model version into the NSKeyedArchiver object graph momc writes as a `.mom`.
///
/// Keys, classes and flag words follow Xcode's own `.mom` files (FORMATS.md §4.3): own
/// properties only in `NSProperties`, both object references and names for destinations and
/// inverses, the renaming identifier defaulting to the name, `_P` flag words, and
/// `NSCompoundIndexes` mirroring every fetch index.
public struct ModelArchiver {
    public struct Options: Sendable {
        /// The compiler identity to record; `nil` writes none, as momc before Xcode 15 did.
        public var compilerVersion: CompilerVersion?

        public init(compilerVersion: CompilerVersion? = .xcode15_4) {
            self.compilerVersion = compilerVersion
        }
    }

    let version: ModelVersion
    let options: Options
    private var entityObjects: [String: ArchivedObject] = [:]
    private var propertyObjects: [String: [String: ArchivedObject]] = [:]
    /// The entities in archive order (indexes into `version.entities`), and each entity's
    /// subentities, computed once.
    private var entityOrder: [Int] = []
    private var subentityNames: [String: [String]] = [:]
    private var parentNames: [String: String] = [:]
    /// Foundation's shared empty dictionary: every entity without userInfo refers to this one.
    private let emptyUserInfo = ArchiveClass.dictionary([], classes: ArchiveClass.dictionary)

    /// The `.mom` bytes of `version`.
    public static func archive(_ version: ModelVersion, options: Options = Options()) -> [UInt8] {
        KeyedArchiveWriter.archive(graph(version, options: options))
    }

    /// The archive's root object (an `NSManagedObjectModel`).
    public static func graph(_ version: ModelVersion, options: Options = Options()) -> ArchivedObject {
        var archiver = ModelArchiver(version: version, options: options)
        return archiver.modelObject()
    }

    private init(version: ModelVersion, options: Options) {
        self.version = version
        self.options = options
    }

    // MARK: - Model

    private mutating func modelObject() -> ArchivedObject {
        let model = ArchivedObject(ArchiveClass.model)
        entityOrder = uniqueEntityIndexes()
        entityObjects.reserveCapacity(entityOrder.count)
        propertyObjects.reserveCapacity(entityOrder.count)
        for index in entityOrder {
            let name = version.entities[index].name
            entityObjects[name] = ArchivedObject(ArchiveClass.entity)
            if let parent = version.entities[index].parentEntityName {
                subentityNames[parent, default: []].append(name)
                parentNames[name] = parent
            }
        }
        for index in entityOrder {
            fillEntity(version.entities[index], model: model)
        }
        for index in entityOrder {
            resolveRelationships(of: version.entities[index])
        }
        let entityNames = entityOrder.map { version.entities[$0].name }
        model.append("NSEntities", .object(
            ArchiveClass.dictionary(entityNames.map { ($0, .object(entityObjects[$0]!)) })))
        if let compiler = options.compilerVersion {
            model.append("CDMCompilerToolVersion", .real(compiler.toolVersion))
            model.append("CDMCompilerXcodeVersion", .integer(Int64(compiler.xcodeVersion)))
        }
        model["NSFetchRequestTemplates"] =
            version.fetchRequests.isEmpty
            ? .null
            : .object(
                ArchiveClass.dictionary(version.fetchRequests.sorted(by: { NameOrder.precedes($0.name, $1.name) }).map { ($0.name, .object(fetchRequestObject($0))) }))
        model.append("NSVersionIdentifiers", .object(
            ArchiveClass.array([.string(version.versionIdentifier)], classes: ArchiveClass.set)))
        if !version.configurations.isEmpty {
            model.append("NSConfigurations", .object(
                ArchiveClass.dictionary(
                    version.configurations.sorted(by: { NameOrder.precedes($0.name, $1.name) }).map { configuration in
                        let members = configuration.memberEntityNames.sorted(by: NameOrder.precedes).compactMap { entityObjects[$0] }
                        return (configuration.name, .object(ArchiveClass.array(members.map { .object($0) }, classes: ArchiveClass.set)))
                    })))
        }
        return model
    }

    /// Room for the fields of an entity, attribute or relationship, so that appending them
    /// rarely grows the array.
    private static let fieldCapacity = 12

    /// The indexes of `names` in the order archives list entities, properties and keys in
    /// (``NameOrder``), so that the bytes depend on the model and not on the order of its XML.
    /// Sorting indexes rather than entities or attributes saves copying each of them.
    static func nameOrder(_ names: [String]) -> [Int] {
        names.indices.sorted { NameOrder.precedes(names[$0], names[$1]) }
    }

    /// Entities by first declaration (duplicates are a validation error and are not compiled).
    private func uniqueEntityIndexes() -> [Int] {
        var seen = Set<String>()
        return Self.nameOrder(version.entities.map { $0.name }).filter { seen.insert(version.entities[$0].name).inserted }
    }

    // MARK: - Entities

    private mutating func fillEntity(_ entity: Entity, model: ArchivedObject) {
        let object = entityObjects[entity.name]!
        object.fields.reserveCapacity(Self.fieldCapacity)
        object.append("NSEntityName", .string(entity.name))
        object.append("NSClassNameForEntity", .string(entity.representedClassName ?? "NSManagedObject"))
        object.append("NSManagedObjectModel", .object(model))
        object.append("NSSuperentity", entity.parentEntityName.flatMap { entityObjects[$0] }.map { .object($0) } ?? .null)
        let subentities = (subentityNames[entity.name] ?? [])
            .compactMap { name in entityObjects[name].map { (name, ArchiveValue.object($0)) } }
        object.append("NSSubentities", .object(ArchiveClass.dictionary(subentities)))
        object.append("NSRenamingIdentifier", .string(entity.renamingIdentifier ?? entity.name))
        object.append("NSVersionHashModifier", entity.versionHashModifier.map { .string($0) } ?? .null)
        object.append("NSUserInfo", .object(userInfoObject(entity.userInfo)))
        if entity.isAbstract { object.append("NSIsAbstract", .bool(true)) }

        var properties = [(String, ArchiveValue)]()
        var byName = [String: ArchivedObject](
            minimumCapacity: entity.attributes.count + entity.relationships.count + entity.fetchedProperties.count)
        let attributeNames = entity.attributes.map { $0.name }
        for index in Self.nameOrder(attributeNames) where byName[attributeNames[index]] == nil {
            let property = attributeObject(entity.attributes[index], entity: object)
            byName[attributeNames[index]] = property
            properties.append((attributeNames[index], .object(property)))
        }
        let relationshipNames = entity.relationships.map { $0.name }
        for index in Self.nameOrder(relationshipNames) where byName[relationshipNames[index]] == nil {
            let property = ArchivedObject(ArchiveClass.relationship)
            byName[relationshipNames[index]] = property
            properties.append((relationshipNames[index], .object(property)))
        }
        for fetched in entity.fetchedProperties.sorted(by: { NameOrder.precedes($0.name, $1.name) })
        where byName[fetched.name] == nil {
            let property = fetchedPropertyObject(fetched, entity: object)
            byName[fetched.name] = property
            properties.append((fetched.name, .object(property)))
        }
        propertyObjects[entity.name] = byName
        object.append("NSProperties", .object(ArchiveClass.dictionary(properties)))

        if !entity.uniquenessConstraints.isEmpty {
            object.append("NSUniqueTuples", .object(
                ArchiveClass.array(
                    entity.uniquenessConstraints.map { .object(ArchiveClass.array($0.map { .string($0) })) })))
        }
        if !entity.fetchIndexes.isEmpty {
            object.append("NSFetchIndexDescriptions", .object(
                ArchiveClass.array(entity.fetchIndexes.map { .object(fetchIndexObject($0, entity: object)) })))
        }
        let compound = entity.compoundIndexes + entity.fetchIndexes.map { $0.elements.compactMap(\.propertyName) }
        if !compound.isEmpty {
            object.append("NSCompoundIndexes", .object(
                ArchiveClass.array(compound.map { .object(ArchiveClass.array($0.map { .string($0) })) })))
        }
    }

    private func fetchIndexObject(_ index: FetchIndex, entity: ArchivedObject) -> ArchivedObject {
        let object = ArchivedObject(ArchiveClass.fetchIndex)
        object.append("NSIndexName", .string(index.name))
        object.append("NSPartialIndexPredicate", index.partialIndexPredicate.map { predicateValue($0) } ?? .null)
        object.append("NSIndexElements", .object(
            ArchiveClass.array(
                index.elements.map { element in
                    let item = ArchivedObject(ArchiveClass.fetchIndexElement)
                    item["NSPropertyName"] = element.propertyName.map { .string($0) } ?? .null
                    item["NSFetchIndexElementType"] = .integer(element.type == "RTree" ? 1 : 0)
                    item["NSFetchIndexDescription"] = .object(object)
                    item["NSAscending"] = .bool(element.isAscending)
                    return .object(item)
                }, classes: ArchiveClass.array)))
        object.append("NSEntity", .object(entity))
        return object
    }

    // MARK: - Properties

    /// The `_P` flag word of NSPropertyDescription.
    static func propertyFlags(
        isOptional: Bool, isTransient: Bool, isReadOnly: Bool = false, hasUserInfo: Bool,
        hasModifier: Bool, isSpotlightIndexed: Bool = false, isStoredInTruthFile: Bool = false,
        isOrdered: Bool = false, allowsCloudEncryption: Bool = false, hasValidation: Bool = false
    ) -> Int64 {
        var flags: Int64 = 0x1
        if isOptional { flags |= 0x2 }
        if isReadOnly { flags |= 0x4 }
        if isTransient { flags |= 0x8 }
        if !hasValidation { flags |= 0x10 | 0x20 }
        if !hasUserInfo { flags |= 0x40 }
        if !hasModifier { flags |= 0x80 }
        if isSpotlightIndexed { flags |= 0x100 }
        if isStoredInTruthFile { flags |= 0x200 }
        if isOrdered { flags |= 0x400 }
        if allowsCloudEncryption { flags |= 0x800 }
        return flags
    }

    private func fillCommon(
        _ object: ArchivedObject, name: String, entity: ArchivedObject, renamingIdentifier: String?,
        isOptional: Bool, isTransient: Bool, userInfo: UserInfo, modifier: String?
    ) {
        object.append("NSPropertyName", .string(name))
        object.append("NSEntity", .object(entity))
        object.append("NSRenamingIdentifier", .string(renamingIdentifier ?? name))
        if isOptional { object.append("NSIsOptional", .bool(true)) }
        if isTransient { object.append("NSIsTransient", .bool(true)) }
        if let userInfo, !userInfo.isEmpty { object.append("NSUserInfo", .object(userInfoObject(userInfo))) }
        if let modifier { object.append("NSVersionHashModifier", .string(modifier)) }
    }

    private func attributeObject(_ attribute: Attribute, entity: ArchivedObject) -> ArchivedObject {
        let classes = attribute.isDerived
            ? ArchiveClass.derivedAttribute : attribute.type == .composite ? ArchiveClass.compositeAttribute : ArchiveClass.attribute
        let object = ArchivedObject(classes)
        object.fields.reserveCapacity(Self.fieldCapacity)
        fillCommon(
            object, name: attribute.name, entity: entity, renamingIdentifier: attribute.renamingIdentifier,
            isOptional: attribute.isOptional, isTransient: attribute.isTransient, userInfo: attribute.userInfo,
            modifier: attribute.versionHashModifier)
        let hasUserInfo = !(attribute.userInfo ?? []).isEmpty
        let validation = ValidationPredicates.of(attribute)
        object.append("_P", .integer(
            Self.propertyFlags(
                isOptional: attribute.isOptional, isTransient: attribute.isTransient, isReadOnly: attribute.isDerived,
                hasUserInfo: hasUserInfo, hasModifier: attribute.versionHashModifier != nil,
                isSpotlightIndexed: attribute.isIndexedBySpotlight, isStoredInTruthFile: attribute.isStoredInTruthFile,
                allowsCloudEncryption: attribute.allowsCloudEncryption, hasValidation: !validation.isEmpty)))
        if !validation.isEmpty {
            object.append("NSValidationPredicates", .object(
                ArchiveClass.array(validation.map { .object(PredicateArchiver.archive($0.predicate)) })))
            object.append("NSValidationWarnings", .object(ArchiveClass.array(validation.map { .number(.integer($0.warning)) })))
        }
        if attribute.isIndexedBySpotlight { object.append("NSIndexedBySpotlight", .bool(true)) }
        if attribute.isStoredInTruthFile { object.append("NSIsStoredInTruth", .bool(true)) }
        if attribute.allowsCloudEncryption { object.append("NSAllowsCloudEncryption", .bool(true)) }
        if attribute.isIndexed { object.append("NSIsIndexed", .bool(true)) }
        object.append("NSAttributeType", .integer(Int64(attribute.type.rawValue)))
        object.append("NSAttributeValueClassName", AttributeValues.valueClassName(attribute.type).map { .string($0) } ?? .null)
        object.append("NSDefaultValue", AttributeValues.defaultValue(attribute))
        object.append("NSValueTransformerName", attribute.valueTransformerName.map { .string($0) } ?? .null)
        var flags: Int64 = 0
        if attribute.allowsExternalBinaryDataStorage { flags |= 0x04 }
        if attribute.preservesValueInHistoryOnDeletion { flags |= 0x10 }
        object.append("NSFlagsKey", .integer(flags))
        if attribute.isDerived, let expression = attribute.derivationExpression {
            object.append("NSIsReadOnly", .bool(true))
            object.append("NSDerivationExpression", derivationValue(expression))
            object.append("NSFilteringPredicate", .null)
        }
        return object
    }

    private mutating func resolveRelationships(of entity: Entity) {
        guard let entityObject = entityObjects[entity.name], let properties = propertyObjects[entity.name] else { return }
        for relationship in entity.relationships {
            guard let object = properties[relationship.name], object.fields.isEmpty else { continue }
            object.fields.reserveCapacity(Self.fieldCapacity)
            fillCommon(
                object, name: relationship.name, entity: entityObject, renamingIdentifier: relationship.renamingIdentifier,
                isOptional: relationship.isOptional, isTransient: relationship.isTransient,
                userInfo: relationship.userInfo, modifier: relationship.versionHashModifier)
            object.append("_P", .integer(
                Self.propertyFlags(
                    isOptional: relationship.isOptional, isTransient: relationship.isTransient,
                    hasUserInfo: !(relationship.userInfo ?? []).isEmpty,
                    hasModifier: relationship.versionHashModifier != nil, isOrdered: relationship.isOrdered)))
            if relationship.isOrdered { object.append("NSIsOrdered", .bool(true)) }
            if relationship.isIndexed { object.append("NSIsIndexed", .bool(true)) }
            object.append("NSDestinationEntity", entityObjects[relationship.destinationEntityName].map { .object($0) } ?? .null)
            object.append("_NSDestinationEntityName", .string(relationship.destinationEntityName))
            let inverse = relationship.inverseName.flatMap { name in
                inheritedProperty(name, of: relationship.destinationEntityName)
            }
            object.append("NSInverseRelationship", inverse.map { .object($0) } ?? .null)
            object.append("_NSInverseRelationshipName", relationship.inverseName.map { .string($0) } ?? .null)
            object.append("NSDeleteRule", .integer(Int64(relationship.deleteRule.rawValue)))
            object.append("NSMinCount", .integer(Int64(relationship.effectiveMinCount)))
            object.append("NSMaxCount", .integer(Int64(relationship.effectiveMaxCount)))
        }
    }

    /// The property object `name` of an entity or of its nearest ancestor that declares it.
    private func inheritedProperty(_ name: String, of entityName: String) -> ArchivedObject? {
        var current: String? = entityName
        var seen = Set<String>()
        while let entity = current, seen.insert(entity).inserted {
            if let property = propertyObjects[entity]?[name] { return property }
            current = parentNames[entity]
        }
        return nil
    }

    private func fetchedPropertyObject(_ fetched: FetchedProperty, entity: ArchivedObject) -> ArchivedObject {
        let object = ArchivedObject(ArchiveClass.fetchedProperty)
        // A fetched property is always transient and read-only, as Core Data's own archives show.
        fillCommon(
            object, name: fetched.name, entity: entity, renamingIdentifier: nil, isOptional: fetched.isOptional,
            isTransient: true, userInfo: fetched.userInfo, modifier: nil)
        object.append("NSIsReadOnly", .bool(true))
        object.append("_P", .integer(
            Self.propertyFlags(
                isOptional: fetched.isOptional, isTransient: true, isReadOnly: true,
                hasUserInfo: !(fetched.userInfo ?? []).isEmpty, hasModifier: false)))
        object.append("NSFetchRequest", .object(fetchRequestObject(fetched.fetchRequest)))
        object.append("_NSFetchRequestEntityName", .string(fetched.fetchRequest.entityName))
        return object
    }

    // MARK: - Values

    private func userInfoObject(_ userInfo: UserInfo) -> ArchivedObject {
        guard let userInfo, !userInfo.isEmpty else { return emptyUserInfo }
        return ArchiveClass.dictionary(userInfo.sorted(by: { NameOrder.precedes($0.key, $1.key) }).map { ($0.key, .string($0.value)) }, classes: ArchiveClass.dictionary)
    }

    private func fetchRequestObject(_ request: FetchRequestTemplate) -> ArchivedObject {
        let object = ArchivedObject(ArchiveClass.fetchRequest)
        object.append("NSEntity", entityObjects[request.entityName].map { .object($0) } ?? .null)
        object.append("NSPredicate", request.predicateString.map { predicateValue($0) } ?? .null)
        object.append("NSSortDescriptors", .null)
        object.append("NSValuesToFetch", .null)
        object.append("NSValuesToGroupBy", .null)
        object.append("NSHavingPredicate", .null)
        object.append("NSRelationshipKeyPathsForPrefetching", .null)
        object.append("NSFetchOffset", .integer(0))
        object.append("NSAllocationType", .integer(0))
        object.append("NSFetchLimit", .integer(Int64(request.fetchLimit ?? 0)))
        object.append("NSBatchSize", .integer(Int64(request.fetchBatchSize ?? 0)))
        object.append("NSResultType", .integer(Int64(request.resultType ?? 0)))
        object.append("NSHasFetchRequestFlags", .bool(true))
        var flags: Int64 = 0
        if request.includesSubentities { flags |= 0x1 }
        if request.includesPropertyValues { flags |= 0x2 }
        if request.returnsObjectsAsFaults { flags |= 0x4 }
        if request.includesPendingChanges { flags |= 0x8 }
        if request.returnsDistinctResults { flags |= 0x10 }
        object.append("NSFetchRequestFlags", .integer(flags))
        return object
    }

    /// An archived NSPredicate; text that does not parse (the validator reports it) archives as nil.
    private func predicateValue(_ format: String) -> ArchiveValue {
        guard let predicate = try? PredicateParser.predicate(format) else { return .null }
        return .object(PredicateArchiver.archive(predicate))
    }

    private func derivationValue(_ format: String) -> ArchiveValue {
        guard let expression = try? PredicateParser.expression(format) else { return .null }
        return .object(PredicateArchiver.archive(PredicateArchiver.derivation(expression)))
    }
}
