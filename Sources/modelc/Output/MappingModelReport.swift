import ModelCompiler
import ModelSchema

/// A custom mapping model as `inspect` shows it, in text or JSON: the versions it matches in a
/// bundle, and each entity mapping with its type, policy, source fetch and property expressions.
struct MappingModelReport: Encodable {
    struct EntityMapping: Encodable {
        var name: String
        var type: String
        var source: String?
        var destination: String?
        var sourceHash: String?
        var destinationHash: String?
        var policy: String?
        var sourceExpression: String?
        var filter: String?
        var userInfo: [String: String]?
        var attributes: [Property]
        var relationships: [Property]
    }

    struct Property: Encodable {
        var name: String
        var expression: String?
    }

    struct Versions: Encodable {
        var bundle: String
        var source: MappingVersionMatch
        var destination: MappingVersionMatch
    }

    var name: String
    var sourceModelPath: String?
    var destinationModelPath: String?
    var versions: Versions?
    var entityMappings: [EntityMapping]

    init(_ model: MappingModel, bundle: ModelBundle?) {
        name = model.name
        sourceModelPath = model.sourceModelPath
        destinationModelPath = model.destinationModelPath
        versions = bundle.map {
            Versions(
                bundle: $0.name, source: MappingVersionMatch.match(model, side: .source, in: $0),
                destination: MappingVersionMatch.match(model, side: .destination, in: $0))
        }
        entityMappings = model.entityMappings.map { mapping in
            EntityMapping(
                name: mapping.name, type: mapping.type.name, source: mapping.sourceEntityName,
                destination: mapping.destinationEntityName, sourceHash: mapping.sourceEntityVersionHash?.hex,
                destinationHash: mapping.destinationEntityVersionHash?.hex, policy: mapping.policyClassName,
                sourceExpression: mapping.sourceExpression?.format, filter: mapping.sourceExpression?.predicate,
                userInfo: mapping.userInfo.map { Dictionary($0.map { ($0.key, $0.value) }, uniquingKeysWith: { a, _ in a }) },
                attributes: mapping.attributeMappings.map { Property(name: $0.name, expression: $0.valueExpression) },
                relationships: mapping.relationshipMappings.map { Property(name: $0.name, expression: $0.valueExpression) })
        }
    }

    /// The warnings of the version match (P310), for the bundle given.
    var diagnostics: [Diagnostic] {
        guard let versions else { return [] }
        return [versions.source, versions.destination].compactMap { $0.diagnostic(bundle: versions.bundle) }
    }

    var text: String {
        var lines = ["mapping model \(name): \(entityMappings.count) entity mapping\(entityMappings.count == 1 ? "" : "s")"]
        if let sourceModelPath, let destinationModelPath {
            lines.append("  recorded models  \(sourceModelPath) -> \(destinationModelPath)")
        }
        if let versions {
            for match in [versions.source, versions.destination] {
                lines.append("  \(match.side) version  \(match.version.map { "'\($0)'" } ?? "none") in \(versions.bundle)\(Self.detail(match))")
            }
        }
        for mapping in entityMappings {
            lines.append("")
            lines.append("\(mapping.type.lowercased()) \(mapping.name): \(mapping.source ?? "-") -> \(mapping.destination ?? "-")")
            if let policy = mapping.policy { lines.append("  policy  \(policy)") }
            if let filter = mapping.filter, filter != SourceExpression.noFilter { lines.append("  filter  \(filter)") }
            if let userInfo = mapping.userInfo, !userInfo.isEmpty {
                lines.append("  userInfo  " + userInfo.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ", "))
            }
            for property in mapping.attributes { lines.append("  attribute \(property.name) = \(property.expression ?? "(default)")") }
            for property in mapping.relationships { lines.append("  relationship \(property.name) = \(property.expression ?? "(none)")") }
        }
        return lines.joined(separator: "\n")
    }

    private static func detail(_ match: MappingVersionMatch) -> String {
        if !match.exactMatches.isEmpty { return " (snapshot equal)" }
        if !match.subsetMatches.isEmpty { return " (by Core Data's subset rule)" }
        return ""
    }
}
