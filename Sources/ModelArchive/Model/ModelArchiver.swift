import Foundation
import ModelExpression
import ModelSchema

/// Turns a model version into the NSKeyedArchiver archive momc writes as a `.mom`.
///
/// Keys, classes and flag words follow Xcode's own `.mom` files: own
/// properties only in `NSProperties`, both object references and names for destinations and
/// inverses, the renaming identifier defaulting to the name, `_P` flag words, and
/// `NSCompoundIndexes` mirroring every fetch index of several elements (an attribute alone in an
/// ascending fetch index is marked `NSIsIndexed` instead).
public struct ModelArchiver: ~Copyable {
    public struct Options: Sendable {
        /// The momc to emulate: whether and which compiler identity the archive records.
        public var compilerVersion: CompilerVersion

        public init(compilerVersion: CompilerVersion = .newestVerified) {
            self.compilerVersion = compilerVersion
        }
    }

    /// Where an entity's property comes from, in the order `NSProperties` lists it.
    private enum PropertySource {
        case attribute(Int)
        case relationship(Int)
        case fetchedProperty(Int)
    }

    /// An object on the work list of ``run(_:)``: what it is, and how far its fields are appended.
    private struct Frame {
        enum Kind {
            case entity(Int)
            case property(position: Int, entity: Int)
            case fetchRequest(FetchRequestTemplate)
        }

        /// What a step of a frame ends with: a new object to number first, or the frame's number.
        enum Outcome {
            case wait(Kind)
            case done(UInt32)
        }

        /// How far a frame is: an entity appends its superentity at the start, then the members
        /// of `NSSubentities` and of `NSProperties`; a property its entity's number at the start,
        /// then a relationship's destination and inverse, or a fetched property's fetch request.
        enum Stage {
            case start, subentities, properties, destination, inverse, fetchRequest
        }

        let kind: Kind
        let object: KeyedArchiveWriter.OpenObject
        var stage = Stage.start
        /// The dictionary whose members an entity is appending.
        var dictionary: KeyedArchiveWriter.OpenObject?
        /// The next member of that dictionary.
        var cursor = 0
    }

    private let version: ModelVersion
    /// `version.entities`, borrowed while archiving: reading an entity or attribute through it
    /// copies only the fields read, where `version.entities[index]` copies the whole value,
    /// since the archiver mutates itself in between.
    private let entities: UnsafeBufferPointer<Entity>
    private let options: Options
    private var writer = KeyedArchiveWriter()
    /// Per entity, the attributes a one-element fetch index marks indexed; computed when first needed.
    private var indexedAlone: [Int: Set<String>] = [:]
    private var modelNumber: UInt32 = 0
    /// The entities in archive order (indexes into `entities`), each name's first.
    private var entityOrder: [Int] = []
    private var entityIndexes: [String: Int] = [:]
    /// By entity index: its superentity's and subentities' indexes, computed once.
    private var parentIndexes: [Int?] = []
    private var subentityIndexes: [[Int]] = []
    /// By entity index: its object number, 0 until it is numbered (0 is `$null`, never an entity).
    private var entityNumbers: [UInt32] = []
    /// By entity index: its properties in archive order, once needed, and their object numbers.
    private var propertySources: [[(name: String, source: PropertySource)]?] = []
    private var propertyNumbers: [[UInt32]] = []
    /// By entity index: the numbers of its property names' strings, once `NSProperties` has
    /// numbered them, so that the properties need not hash their names again.
    private var propertyNameNumbers: [[UInt32]] = []
    /// By ``AttributeValues/valueClassNames`` index: the number of the class name's string, 0
    /// until numbered.
    private var valueClassNumbers = [UInt32](repeating: 0, count: AttributeValues.valueClassNames.count)
    /// Foundation's shared empty dictionary: every entity without userInfo refers to this one.
    private var emptyUserInfoNumber: UInt32 = 0
    /// The decimal defaults parsed so far, by text: models repeat a few (`0`, `0.0`).
    private var decimals: [String: AttributeValues.DecimalNumber] = [:]
    /// The number of the object the work list finished last, which the object waiting on it reads.
    private var lastNumbered: UInt32 = 0

    /// The `.mom` bytes of `version`: its objects go straight into a ``KeyedArchiveWriter`` as
    /// NSKeyedArchiver would number them, with no object graph in between.
    public static func archive(_ version: ModelVersion, options: Options = Options()) -> [UInt8] {
        version.entities.withUnsafeBufferPointer { entities in
            var archiver = ModelArchiver(version: version, entities: entities, options: options)
            let top = archiver.numberModel()
            return archiver.writer.encoded(top: top)
        }
    }

    private init(version: ModelVersion, entities: UnsafeBufferPointer<Entity>, options: Options) {
        self.version = version
        self.entities = entities
        self.options = options
    }

    // MARK: - Model

    /// Numbers the model object (the archive's root) and, depth-first, everything it refers to.
    private mutating func numberModel() -> UInt32 {
        let count = entities.count
        // A property has up to about 16 fields, with its place in its entity's dictionary; an
        // entity about 32 with its dictionaries.
        let properties = entities.indices.reduce(0) { total, index in
            let entity = entities.baseAddress! + index
            return total + entity.pointee.attributes.count + entity.pointee.relationships.count
        }
        writer.reserveCapacity(fields: 16 * properties + 32 * count)
        entityOrder = uniqueEntityIndexes()
        entityIndexes.reserveCapacity(entityOrder.count)
        for index in entityOrder { entityIndexes[entities[index].name] = index }
        parentIndexes = Array(repeating: nil, count: count)
        subentityIndexes = Array(repeating: [], count: count)
        for index in entityOrder {
            if let parentName = entities[index].parentEntityName, let parent = entityIndexes[parentName] {
                parentIndexes[index] = parent
                subentityIndexes[parent].append(index)
            }
        }
        entityNumbers = Array(repeating: 0, count: count)
        propertySources = Array(repeating: nil, count: count)
        propertyNumbers = Array(repeating: [], count: count)
        propertyNameNumbers = Array(repeating: [], count: count)

        let model = writer.beginObject()
        modelNumber = model.number
        writer.append(.entities, object: dictionaryNumber(
            keys: entityOrder.map { entities[$0].name }, members: entityOrder) { $0.entityNumber($1) })
        if let tool = options.compilerVersion.toolVersion, let xcode = options.compilerVersion.xcodeVersion {
            writer.append(.compilerToolVersion, real: tool)
            writer.append(.compilerXcodeVersion, integer: Int64(xcode))
        }
        if version.fetchRequests.isEmpty {
            writer.appendNull(.fetchRequestTemplates)
        } else {
            let requests = version.fetchRequests.sorted(by: { NameOrder.precedes($0.name, $1.name) })
            writer.append(.fetchRequestTemplates, object: dictionaryNumber(
                keys: requests.map(\.name), members: requests) { $0.run(.fetchRequest($1)) })
        }
        writer.append(.versionIdentifiers, .object(
            ArchiveClass.arrayObject([.string(version.versionIdentifier)], chain: .set)))
        if !version.configurations.isEmpty {
            let configurations = version.configurations.sorted(by: { NameOrder.precedes($0.name, $1.name) })
            writer.append(.configurations, object: dictionaryNumber(
                keys: configurations.map(\.name), members: configurations) { archiver, configuration in
                    let members = configuration.memberEntityNames.sorted(by: NameOrder.precedes)
                        .compactMap { archiver.entityIndexes[$0] }
                    return archiver.arrayNumber(members, chain: .set) { $0.entityNumber($1) }
                })
        }
        writer.endObject(model, chain: .model)
        return model.number
    }

    /// Whether every name is ASCII, where equal strings are equal bytes (elsewhere canonically
    /// equivalent strings, such as a precomposed and a decomposed `é`, are equal too).
    private static func isASCII(_ names: [String]) -> Bool {
        names.allSatisfy { name in
            name.utf8.withContiguousStorageIfAvailable { $0.reduce(0, |) < 0x80 } ?? false
        }
    }

    /// Entities by first declaration (duplicates are a validation error and are not compiled).
    private func uniqueEntityIndexes() -> [Int] {
        var seen = Set<String>()
        return NameOrder.sortedPositions(of: entities.map { $0.name }).filter { seen.insert(entities[$0].name).inserted }
    }

    // MARK: - Containers

    /// Numbers an NSDictionary (mutable unless `chain` says otherwise) whose `NS.objects` are
    /// the objects `number` numbers for `members`, after its string `keys`.
    private mutating func dictionaryNumber<Members: Collection>(
        keys: [String], members: Members, chain: ArchiveClass = .mutableDictionary,
        _ number: (inout ModelArchiver, Members.Element) -> UInt32
    ) -> UInt32 {
        let dictionary = beginDictionary(keys: keys)
        for member in members { writer.appendMember(object: number(&self, member)) }
        writer.endObject(dictionary, chain: chain)
        return dictionary.number
    }

    /// Numbers an NSArray (mutable unless `chain` says otherwise) of the objects `number`
    /// numbers for `members`.
    private mutating func arrayNumber<Members: Collection>(
        _ members: Members, chain: ArchiveClass = .mutableArray,
        _ number: (inout ModelArchiver, Members.Element) -> UInt32
    ) -> UInt32 {
        let array = writer.beginObject()
        writer.appendArray(.objects, count: members.count)
        for member in members { writer.appendMember(object: number(&self, member)) }
        writer.endObject(array, chain: chain)
        return array.number
    }

    // MARK: - Entities

    /// The number of the entity at `index` in `entities`, numbering it and what it refers to
    /// when new.
    private mutating func entityNumber(_ index: Int) -> UInt32 {
        entityNumbers[index] != 0 ? entityNumbers[index] : run(.entity(index))
    }

    // MARK: - Work list

    /// Numbers the object `start` describes and, depth-first, every new object it refers to,
    /// as NSKeyedArchiver would, but with a work list of open objects instead of recursion:
    /// an object that meets a new one it refers to waits on the list while that one is
    /// numbered, so no depth of inheritance or chain of relationships can exhaust the stack.
    private mutating func run(_ start: Frame.Kind) -> UInt32 {
        var frames = [begin(start)]
        while let top = frames.indices.last {
            switch step(&frames[top]) {
            case .wait(let kind):
                frames.append(begin(kind))
            case .done(let number):
                frames.removeLast()
                lastNumbered = number
            }
        }
        return lastNumbered
    }

    /// Begins the object `kind` describes, which has no number yet.
    private mutating func begin(_ kind: Frame.Kind) -> Frame {
        let object = writer.beginObject()
        switch kind {
        case .entity(let index):
            entityNumbers[index] = object.number
            let entity = entities.baseAddress! + index
            writer.append(.entityName, string: entity.pointee.name)
            writer.append(.classNameForEntity, string: entity.pointee.representedClassName ?? "NSManagedObject")
            writer.append(.managedObjectModel, object: modelNumber)
        case .property(let position, let entityIndex):
            _ = propertyList(of: entityIndex)
            propertyNumbers[entityIndex][position] = object.number
        case .fetchRequest:
            break
        }
        return Frame(kind: kind, object: object)
    }

    /// Appends the frame's fields up to the first one that refers to a new object, or to its end.
    private mutating func step(_ frame: inout Frame) -> Frame.Outcome {
        switch frame.kind {
        case .entity(let index): entityStep(&frame, index)
        case .property(let position, let entityIndex): propertyStep(&frame, position, entityIndex)
        case .fetchRequest(let request): fetchRequestStep(&frame, request)
        }
    }

    /// The fields of an entity, stage by stage (``Frame/Stage``).
    private mutating func entityStep(_ frame: inout Frame, _ index: Int) -> Frame.Outcome {
        let entity = entities.baseAddress! + index
        if frame.stage == .start {
            if let parent = parentIndexes[index] {
                if entityNumbers[parent] == 0 { return .wait(.entity(parent)) }
                writer.append(.superentity, object: entityNumbers[parent])
            } else {
                writer.appendNull(.superentity)
            }
            let subentities = subentityIndexes[index]
            frame.dictionary = beginDictionary(keys: subentities.map { entities[$0].name })
            frame.stage = .subentities
        }
        if frame.stage == .subentities {
            let subentities = subentityIndexes[index]
            while frame.cursor < subentities.count {
                let subentity = subentities[frame.cursor]
                if entityNumbers[subentity] == 0 { return .wait(.entity(subentity)) }
                writer.appendMember(object: entityNumbers[subentity])
                frame.cursor += 1
            }
            writer.endObject(frame.dictionary!, chain: .mutableDictionary)
            writer.append(.subentities, object: frame.dictionary!.number)
            writer.append(.renamingIdentifier, string: entity.pointee.renamingIdentifier ?? entity.pointee.name)
            writer.append(.versionHashModifier, string: entity.pointee.versionHashModifier)
            writer.append(.userInfo, object: userInfoNumber(entity.pointee.userInfo))
            if entity.pointee.isAbstract { writer.append(.isAbstract, bool: true) }
            frame.dictionary = beginDictionary(keys: propertyList(of: index).map(\.name), recordingKeysOf: index)
            frame.cursor = 0
            frame.stage = .properties
        }
        let count = propertyList(of: index).count
        while frame.cursor < count {
            if propertyNumbers[index][frame.cursor] == 0 { return .wait(.property(position: frame.cursor, entity: index)) }
            writer.appendMember(object: propertyNumbers[index][frame.cursor])
            frame.cursor += 1
        }
        writer.endObject(frame.dictionary!, chain: .mutableDictionary)
        writer.append(.properties, object: frame.dictionary!.number)
        let object = frame.object
        if !entity.pointee.uniquenessConstraints.isEmpty {
            writer.append(.uniqueTuples, .object(
                ArchiveClass.arrayObject(
                    entity.pointee.uniquenessConstraints.map { .object(ArchiveClass.arrayObject($0.map { .string($0) })) })))
        }
        if !entity.pointee.fetchIndexes.isEmpty {
            writer.append(.fetchIndexDescriptions, object: arrayNumber(entity.pointee.fetchIndexes) {
                $0.fetchIndexNumber($1, entityNumber: object.number)
            })
        }
        if !entity.pointee.compoundIndexes.isEmpty || !entity.pointee.fetchIndexes.isEmpty {
            let compound = entity.pointee.compoundIndexes
                + entity.pointee.fetchIndexes.filter { $0.elements.count > 1 }.map { $0.elements.compactMap(\.propertyName) }
            writer.append(.compoundIndexes, .object(
                ArchiveClass.arrayObject(compound.map { .object(ArchiveClass.arrayObject($0.map { .string($0) })) })))
        }
        writer.endObject(object, chain: .entity)
        return .done(object.number)
    }

    /// Begins an NSMutableDictionary whose `NS.objects` the caller then appends, after its
    /// string `keys`; the numbers of an entity's `NSProperties` keys are kept in `propertyNameNumbers`.
    private mutating func beginDictionary(keys: [String], recordingKeysOf entityIndex: Int? = nil) -> KeyedArchiveWriter.OpenObject {
        let dictionary = writer.beginObject()
        writer.appendArray(.keys, count: keys.count)
        let numbers = keys.map { writer.number(for: $0) }
        for key in numbers { writer.appendMember(object: key) }
        if let entityIndex { propertyNameNumbers[entityIndex] = numbers }
        writer.appendArray(.objects, count: keys.count)
        return dictionary
    }

    /// The own properties of the entity at `index`, in the order `NSProperties` lists them:
    /// attributes, relationships, then fetched properties, each by name, the first of a name only.
    /// A relationship's fields come from the first relationship of its name in the XML.
    private mutating func propertyList(of index: Int) -> [(name: String, source: PropertySource)] {
        if let known = propertySources[index] { return known }
        let entity = entities.baseAddress! + index
        var list = [(name: String, source: PropertySource)]()
        list.reserveCapacity(entity.pointee.attributes.count + entity.pointee.relationships.count + entity.pointee.fetchedProperties.count)
        // Entities have a few properties: scanning the list beats hashing every name into a set.
        var seen = list.capacity > 32 ? Set<String>(minimumCapacity: list.capacity) : nil
        func isNew(_ name: String) -> Bool {
            if seen != nil { return seen!.insert(name).inserted }
            return !list.contains { $0.name == name }
        }
        let attributeNames = entity.pointee.attributes.map { $0.name }
        let attributeOrder = NameOrder.sortedPositions(of: attributeNames)
        if seen == nil, Self.isASCII(attributeNames) {
            // ASCII names are equal only when their bytes are, so sorted, a name can only repeat
            // its neighbour: no need to compare it with every name before it.
            for (rank, position) in attributeOrder.enumerated()
            where rank == 0 || attributeNames[position] != attributeNames[attributeOrder[rank - 1]] {
                list.append((attributeNames[position], .attribute(position)))
            }
        } else {
            for position in attributeOrder where isNew(attributeNames[position]) {
                list.append((attributeNames[position], .attribute(position)))
            }
        }
        let relationshipNames = entity.pointee.relationships.map { $0.name }
        for position in NameOrder.sortedPositions(of: relationshipNames) where isNew(relationshipNames[position]) {
            let name = relationshipNames[position]
            list.append((name, .relationship(relationshipNames.firstIndex(of: name) ?? position)))
        }
        let fetchedNames = entity.pointee.fetchedProperties.map { $0.name }
        for position in NameOrder.sortedPositions(of: fetchedNames) where isNew(fetchedNames[position]) {
            list.append((fetchedNames[position], .fetchedProperty(position)))
        }
        propertySources[index] = list
        propertyNumbers[index] = Array(repeating: 0, count: list.count)
        return list
    }

    /// The fields of the property at `position` in the entity's ``propertyList(of:)``, stage by
    /// stage (``Frame/Stage``).
    private mutating func propertyStep(_ frame: inout Frame, _ position: Int, _ entityIndex: Int) -> Frame.Outcome {
        let source = propertyList(of: entityIndex)[position].source
        if frame.stage == .start {
            if entityNumbers[entityIndex] == 0 { return .wait(.entity(entityIndex)) }
            let entityNumber = entityNumbers[entityIndex]
            let names = propertyNameNumbers[entityIndex]
            let nameNumber = names.isEmpty ? nil : names[position]
            switch source {
            case .attribute(let index):
                if indexedAlone[entityIndex] == nil { indexedAlone[entityIndex] = entities[entityIndex].attributesIndexedAlone }
                let alone = indexedAlone[entityIndex]!.contains(entities[entityIndex].attributes[index].name)
                let chain = entities[entityIndex].attributes.withUnsafeBufferPointer { attributes in
                    fillAttribute(attributes.baseAddress! + index, nameNumber: nameNumber, entityNumber: entityNumber, indexedAlone: alone)
                }
                writer.endObject(frame.object, chain: chain)
                return .done(frame.object.number)
            case .relationship(let index):
                entities[entityIndex].relationships.withUnsafeBufferPointer { relationships in
                    beginRelationship(relationships.baseAddress! + index, nameNumber: nameNumber, entityNumber: entityNumber)
                }
                frame.stage = .destination
            case .fetchedProperty(let index):
                let fetched = entities[entityIndex].fetchedProperties[index]
                beginFetchedProperty(fetched, nameNumber: nameNumber, entityNumber: entityNumber)
                frame.stage = .fetchRequest
                return .wait(.fetchRequest(fetched.fetchRequest))
            }
        }
        if frame.stage == .fetchRequest, case .fetchedProperty(let index) = source {
            writer.append(.fetchRequest, object: lastNumbered)
            writer.append(.fetchRequestEntityName, string: entities[entityIndex].fetchedProperties[index].fetchRequest.entityName)
            writer.endObject(frame.object, chain: .fetchedProperty)
            return .done(frame.object.number)
        }
        guard case .relationship(let index) = source else { preconditionFailure("only a relationship has more stages") }
        let relationship = entities.baseAddress![entityIndex].relationships[index]
        let destination = entityIndexes[relationship.destinationEntityName]
        if frame.stage == .destination {
            if let destination {
                if entityNumbers[destination] == 0 { return .wait(.entity(destination)) }
                writer.append(.destinationEntity, object: entityNumbers[destination])
            } else {
                writer.appendNull(.destinationEntity)
            }
            writer.append(.destinationEntityName, string: relationship.destinationEntityName)
            frame.stage = .inverse
        }
        if let name = relationship.inverseName, let destination, let inverse = inheritedProperty(name, of: destination) {
            if propertyNumbers[inverse.entity][inverse.position] == 0 {
                return .wait(.property(position: inverse.position, entity: inverse.entity))
            }
            writer.append(.inverseRelationship, object: propertyNumbers[inverse.entity][inverse.position])
        } else {
            writer.appendNull(.inverseRelationship)
        }
        writer.append(.inverseRelationshipName, string: relationship.inverseName)
        writer.append(.deleteRule, integer: Int64(relationship.deleteRule.rawValue))
        writer.append(.minCount, integer: Int64(relationship.effectiveMinCount))
        writer.append(.maxCount, integer: Int64(relationship.effectiveMaxCount))
        writer.endObject(frame.object, chain: .relationship)
        return .done(frame.object.number)
    }

    private mutating func fetchIndexNumber(_ index: FetchIndex, entityNumber: UInt32) -> UInt32 {
        let object = writer.beginObject()
        writer.append(.indexName, string: index.name)
        writer.append(.partialIndexPredicate, index.partialIndexPredicate.map { predicateValue($0) } ?? .null)
        writer.append(.indexElements, object: arrayNumber(index.elements, chain: .array) { archiver, element in
            let item = archiver.writer.beginObject()
            archiver.writer.append(.propertyName, string: element.propertyName)
            archiver.writer.append(.fetchIndexElementType, integer: element.type == "RTree" ? 1 : 0)
            archiver.writer.append(.fetchIndexDescription, object: object.number)
            archiver.writer.append(.ascending, bool: element.isAscending)
            archiver.writer.endObject(item, chain: .fetchIndexElement)
            return item.number
        })
        writer.append(.entity, object: entityNumber)
        writer.endObject(object, chain: .fetchIndex)
        return object.number
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

    /// Appends the fields every property starts with; `nameNumber` is the number of the name's
    /// string when `NSProperties` has numbered it already.
    private mutating func appendCommon(
        name: String, nameNumber: UInt32?, entityNumber: UInt32, renamingIdentifier: String?,
        isOptional: Bool, isTransient: Bool, userInfo: UserInfo, modifier: String?
    ) {
        let nameNumber = nameNumber ?? writer.number(for: name)
        writer.append(.propertyName, object: nameNumber)
        writer.append(.entity, object: entityNumber)
        writer.append(.renamingIdentifier, object: renamingIdentifier.map { writer.number(for: $0) } ?? nameNumber)
        if isOptional { writer.append(.isOptional, bool: true) }
        if isTransient { writer.append(.isTransient, bool: true) }
        if let userInfo, !userInfo.isEmpty { writer.append(.userInfo, object: userInfoNumber(userInfo)) }
        if let modifier { writer.append(.versionHashModifier, string: modifier) }
    }

    /// Appends the fields of the attribute `attribute` points to, read in place rather than
    /// copied; returns its class chain.
    private mutating func fillAttribute(
        _ attribute: UnsafePointer<Attribute>, nameNumber: UInt32?, entityNumber: UInt32, indexedAlone: Bool
    ) -> ArchiveClass {
        appendCommon(
            name: attribute.pointee.name, nameNumber: nameNumber, entityNumber: entityNumber, renamingIdentifier: attribute.pointee.renamingIdentifier,
            isOptional: attribute.pointee.isOptional, isTransient: attribute.pointee.isTransient,
            userInfo: attribute.pointee.userInfo, modifier: attribute.pointee.versionHashModifier)
        let hasUserInfo = !(attribute.pointee.userInfo ?? []).isEmpty
        let validation = ValidationPredicates.of(attribute)
        writer.append(.propertyFlags, integer: Self.propertyFlags(
            isOptional: attribute.pointee.isOptional, isTransient: attribute.pointee.isTransient,
            isReadOnly: attribute.pointee.isDerived, hasUserInfo: hasUserInfo,
            hasModifier: attribute.pointee.versionHashModifier != nil,
            isSpotlightIndexed: attribute.pointee.isIndexedBySpotlight,
            isStoredInTruthFile: attribute.pointee.isStoredInTruthFile,
            allowsCloudEncryption: attribute.pointee.allowsCloudEncryption, hasValidation: !validation.isEmpty))
        if !validation.isEmpty {
            writer.append(.validationPredicates, .object(
                ArchiveClass.arrayObject(ValidationPredicates.archived(validation, of: attribute).map { .object($0) })))
            writer.append(.validationWarnings, .object(ArchiveClass.arrayObject(validation.map { .number(.integer($0.warning)) })))
        }
        if attribute.pointee.isIndexedBySpotlight { writer.append(.indexedBySpotlight, bool: true) }
        if attribute.pointee.isStoredInTruthFile { writer.append(.isStoredInTruth, bool: true) }
        if attribute.pointee.allowsCloudEncryption { writer.append(.allowsCloudEncryption, bool: true) }
        if attribute.pointee.isIndexed || indexedAlone { writer.append(.isIndexed, bool: true) }
        let type = attribute.pointee.type
        writer.append(.attributeType, integer: Int64(type.rawValue))
        if let index = AttributeValues.valueClassIndex(type) {
            if valueClassNumbers[index] == 0 {
                valueClassNumbers[index] = writer.number(for: AttributeValues.valueClassNames[index])
            }
            writer.append(.attributeValueClassName, object: valueClassNumbers[index])
        } else if let name = AttributeValues.customValueClassName(attribute.pointee) {
            writer.append(.attributeValueClassName, string: name)
        } else {
            writer.appendNull(.attributeValueClassName)
        }
        AttributeValues.appendDefaultValue(of: attribute, to: &writer, decimals: &decimals)
        writer.append(.valueTransformerName, string: attribute.pointee.valueTransformerName)
        var flags: Int64 = 0
        if attribute.pointee.allowsExternalBinaryDataStorage { flags |= 0x04 }
        if attribute.pointee.preservesValueInHistoryOnDeletion { flags |= 0x10 }
        writer.append(.flags, integer: flags)
        let isDerived = attribute.pointee.isDerived
        if isDerived, let expression = attribute.pointee.derivationExpression {
            writer.append(.isReadOnly, bool: true)
            writer.append(.derivationExpression, derivationValue(expression))
            writer.appendNull(.filteringPredicate)
        }
        return isDerived ? .derivedAttribute : type == .composite ? .compositeAttribute : .attribute
    }

    /// Appends a relationship's fields up to its destination, which ``propertyStep(_:_:_:)``
    /// appends once the destination is numbered.
    private mutating func beginRelationship(
        _ relationship: UnsafePointer<Relationship>, nameNumber: UInt32?, entityNumber: UInt32
    ) {
        appendCommon(
            name: relationship.pointee.name, nameNumber: nameNumber, entityNumber: entityNumber, renamingIdentifier: relationship.pointee.renamingIdentifier,
            isOptional: relationship.pointee.isOptional, isTransient: relationship.pointee.isTransient,
            userInfo: relationship.pointee.userInfo, modifier: relationship.pointee.versionHashModifier)
        writer.append(.propertyFlags, integer: Self.propertyFlags(
            isOptional: relationship.pointee.isOptional, isTransient: relationship.pointee.isTransient,
            hasUserInfo: !(relationship.pointee.userInfo ?? []).isEmpty,
            hasModifier: relationship.pointee.versionHashModifier != nil, isOrdered: relationship.pointee.isOrdered))
        if relationship.pointee.isOrdered { writer.append(.isOrdered, bool: true) }
        if relationship.pointee.isIndexed { writer.append(.isIndexed, bool: true) }
    }

    /// The property `name` of an entity or of its nearest ancestor that declares it: the
    /// entity's index and the property's position in its ``propertyList(of:)``.
    private mutating func inheritedProperty(_ name: String, of entityIndex: Int) -> (entity: Int, position: Int)? {
        var current: Int? = entityIndex
        // A chain longer than the number of entities is a cycle, which validation reports.
        var steps = 0
        while let entity = current, steps < entityOrder.count {
            if let position = propertyList(of: entity).firstIndex(where: { $0.name == name }) {
                return (entity, position)
            }
            current = parentIndexes[entity]
            steps += 1
        }
        return nil
    }

    /// Appends a fetched property's fields up to its fetch request, which
    /// ``propertyStep(_:_:_:)`` appends once numbered.
    private mutating func beginFetchedProperty(_ fetched: FetchedProperty, nameNumber: UInt32?, entityNumber: UInt32) {
        // A fetched property is always transient and read-only, as Core Data's own archives show.
        appendCommon(
            name: fetched.name, nameNumber: nameNumber, entityNumber: entityNumber, renamingIdentifier: nil, isOptional: fetched.isOptional,
            isTransient: true, userInfo: fetched.userInfo, modifier: nil)
        writer.append(.isReadOnly, bool: true)
        writer.append(.propertyFlags, integer: Self.propertyFlags(
            isOptional: fetched.isOptional, isTransient: true, isReadOnly: true,
            hasUserInfo: !(fetched.userInfo ?? []).isEmpty, hasModifier: false))
    }

    // MARK: - Values

    /// The number of a userInfo dictionary; every empty one is Foundation's shared empty dictionary.
    private mutating func userInfoNumber(_ userInfo: UserInfo) -> UInt32 {
        guard let userInfo, !userInfo.isEmpty else {
            if emptyUserInfoNumber == 0 {
                emptyUserInfoNumber = writer.number(for: ArchiveClass.dictionaryObject([], chain: .dictionary))
            }
            return emptyUserInfoNumber
        }
        return writer.number(for: ArchiveClass.dictionaryObject(
            userInfo.sorted(by: { NameOrder.precedes($0.key, $1.key) }).map { ($0.key, .string($0.value)) },
            chain: .dictionary))
    }

    /// The fields of a fetch request object, once the entity it fetches is numbered.
    private mutating func fetchRequestStep(_ frame: inout Frame, _ request: FetchRequestTemplate) -> Frame.Outcome {
        let object = frame.object
        if let entity = entityIndexes[request.entityName] {
            if entityNumbers[entity] == 0 { return .wait(.entity(entity)) }
            writer.append(.entity, object: entityNumbers[entity])
        } else {
            writer.appendNull(.entity)
        }
        writer.append(.predicate, request.predicateString.map { predicateValue($0) } ?? .null)
        writer.appendNull(.sortDescriptors)
        writer.appendNull(.valuesToFetch)
        writer.appendNull(.valuesToGroupBy)
        writer.appendNull(.havingPredicate)
        writer.appendNull(.relationshipKeyPathsForPrefetching)
        writer.append(.fetchOffset, integer: 0)
        writer.append(.allocationType, integer: 0)
        writer.append(.fetchLimit, integer: Int64(request.fetchLimit ?? 0))
        writer.append(.batchSize, integer: Int64(request.fetchBatchSize ?? 0))
        writer.append(.resultType, integer: Int64(request.resultType ?? 0))
        writer.append(.hasFetchRequestFlags, bool: true)
        var flags: Int64 = 0
        if request.includesSubentities { flags |= 0x1 }
        if request.includesPropertyValues { flags |= 0x2 }
        if request.returnsObjectsAsFaults { flags |= 0x4 }
        if request.includesPendingChanges { flags |= 0x8 }
        if request.returnsDistinctResults { flags |= 0x10 }
        writer.append(.fetchRequestFlags, integer: flags)
        writer.endObject(object, chain: .fetchRequest)
        return .done(object.number)
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
