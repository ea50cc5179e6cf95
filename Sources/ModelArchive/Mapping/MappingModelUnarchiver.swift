import ModelExpression
import ModelSchema

/// Reads a compiled `.cdm` back into a ``MappingModel``: entity mappings in their order, with
/// their hashes, and every expression as predicate format text.
public enum MappingModelUnarchiver {
    public struct FormatError: Error, Sendable, CustomStringConvertible {
        public var description: String
    }

    /// The mapping model in `bytes`, a `.cdm` read from `path`.
    public static func mappingModel(_ bytes: [UInt8], name: String, path: String) throws(FormatError) -> MappingModel {
        let root = try unarchive(bytes)
        defer { root.releaseGraph() }
        guard root.className == "NSMappingModel" else {
            throw FormatError(description: "the archive's root is \(root.className), not an NSMappingModel")
        }
        var mappings = [EntityMapping]()
        for item in root["NSEntityMappings"]?.object.map(ModelUnarchiver.items) ?? [] {
            guard let object = item.object, object.className == "NSEntityMapping" else {
                throw FormatError(description: "an entity mapping is not an NSEntityMapping")
            }
            mappings.append(try entityMapping(object))
        }
        return MappingModel(name: name, path: path, entityMappings: mappings)
    }

    /// A value expression as format text, from its keyed archive (an editor's `valueexpressiondata`).
    public static func expressionText(_ bytes: [UInt8]) throws(FormatError) -> String {
        let root = try unarchive(bytes)
        defer { root.releaseGraph() }
        return try expressionText(root)
    }

    /// A user-info dictionary from its keyed archive (an editor's `userinfodata`).
    public static func userInfo(_ bytes: [UInt8]) throws(FormatError) -> [UserInfoEntry] {
        let root = try unarchive(bytes)
        defer { root.releaseGraph() }
        return userInfoEntries(.object(root)) ?? []
    }

    /// The root object of the keyed archive in `bytes`; release its graph once done.
    static func unarchive(_ bytes: [UInt8]) throws(FormatError) -> ArchivedObject {
        do {
            return try KeyedArchiveReader.unarchive(bytes)
        } catch {
            throw FormatError(description: "not a keyed archive: \(error)")
        }
    }

    // MARK: - Objects

    private static func entityMapping(_ object: ArchivedObject) throws(FormatError) -> EntityMapping {
        let name = object["NSMappingName"]?.string ?? ""
        let type = EntityMappingType(rawValue: Int(object["NSMappingType"]?.integer ?? 0)) ?? .undefined
        var source: SourceExpression?
        if let expression = object["NSSourceExpression"]?.object {
            source = try sourceExpression(expression, mapping: name)
        }
        return EntityMapping(
            name: name, type: type, sourceEntityName: object["NSSourceEntityName"]?.string,
            destinationEntityName: object["NSDestinationEntityName"]?.string,
            sourceEntityVersionHash: hash(object["NSSourceEntityVersionHash"]),
            destinationEntityVersionHash: hash(object["NSDestinationEntityVersionHash"]),
            sourceExpression: source, policyClassName: object["NSEntityMigrationPolicyClassName"]?.string,
            userInfo: userInfoEntries(object["NSUserInfo"]),
            attributeMappings: try propertyMappings(object["NSAttributeMappings"]),
            relationshipMappings: try propertyMappings(object["NSRelationshipMappings"]))
    }

    private static func propertyMappings(_ value: ArchiveValue?) throws(FormatError) -> [PropertyMapping] {
        var mappings = [PropertyMapping]()
        for item in value?.object.map(ModelUnarchiver.items) ?? [] {
            guard let object = item.object else { continue }
            let expression = try object["NSValueExpression"]?.object.map { (value) throws(FormatError) in try expressionText(value) }
            mappings.append(PropertyMapping(
                name: object["NSDestinationPropertyName"]?.string ?? "", valueExpression: expression,
                userInfo: userInfoEntries(object["NSUserInfo"])))
        }
        return mappings
    }

    /// The entity and predicate of Xcode's one source-expression form.
    private static func sourceExpression(_ object: ArchivedObject, mapping: String) throws(FormatError) -> SourceExpression {
        guard object.className == "NSFetchRequestExpression", let request = object["NSFRExpression"]?.object,
            request["NSSelectorName"]?.string == "fetchRequestForSourceEntityNamed:predicateString:"
        else { throw FormatError(description: "mapping '\(mapping)': the source expression is not a FETCH of a source entity") }
        let arguments = (request["NSArguments"]?.object.map(ModelUnarchiver.items) ?? []).map { $0.object?["NSConstantValue"]?.string }
        guard arguments.count == 2, let entity = arguments[0], let predicate = arguments[1] else {
            throw FormatError(description: "mapping '\(mapping)': the source fetch has no entity name and predicate")
        }
        return SourceExpression(entityName: entity, predicate: predicate)
    }

    private static func expressionText(_ object: ArchivedObject) throws(FormatError) -> String {
        guard let node = PredicateUnarchiver.expression(object) else {
            throw FormatError(description: "unsupported expression class \(object.className)")
        }
        return PredicateFormatter.format(node)
    }

    private static func hash(_ value: ArchiveValue?) -> VersionHash? {
        if case .data(let bytes)? = value { return VersionHash(bytes: bytes) }
        return nil
    }

    private static func userInfoEntries(_ value: ArchiveValue?) -> UserInfo {
        guard let object = value?.object, object["NS.keys"] != nil else { return nil }
        return ModelUnarchiver.entries(value).map { entry in
            UserInfoEntry(key: entry.key, value: entry.value.string ?? entry.value.integer.map(String.init) ?? "")
        }
    }
}
