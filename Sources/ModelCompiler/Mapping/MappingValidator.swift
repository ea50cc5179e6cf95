import ModelExpression
import ModelSchema

/// Checks a mapping model before it is compiled or used: the entities it names exist in its
/// snapshots, its expressions parse, custom mappings name a policy, mapping names are unique.
public struct MappingValidator: Sendable {
    public init() {}

    /// Every problem of `model`, in mapping order.
    public func validate(_ model: MappingModel) -> [Diagnostic] {
        var diagnostics = [Diagnostic]()
        var seen = Set<String>()
        let sourceEntities = model.sourceSnapshot.map { Set($0.entities.map(\.name)) }
        let destinationEntities = model.destinationSnapshot.map { Set($0.entities.map(\.name)) }
        for mapping in model.entityMappings {
            if !seen.insert(mapping.name).inserted {
                diagnostics.append(.duplicateMappingName(mapping.name, at: mapping.location))
            }
            if mapping.type == .custom, mapping.policyClassName?.isEmpty != false {
                diagnostics.append(.customWithoutPolicy(mapping.name, at: mapping.location))
            }
            if let name = mapping.sourceEntityName, let known = sourceEntities, !known.contains(name) {
                diagnostics.append(.entityMissingFromSnapshot(mapping.name, "source", name, at: mapping.location))
            }
            if let name = mapping.destinationEntityName, let known = destinationEntities, !known.contains(name) {
                diagnostics.append(.entityMissingFromSnapshot(mapping.name, "destination", name, at: mapping.location))
            }
            if let predicate = mapping.sourceExpression?.predicate {
                do {
                    _ = try PredicateParser.predicate(predicate)
                } catch {
                    diagnostics.append(.unparsableExpression(mapping.name, "filter predicate", predicate, error.description, at: mapping.location))
                }
            }
            for property in mapping.attributeMappings + mapping.relationshipMappings {
                guard let text = property.valueExpression else { continue }
                do {
                    _ = try PredicateParser.expression(text)
                } catch {
                    let location = property.location.isKnown ? property.location : mapping.location
                    diagnostics.append(.unparsableExpression(mapping.name, "the value expression of '\(property.name)'", text, error.description, at: location))
                }
            }
        }
        return diagnostics
    }
}
