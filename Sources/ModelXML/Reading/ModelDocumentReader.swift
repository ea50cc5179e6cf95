import ModelSchema

/// Turns the XML of one `contents` file into a ``ModelVersion`` as libxml2 parses it, recording
/// every problem.
///
/// The model is built straight from the parser's start and end tags, with no element tree in
/// between: each open element is remembered only as what it is (``Context``), and the object
/// it describes is filled in place. Unknown XML attributes and elements are ignored, as Xcode
/// ignores them, along with everything inside an unknown element; missing or unparsable
/// required values become `X0xx` diagnostics and reading goes on.
final class ModelDocumentReader: XMLContentHandler {
    private(set) var diagnostics = DiagnosticList()
    /// The version read, once the root element has started; `nil` when the root is no `<model>`.
    private(set) var version: ModelVersion?

    /// What an open element is, by where it stands in the document.
    enum Context {
        case ignored, model
        case entity, entityAttribute, relationship, fetchedProperty, fetchIndex
        case compoundIndexes, compoundIndex, uniquenessConstraints, uniquenessConstraint
        case fetchRequest, fetchedPropertyRequest, configuration, composite, compositeAttribute
        case userInfo
    }

    private let name: String
    private let path: String
    private var stack: [Context] = []
    /// The objects the open elements describe, filled as their tags arrive.
    private var entity = Entity(name: "")
    private var fetchedProperty = FetchedProperty(
        name: "", fetchRequest: FetchRequestTemplate(name: "", entityName: ""))
    private var fetchedPropertyHasRequest = false
    private var fetchedPropertyHasName = false
    private var fetchRequest = FetchRequestTemplate(name: "", entityName: "")
    private var fetchIndex = FetchIndex(name: "", elements: [])
    private var configuration = Configuration(name: "", memberEntityNames: [])
    private var composite = CompositeDefinition(name: "", attributes: [])
    /// The names listed so far in the open `<compoundIndex>` or `<uniquenessConstraint>`.
    private var names: [String] = []
    /// The entries read so far in the open `<userInfo>`.
    private var userInfo: [UserInfoEntry] = []
    /// Whether the open property already took its first `<userInfo>`; later ones are ignored.
    private var propertyHasUserInfo = false

    init(name: String, path: String) {
        self.name = name
        self.path = path
    }

    // MARK: - XMLContentHandler

    func term(forName name: String) -> UInt8? {
        ModelTerm(xmlName: name)?.rawValue
    }

    func startElement(_ tag: XMLStartTag) {
        let term = tag.term.flatMap(ModelTerm.init(rawValue:))
        guard let parent = stack.last else {
            stack.append(startModel(tag, isModel: term == .model))
            return
        }
        stack.append(start(tag, term: term, in: parent))
    }

    func endElement() {
        guard let context = stack.popLast() else { return }
        switch context {
        case .entity:
            version?.entities.append(take(&entity, Entity(name: "")))
        case .fetchedProperty:
            endFetchedProperty()
        case .fetchRequest:
            version?.fetchRequests.append(fetchRequest)
        case .fetchedPropertyRequest:
            fetchedProperty.fetchRequest = fetchRequest
        case .fetchIndex:
            entity.fetchIndexes.append(take(&fetchIndex, FetchIndex(name: "", elements: [])))
        case .compoundIndex:
            entity.compoundIndexes.append(take(&names, []))
        case .uniquenessConstraint:
            entity.uniquenessConstraints.append(take(&names, []))
        case .configuration:
            version?.configurations.append(take(&configuration, Configuration(name: "", memberEntityNames: [])))
        case .composite:
            version?.composites.append(take(&composite, CompositeDefinition(name: "", attributes: [])))
        case .userInfo:
            endUserInfo(owner: stack.last)
        case .ignored, .model, .entityAttribute, .relationship, .compoundIndexes, .uniquenessConstraints,
            .compositeAttribute:
            break
        }
    }

    func characters(_ text: UnsafeBufferPointer<UInt8>) {}

    // MARK: - Dispatch

    /// What a child element is, given its parent's context; starts the object it describes.
    private func start(_ tag: XMLStartTag, term: ModelTerm?, in parent: Context) -> Context {
        switch (parent, term) {
        case (.model, .entity): startEntity(tag); return .entity
        case (.model, .fetchRequest): fetchRequest = readFetchRequest(tag); return .fetchRequest
        case (.model, .configuration): startConfiguration(tag); return .configuration
        case (.model, .composite): startComposite(tag); return .composite
        case (.entity, .attribute):
            appendAttribute(tag, to: &entity.attributes)
            propertyHasUserInfo = false
            return .entityAttribute
        case (.entity, .relationship):
            entity.relationships.append(readRelationship(tag))
            propertyHasUserInfo = false
            return .relationship
        case (.entity, .fetchedProperty): startFetchedProperty(tag); return .fetchedProperty
        case (.entity, .fetchIndex): startFetchIndex(tag); return .fetchIndex
        case (.entity, .compoundIndexes): entity.compoundIndexes = []; return .compoundIndexes
        case (.entity, .uniquenessConstraints): return .uniquenessConstraints
        case (.entity, .userInfo): userInfo = []; return .userInfo
        case (.entityAttribute, .userInfo), (.relationship, .userInfo), (.fetchedProperty, .userInfo),
            (.compositeAttribute, .userInfo):
            guard !propertyHasUserInfo else { return .ignored }
            propertyHasUserInfo = true
            userInfo = []
            return .userInfo
        case (.fetchedProperty, .fetchRequest):
            guard !fetchedPropertyHasRequest else { return .ignored }
            fetchedPropertyHasRequest = true
            fetchRequest = readFetchRequest(tag)
            return .fetchedPropertyRequest
        case (.fetchIndex, .fetchIndexElement): fetchIndex.elements.append(readFetchIndexElement(tag)); return .ignored
        case (.compoundIndexes, .compoundIndex): names = []; return .compoundIndex
        case (.compoundIndex, .index), (.uniquenessConstraint, .constraint):
            if let value = value(of: .value, in: tag) { names.append(value) }
            return .ignored
        case (.uniquenessConstraints, .uniquenessConstraint):
            names = []
            entity.uniquenessConstraintLocations.append(tag.location)
            return .uniquenessConstraint
        case (.userInfo, .entry):
            userInfo.append(UserInfoEntry(key: value(of: .key, in: tag) ?? "", value: value(of: .value, in: tag) ?? ""))
            return .ignored
        case (.configuration, .memberEntity):
            if let member = value(of: .name, in: tag) { configuration.memberEntityNames.append(member) }
            return .ignored
        case (.composite, .attribute):
            appendAttribute(tag, to: &composite.attributes)
            propertyHasUserInfo = false
            return .compositeAttribute
        default:
            return .ignored
        }
    }

    /// Gives a finished `<userInfo>` to its owner: the last one counts for an entity, the first
    /// for a property (later ones were ignored).
    private func endUserInfo(owner: Context?) {
        let entries = take(&userInfo, [])
        switch owner {
        case .entity: entity.userInfo = entries
        case .entityAttribute: entity.attributes[entity.attributes.count - 1].userInfo = entries
        case .relationship: entity.relationships[entity.relationships.count - 1].userInfo = entries
        case .fetchedProperty: fetchedProperty.userInfo = entries
        case .compositeAttribute: composite.attributes[composite.attributes.count - 1].userInfo = entries
        default: break
        }
    }

    // MARK: - Model and entities

    private func startModel(_ tag: XMLStartTag, isModel: Bool) -> Context {
        let location = tag.location
        guard isModel else {
            diagnostics.emit(.notAModel(tag.name, at: location))
            return .ignored
        }
        var document = DocumentInfo()
        var identifier = ""
        var legacy: [ModelTerm: String] = [:]
        for index in 0..<tag.count {
            guard let term = attributeTerm(at: index, in: tag) else { continue }
            switch term {
            case .userDefinedModelVersionIdentifier: identifier = tag.value(at: index)
            case .lastSavedToolsVersion: document.lastSavedToolsVersion = tag.value(at: index)
            case .systemVersion: document.systemVersion = tag.value(at: index)
            case .minimumToolsVersion: document.minimumToolsVersion = tag.value(at: index)
            case .sourceLanguage: document.sourceLanguage = tag.value(at: index)
            case .usedWithCloudKit: document.usedWithCloudKit = tag.isYes(at: index)
            case .usedWithSwiftData: document.usedWithSwiftData = tag.isYes(at: index)
            case .name, .macOSVersion, .iOSVersion: legacy[term] = tag.value(at: index)
            default: break
            }
        }
        document.legacyAttributes = [ModelTerm.name, .macOSVersion, .iOSVersion].compactMap { term in
            legacy[term].map { UserInfoEntry(key: "\(term)", value: $0) }
        }
        version = ModelVersion(
            name: name, path: path, versionIdentifier: identifier, document: document, location: location)
        return .model
    }

    private func startEntity(_ tag: XMLStartTag) {
        let location = tag.location
        var name: String?
        for index in 0..<tag.count {
            guard let term = attributeTerm(at: index, in: tag) else { continue }
            switch term {
            case .name: name = tag.value(at: index)
            case .representedClassName: entity.representedClassName = tag.value(at: index)
            case .parentEntity: entity.parentEntityName = tag.value(at: index)
            case .isAbstract: entity.isAbstract = tag.isYes(at: index)
            case .syncable: entity.isSyncable = tag.isYes(at: index)
            case .codeGenerationType: entity.codeGenerationType = tag.value(at: index)
            case .elementID: entity.renamingIdentifier = tag.value(at: index)
            case .versionHashModifier: entity.versionHashModifier = tag.value(at: index)
            default: break
            }
        }
        entity.name = required(name, .name, of: tag, at: location)
        entity.location = location
    }

    // MARK: - Properties

    /// Appends the attribute `tag` describes to `attributes`, filled in place.
    private func appendAttribute(_ tag: XMLStartTag, to attributes: inout [Attribute]) {
        attributes.append(Self.blankAttribute)
        readAttribute(tag, into: &attributes[attributes.count - 1])
    }

    private func readAttribute(_ tag: XMLStartTag, into a: inout Attribute) {
        let location = tag.location
        a.location = location
        var hasName = false
        for index in 0..<tag.count {
            guard let term = attributeTerm(at: index, in: tag) else { continue }
            switch term {
            case .name: a.name = tag.value(at: index); hasName = true
            case .attributeType:
                // Written plainly the spelling matches as bytes; with character references, decoded.
                if let known = tag.withRawValue(at: index, AttributeType.init(xmlSpelling:)) {
                    a.type = known
                } else {
                    let value = tag.value(at: index)
                    if let known = AttributeType(xmlName: value) {
                        a.type = known
                    } else {
                        diagnostics.emit(.unknownAttributeType(value, at: location))
                    }
                }
            case .optional: a.isOptional = tag.isYes(at: index)
            case .transient: a.isTransient = tag.isYes(at: index)
            case .defaultValueString: a.defaultValueString = tag.value(at: index)
            case .defaultDateTimeInterval: a.defaultDateTimeInterval = tag.value(at: index)
            case .minValueString: a.minValueString = tag.value(at: index)
            case .maxValueString: a.maxValueString = tag.value(at: index)
            case .minDateTimeInterval: a.minDateTimeInterval = tag.value(at: index)
            case .maxDateTimeInterval: a.maxDateTimeInterval = tag.value(at: index)
            case .regularExpressionString: a.regularExpressionString = tag.value(at: index)
            case .usesScalarValueType: a.usesScalarValueType = tag.isYes(at: index)
            case .customClassName: a.customClassName = tag.value(at: index)
            case .valueTransformerName: a.valueTransformerName = tag.value(at: index)
            case .allowsExternalBinaryDataStorage: a.allowsExternalBinaryDataStorage = tag.isYes(at: index)
            case .indexed: a.isIndexed = tag.isYes(at: index)
            case .spotlightIndexingEnabled: a.isIndexedBySpotlight = tag.isYes(at: index)
            case .storedInTruthFile: a.isStoredInTruthFile = tag.isYes(at: index)
            case .allowsCloudEncryption: a.allowsCloudEncryption = tag.isYes(at: index)
            case .preserveAfterDeletion: a.preservesValueInHistoryOnDeletion = tag.isYes(at: index)
            case .syncable: a.isSyncable = tag.isYes(at: index)
            case .versionHashModifier: a.versionHashModifier = tag.value(at: index)
            case .elementID: a.renamingIdentifier = tag.value(at: index)
            case .derived: a.isDerived = tag.isYes(at: index)
            case .derivationExpression: a.derivationExpression = tag.value(at: index)
            case .composite: a.compositeName = tag.value(at: index)
            default: break
            }
        }
        if !hasName { diagnostics.emit(.missingAttribute("name", on: "attribute", at: location)) }
    }

    /// An attribute with every value unset, copied for each `<attribute>`: cheaper than
    /// calling the initializer with its many defaults.
    private static let blankAttribute = Attribute(name: "", type: .undefined)

    private func readRelationship(_ tag: XMLStartTag) -> Relationship {
        let location = tag.location
        var r = Relationship(name: "", destinationEntityName: "", location: location)
        var name: String?, destination: String?, minCount: String?, maxCount: String?
        for index in 0..<tag.count {
            guard let term = attributeTerm(at: index, in: tag) else { continue }
            switch term {
            case .name: name = tag.value(at: index)
            case .optional: r.isOptional = tag.isYes(at: index)
            case .transient: r.isTransient = tag.isYes(at: index)
            case .toMany: r.isToMany = tag.isYes(at: index)
            case .ordered: r.isOrdered = tag.isYes(at: index)
            case .minCount: minCount = tag.value(at: index)
            case .maxCount: maxCount = tag.value(at: index)
            case .deletionRule:
                let value = tag.value(at: index)
                if let known = DeleteRule(xmlName: value) {
                    r.deleteRule = known
                } else {
                    diagnostics.emit(.unknownDeleteRule(value, at: location))
                }
            case .destinationEntity: destination = tag.value(at: index)
            case .inverseName: r.inverseName = tag.value(at: index)
            case .inverseEntity: r.inverseEntityName = tag.value(at: index)
            case .indexed: r.isIndexed = tag.isYes(at: index)
            case .syncable: r.isSyncable = tag.isYes(at: index)
            case .elementID: r.renamingIdentifier = tag.value(at: index)
            case .versionHashModifier: r.versionHashModifier = tag.value(at: index)
            default: break
            }
        }
        // In the order the element's values have always been checked.
        r.name = required(name, .name, of: tag, at: location)
        r.minCount = integer(minCount, .minCount, at: location)
        r.maxCount = integer(maxCount, .maxCount, at: location)
        r.destinationEntityName = required(destination, .destinationEntity, of: tag, at: location)
        return r
    }

    private func startFetchedProperty(_ tag: XMLStartTag) {
        let location = tag.location
        let name = value(of: .name, in: tag)
        fetchedPropertyHasName = name != nil
        fetchedProperty = FetchedProperty(
            name: name ?? "", isOptional: flag(.optional, in: tag),
            isSyncable: flag(.syncable, in: tag),
            fetchRequest: FetchRequestTemplate(name: "fetchedPropertyFetchRequest", entityName: "", location: location),
            location: location)
        fetchedPropertyHasRequest = false
        propertyHasUserInfo = false
    }

    /// A fetched property's missing name is reported after its fetch request's problems, as
    /// the request is read first.
    private func endFetchedProperty() {
        if !fetchedPropertyHasName {
            diagnostics.emit(.missingAttribute("name", on: "fetchedProperty", at: fetchedProperty.location))
        }
        entity.fetchedProperties.append(fetchedProperty)
    }

    // MARK: - Requests, indexes, configurations

    private func readFetchRequest(_ tag: XMLStartTag) -> FetchRequestTemplate {
        let location = tag.location
        var request = FetchRequestTemplate(name: "", entityName: "", location: location)
        var name: String?, entityName: String?, limit: String?, batchSize: String?, resultType: String?
        for index in 0..<tag.count {
            guard let term = attributeTerm(at: index, in: tag) else { continue }
            switch term {
            case .name: name = tag.value(at: index)
            case .entity: entityName = tag.value(at: index)
            case .predicateString: request.predicateString = tag.value(at: index)
            case .fetchLimit: limit = tag.value(at: index)
            case .fetchBatchSize: batchSize = tag.value(at: index)
            case .resultType: resultType = tag.value(at: index)
            case .includeSubentities: request.includesSubentities = tag.isYes(at: index)
            case .includePropertyValues: request.includesPropertyValues = tag.isYes(at: index)
            case .includesPendingChanges: request.includesPendingChanges = tag.isYes(at: index)
            case .returnObjectsAsFaults: request.returnsObjectsAsFaults = tag.isYes(at: index)
            case .returnDistinctResults: request.returnsDistinctResults = tag.isYes(at: index)
            default: break
            }
        }
        request.name = required(name, .name, of: tag, at: location)
        request.entityName = required(entityName, .entity, of: tag, at: location)
        request.fetchLimit = integer(limit, .fetchLimit, at: location)
        request.fetchBatchSize = integer(batchSize, .fetchBatchSize, at: location)
        request.resultType = integer(resultType, .resultType, at: location)
        return request
    }

    private func startFetchIndex(_ tag: XMLStartTag) {
        let location = tag.location
        fetchIndex = FetchIndex(
            name: required(value(of: .name, in: tag), .name, of: tag, at: location),
            partialIndexPredicate: value(of: .partialIndexPredicate, in: tag), elements: [], location: location)
    }

    private func readFetchIndexElement(_ tag: XMLStartTag) -> FetchIndexElement {
        FetchIndexElement(
            propertyName: value(of: .property, in: tag), expression: value(of: .expression, in: tag),
            expressionType: value(of: .expressionType, in: tag), type: value(of: .type, in: tag) ?? "Binary",
            isAscending: value(of: .order, in: tag) != "descending", location: tag.location)
    }

    private func startConfiguration(_ tag: XMLStartTag) {
        let location = tag.location
        configuration = Configuration(
            name: required(value(of: .name, in: tag), .name, of: tag, at: location),
            usedWithCloudKit: flag(.usedWithCloudKit, in: tag), memberEntityNames: [], location: location)
    }

    private func startComposite(_ tag: XMLStartTag) {
        let location = tag.location
        composite = CompositeDefinition(
            name: required(value(of: .name, in: tag), .name, of: tag, at: location), attributes: [],
            location: location)
    }

    // MARK: - Values

    private func attributeTerm(at index: Int, in tag: XMLStartTag) -> ModelTerm? {
        ModelTerm(rawValue: tag.attributeTerm(at: index))
    }

    /// The value of the attribute `term` names, or `nil` when the tag has none.
    private func value(of term: ModelTerm, in tag: XMLStartTag) -> String? {
        for index in 0..<tag.count where tag.attributeTerm(at: index) == term.rawValue {
            return tag.value(at: index)
        }
        return nil
    }

    /// Whether the attribute `term` names is written `YES`.
    private func flag(_ term: ModelTerm, in tag: XMLStartTag) -> Bool {
        for index in 0..<tag.count where tag.attributeTerm(at: index) == term.rawValue {
            return tag.isYes(at: index)
        }
        return false
    }

    private func required(_ value: String?, _ term: ModelTerm, of tag: XMLStartTag, at location: SourceLocation) -> String {
        if let value { return value }
        diagnostics.emit(.missingAttribute("\(term)", on: tag.name, at: location))
        return ""
    }

    private func integer(_ text: String?, _ term: ModelTerm, at location: SourceLocation) -> Int? {
        guard let text else { return nil }
        if let value = Int(text) { return value }
        diagnostics.emit(.invalidNumber("\(term)", text, at: location))
        return nil
    }
}

/// The value of `variable`, leaving `replacement` in its place.
private func take<Value>(_ variable: inout Value, _ replacement: Value) -> Value {
    var value = replacement
    swap(&value, &variable)
    return value
}
