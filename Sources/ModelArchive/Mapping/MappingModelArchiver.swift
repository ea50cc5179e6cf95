import ModelExpression
import ModelSchema

/// Writes a mapping model as the `.cdm` Xcode's mapping compiler writes: an NSKeyedArchiver
/// archive of `NSMappingModel` → `NSEntityMapping` → `NSPropertyMapping`, with the value and
/// source expressions as NSExpression objects.
///
/// `.cdm` files carry no compiler identity: the archives Xcode 15 and Xcode 16.4 wrote have the
/// same keys, so the writer needs no Xcode version.
public enum MappingModelArchiver {
    public struct ExpressionError: Error, Sendable, CustomStringConvertible {
        public var mappingName: String
        public var propertyName: String
        public var message: String
        public var description: String { "mapping '\(mappingName)', property '\(propertyName)': \(message)" }
    }

    /// The `.cdm` bytes of `model`; throws when a value expression does not parse.
    public static func archive(_ model: MappingModel) throws(ExpressionError) -> [UInt8] {
        let root = try rootObject(model)
        defer { root.releaseGraph() }
        return KeyedArchiveWriter.archive(root)
    }

    /// The `NSMappingModel` object graph of `model`.
    static func rootObject(_ model: MappingModel) throws(ExpressionError) -> ArchivedObject {
        // Foundation's empty array is one object, so every empty list of property mappings in a
        // `.cdm` Xcode wrote refers to the same one (XcodeServer's 1.1.0 mapping shows it).
        let empty = ArchiveClass.arrayObject([], chain: .array)
        var mappings = [ArchivedObject]()
        for mapping in model.entityMappings { mappings.append(try entityMapping(mapping, empty: empty)) }
        return ArchivedObject(
            ["NSMappingModel", "NSObject"],
            fields: [
                ("NSEntityMappings", .object(ArchiveClass.arrayObject(mappings.map { .object($0) }, chain: .array))),
                ("NSEntityMappingsByName", .object(ArchiveClass.dictionaryObject(
                    zip(model.entityMappings, mappings).map { ($0.name, .object($1)) }))),
            ])
    }

    /// A value expression alone as a keyed archive, as Xcode's editor stores it (`valueexpressiondata`).
    public static func expressionArchive(_ text: String) throws(PredicateParser.SyntaxError) -> [UInt8] {
        let object = PredicateArchiver.archive(try PredicateParser.expression(text))
        defer { object.releaseGraph() }
        return KeyedArchiveWriter.archive(object)
    }

    /// A user-info dictionary alone as a keyed archive, as Xcode's editor stores it (`userinfodata`).
    public static func userInfoArchive(_ entries: [UserInfoEntry]) -> [UInt8] {
        KeyedArchiveWriter.archive(ArchiveClass.dictionaryObject(entries.map { ($0.key, .string($0.value)) }))
    }

    // MARK: - Entity mappings

    private static func entityMapping(_ mapping: EntityMapping, empty: ArchivedObject) throws(ExpressionError) -> ArchivedObject {
        var attributes = [ArchiveValue]()
        for property in mapping.attributeMappings { attributes.append(.object(try propertyMapping(property, of: mapping))) }
        var relationships = [ArchiveValue]()
        for property in mapping.relationshipMappings { relationships.append(.object(try propertyMapping(property, of: mapping))) }
        return ArchivedObject(
            ["NSEntityMapping", "NSObject"],
            fields: [
                ("NSMappingName", .string(mapping.name)),
                ("NSMappingType", .integer(Int64(mapping.type.rawValue))),
                ("NSSourceEntityName", optional(mapping.sourceEntityName)),
                ("NSDestinationEntityName", optional(mapping.destinationEntityName)),
                ("NSSourceEntityVersionHash", mapping.sourceEntityVersionHash.map { .data($0.bytes) } ?? .null),
                ("NSDestinationEntityVersionHash", mapping.destinationEntityVersionHash.map { .data($0.bytes) } ?? .null),
                ("NSSourceExpression", mapping.sourceExpression.map { .object(sourceExpression($0)) } ?? .null),
                ("NSEntityMigrationPolicyClassName", optional(mapping.policyClassName)),
                ("NSAttributeMappings", .object(attributes.isEmpty ? empty : ArchiveClass.arrayObject(attributes, chain: .array))),
                ("NSRelationshipMappings", .object(relationships.isEmpty ? empty : ArchiveClass.arrayObject(relationships, chain: .array))),
                ("NSUserInfo", userInfo(mapping.userInfo)),
            ])
    }

    private static func propertyMapping(_ property: PropertyMapping, of mapping: EntityMapping) throws(ExpressionError) -> ArchivedObject {
        var value = ArchiveValue.null
        if let text = property.valueExpression {
            do {
                value = .object(PredicateArchiver.archive(try PredicateParser.expression(text), functionArguments: .mutableArray))
            } catch {
                throw ExpressionError(mappingName: mapping.name, propertyName: property.name, message: error.description)
            }
        }
        return ArchivedObject(
            ["NSPropertyMapping", "NSObject"],
            fields: [
                ("NSDestinationPropertyName", .string(property.name)),
                ("NSValueExpression", value),
                ("NSUserInfo", userInfo(property.userInfo)),
                ("NSPropertyTransforms", .null),
            ])
    }

    /// `FETCH(FUNCTION($manager, "fetchRequestForSourceEntityNamed:predicateString:", entity, predicate), $manager.sourceContext, NO)`,
    /// built as Core Data builds it (its function's arguments in an NSArray).
    private static func sourceExpression(_ source: SourceExpression) -> ArchivedObject {
        let request = ExpressionNode.function(
            operand: .variable("manager"), selector: "fetchRequestForSourceEntityNamed:predicateString:",
            arguments: [.constant(.string(source.entityName)), .constant(.string(source.predicate))])
        let context = ExpressionNode.keyPath(operand: .variable("manager"), path: "sourceContext")
        return ArchivedObject(
            ["NSFetchRequestExpression", "NSExpression", "NSObject"],
            fields: [
                ("NSFRExpression", .object(PredicateArchiver.archive(request, functionArguments: .array))),
                ("NSMOCExpression", .object(PredicateArchiver.archive(context))),
                ("NSCountOnlyFlag", .bool(false)),
                ("NSExpressionType", .integer(50)),
            ])
    }

    // MARK: - Values

    private static func optional(_ text: String?) -> ArchiveValue {
        text.map { .string($0) } ?? .null
    }

    private static func userInfo(_ entries: UserInfo) -> ArchiveValue {
        guard let entries else { return .null }
        return .object(ArchiveClass.dictionaryObject(entries.map { ($0.key, .string($0.value)) }))
    }
}
