import Foundation
import ModelExpression
import ModelSchema

/// Turns a `.mom` archive back into a model version: the way back to a source model when only
/// the compiled one (an app bundle's `.momd`, a store's model cache) survives.
///
/// What momc drops cannot come back: the XML's codegen settings (`usesScalarValueType`,
/// `codeGenerationType`), `syncable` and the diagram layout. A transformable's
/// `customClassName` comes back from `NSAttributeValueClassName`, where momc writes it. The
/// decoded model compiles to the same archive and has the same version hashes.
public enum ModelUnarchiver {
    public struct FormatError: Error, Sendable, CustomStringConvertible {
        public var description: String
    }

    public static func version(from bytes: [UInt8], name: String, path: String) throws -> ModelVersion {
        let model = try KeyedArchiveReader.unarchive(bytes)
        // The graph's cycles (entity ↔ model, relationship ↔ inverse) would keep it alive.
        defer { model.releaseGraph() }
        return try version(from: model, name: name, path: path)
    }

    public static func version(from model: ArchivedObject, name: String, path: String) throws -> ModelVersion {
        guard model.className == "NSManagedObjectModel" else {
            throw FormatError(description: "the archive holds a \(model.className), not an NSManagedObjectModel")
        }
        var version = ModelVersion(name: name, path: path)
        version.versionIdentifier = model["NSVersionIdentifiers"]?.object.map(items)?.compactMap(\.string).sorted().first ?? ""
        version.entities = droppingInheritedCopies(
            try entries(model["NSEntities"]).map { try entity($0.value) }.sorted { $0.name < $1.name })
        version.fetchRequests = entries(model["NSFetchRequestTemplates"]).compactMap { entry in
            entry.value.object.map { fetchRequest($0, name: entry.key) }
        }.sorted { $0.name < $1.name }
        version.configurations = entries(model["NSConfigurations"]).map { entry in
            let members = entry.value.object.map(items)?.compactMap { $0.object?["NSEntityName"]?.string } ?? []
            return Configuration(name: entry.key, memberEntityNames: members.sorted())
        }.sorted { $0.name < $1.name }
        return version
    }

    // MARK: - Entities

    /// The entities without the copies of inherited properties that model caches list in every
    /// subentity (a `.mom`, like Xcode's model, declares a property once, where it is owned):
    /// a subentity's property whose name its parent lists, own or copied, is the parent's.
    private static func droppingInheritedCopies(_ entities: [Entity]) -> [Entity] {
        var listed = [String: Set<String>]()
        for entity in entities { listed[entity.name] = Set(entity.ownPropertyNames) }
        return entities.map { entity in
            guard let parent = entity.parentEntityName, let inherited = listed[parent], !inherited.isEmpty else {
                return entity
            }
            var own = entity
            own.attributes.removeAll { inherited.contains($0.name) }
            own.relationships.removeAll { inherited.contains($0.name) }
            own.fetchedProperties.removeAll { inherited.contains($0.name) }
            return own
        }
    }

    private static func entity(_ value: ArchiveValue) throws -> Entity {
        guard let object = value.object, let name = object["NSEntityName"]?.string else {
            throw FormatError(description: "an entity has no name")
        }
        let className = object["NSClassNameForEntity"]?.string
        var entity = Entity(
            name: name, representedClassName: className == "NSManagedObject" ? nil : className,
            parentEntityName: object["NSSuperentity"]?.object?["NSEntityName"]?.string,
            isAbstract: object["NSIsAbstract"]?.bool ?? false, isSyncable: true,
            renamingIdentifier: renaming(object, name: name), versionHashModifier: object["NSVersionHashModifier"]?.string,
            userInfo: userInfo(object["NSUserInfo"]))
        for (propertyName, property) in entries(object["NSProperties"]) {
            guard let property = property.object else { continue }
            switch property.className {
            case "_NSPropertyDescriptionProxy":
                continue  // An inherited property, as older model caches list them in subentities.
            case "NSRelationshipDescription": entity.relationships.append(relationship(property, name: propertyName))
            case "NSFetchedPropertyDescription": entity.fetchedProperties.append(fetchedProperty(property, name: propertyName))
            default: entity.attributes.append(attribute(property, name: propertyName))
            }
        }
        entity.attributes.sort { $0.name < $1.name }
        entity.relationships.sort { $0.name < $1.name }
        entity.fetchedProperties.sort { $0.name < $1.name }
        entity.uniquenessConstraints = nameLists(object["NSUniqueTuples"])
        entity.fetchIndexes = (object["NSFetchIndexDescriptions"]?.object.map(items) ?? []).compactMap(\.object).map(fetchIndex)
        // momc mirrors each fetch index of several elements into NSCompoundIndexes; only the rest
        // were written as such.
        var compound = nameLists(object["NSCompoundIndexes"])
        for index in entity.fetchIndexes {
            if let position = compound.firstIndex(of: index.elements.compactMap(\.propertyName)) {
                compound.remove(at: position)
            }
        }
        entity.compoundIndexes = compound
        // momc marks an attribute alone in an ascending fetch index indexed; the source did not
        // say so (with or without `indexed="YES"`, the .mom is the same).
        let alone = entity.attributesIndexedAlone
        for position in entity.attributes.indices where alone.contains(entity.attributes[position].name) {
            entity.attributes[position].isIndexed = false
        }
        return entity
    }

    private static func fetchIndex(_ object: ArchivedObject) -> FetchIndex {
        FetchIndex(
            name: object["NSIndexName"]?.string ?? "",
            partialIndexPredicate: predicateText(object["NSPartialIndexPredicate"]),
            elements: (object["NSIndexElements"]?.object.map(items) ?? []).compactMap(\.object).map { element in
                FetchIndexElement(
                    propertyName: element["NSPropertyName"]?.string,
                    type: element["NSFetchIndexElementType"]?.integer == 1 ? "RTree" : "Binary",
                    isAscending: element["NSAscending"]?.bool ?? true)
            })
    }

    // MARK: - Properties

    private static func attribute(_ object: ArchivedObject, name: String) -> Attribute {
        let type = AttributeType(rawValue: UInt32(object["NSAttributeType"]?.integer ?? 0)) ?? .undefined
        let flags = object["NSFlagsKey"]?.integer ?? 0
        var attribute = Attribute(
            name: name, type: type, isOptional: object["NSIsOptional"]?.bool ?? false,
            isTransient: object["NSIsTransient"]?.bool ?? false,
            valueTransformerName: object["NSValueTransformerName"]?.string,
            allowsExternalBinaryDataStorage: flags & 0x04 != 0, isIndexed: object["NSIsIndexed"]?.bool ?? false,
            isIndexedBySpotlight: object["NSIndexedBySpotlight"]?.bool ?? false,
            isStoredInTruthFile: object["NSIsStoredInTruth"]?.bool ?? false,
            allowsCloudEncryption: object["NSAllowsCloudEncryption"]?.bool ?? false,
            preservesValueInHistoryOnDeletion: flags & 0x10 != 0,
            versionHashModifier: object["NSVersionHashModifier"]?.string, renamingIdentifier: renaming(object, name: name),
            userInfo: userInfo(object["NSUserInfo"]))
        if object.className == "NSDerivedAttributeDescription" {
            attribute.isDerived = true
            attribute.derivationExpression = object["NSDerivationExpression"]?.object
                .flatMap(PredicateUnarchiver.expression).map(PredicateUnarchiver.derivationText)
        }
        let validation = (object["NSValidationPredicates"]?.object.map(items) ?? []).compactMap {
            $0.object.flatMap(PredicateUnarchiver.predicate)
        }
        ValidationPredicates.restore(validation, into: &attribute)
        AttributeValues.restoreDefault(object["NSDefaultValue"], into: &attribute)
        if type == .transformable { attribute.customClassName = object["NSAttributeValueClassName"]?.string }
        return attribute
    }

    private static func relationship(_ object: ArchivedObject, name: String) -> Relationship {
        let minCount = Int(object["NSMinCount"]?.integer ?? 0)
        let maxCount = Int(object["NSMaxCount"]?.integer ?? 0)
        let destination = object["_NSDestinationEntityName"]?.string
            ?? object["NSDestinationEntity"]?.object?["NSEntityName"]?.string ?? ""
        let inverse = object["_NSInverseRelationshipName"]?.string
            ?? object["NSInverseRelationship"]?.object?["NSPropertyName"]?.string
        let rule = DeleteRule(rawValue: Int(object["NSDeleteRule"]?.integer ?? 1)) ?? .nullify
        return Relationship(
            name: name, isOptional: object["NSIsOptional"]?.bool ?? false,
            isTransient: object["NSIsTransient"]?.bool ?? false, isToMany: maxCount != 1,
            isOrdered: object["NSIsOrdered"]?.bool ?? false, minCount: minCount == 0 ? nil : minCount,
            maxCount: maxCount == 0 ? nil : maxCount, deleteRule: rule, destinationEntityName: destination,
            inverseName: inverse, inverseEntityName: inverse == nil ? nil : destination,
            isIndexed: object["NSIsIndexed"]?.bool ?? false, renamingIdentifier: renaming(object, name: name),
            versionHashModifier: object["NSVersionHashModifier"]?.string,
            userInfo: userInfo(object["NSUserInfo"]))
    }

    private static func fetchedProperty(_ object: ArchivedObject, name: String) -> FetchedProperty {
        let request = object["NSFetchRequest"]?.object.map { fetchRequest($0, name: "fetchedPropertyFetchRequest") }
            ?? FetchRequestTemplate(name: "fetchedPropertyFetchRequest", entityName: object["_NSFetchRequestEntityName"]?.string ?? "")
        return FetchedProperty(
            name: name, isOptional: object["NSIsOptional"]?.bool ?? false, fetchRequest: request,
            userInfo: userInfo(object["NSUserInfo"]))
    }

    private static func fetchRequest(_ object: ArchivedObject, name: String) -> FetchRequestTemplate {
        let flags = object["NSFetchRequestFlags"]?.integer ?? 0
        func positive(_ key: String) -> Int? {
            guard let value = object[key]?.integer, value != 0 else { return nil }
            return Int(value)
        }
        return FetchRequestTemplate(
            name: name,
            entityName: object["NSEntityName"]?.string ?? object["NSEntity"]?.object?["NSEntityName"]?.string ?? "",
            predicateString: predicateText(object["NSPredicate"]),
            fetchLimit: positive("NSFetchLimit"), fetchBatchSize: positive("NSBatchSize"),
            resultType: positive("NSResultType"), includesSubentities: flags & 0x1 != 0,
            includesPropertyValues: flags & 0x2 != 0, includesPendingChanges: flags & 0x8 != 0,
            returnsObjectsAsFaults: flags & 0x4 != 0, returnsDistinctResults: flags & 0x10 != 0)
    }

    private static func predicateText(_ value: ArchiveValue?) -> String? {
        value?.object.flatMap(PredicateUnarchiver.predicate).map(PredicateFormatter.format)
    }

    // MARK: - Collections

    private static func renaming(_ object: ArchivedObject, name: String) -> String? {
        guard let identifier = object["NSRenamingIdentifier"]?.string, identifier != name else { return nil }
        return identifier
    }

    static func items(_ collection: ArchivedObject) -> [ArchiveValue] {
        collection["NS.objects"]?.references ?? []
    }

    static func entries(_ value: ArchiveValue?) -> [(key: String, value: ArchiveValue)] {
        guard let object = value?.object else { return [] }
        if let keys = object["NS.keys"]?.references {
            return zip(keys, items(object)).compactMap { key, value in key.string.map { ($0, value) } }
        }
        // An NSKnownKeysDictionary1, as Core Data archives the entities of a store's model cache:
        // the keys are in its search mapping, the values in an array.
        guard let keys = object["searchMapping"]?.object?["keys"]?.object, let values = object["values"]?.object else {
            return []
        }
        return zip(items(keys), items(values)).compactMap { key, value in key.string.map { ($0, value) } }
    }

    private static func nameLists(_ value: ArchiveValue?) -> [[String]] {
        (value?.object.map(items) ?? []).map { list in (list.object.map(items) ?? []).compactMap(\.string) }
    }

    private static func userInfo(_ value: ArchiveValue?) -> [UserInfoEntry]? {
        guard value?.object != nil else { return nil }
        let found = entries(value).map { UserInfoEntry(key: $0.key, value: $0.value.string ?? "") }
        return found.isEmpty ? nil : found.sorted { $0.key < $1.key }
    }
}
