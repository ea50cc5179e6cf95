import Foundation
import ModelArchive
import ModelSchema
import ModelXML

/// Turns a `.xcmappingmodel`'s editor objects into the mapping model Xcode's compiler writes,
/// applying the rules observed on every public pair of `.xcmappingmodel` and `.cdm`:
///
/// - name: the explicit name, else `<Source>To<Destination>` (an add mapping takes its
///   destination's name, a remove mapping its source's);
/// - type: the one the editor states, when it is not "Undefined" (Xcode writes "Undefined" for
///   every mapping); else custom when a policy class is set, add without a source, remove
///   without a destination, transform when the names differ or the destination does not keep
///   every property of the source as it was (``PropertyKeeping``), else copy;
/// - hashes: those of the entities in the editor's model snapshots;
/// - property mappings sorted case-insensitively by name; one left empty gets `$source.<name>`
///   (an attribute the source entity has) or a `$manager` function (a relationship it has), and
///   none when the source has no such property.
struct MappingModelBuilder {
    let document: MappingDocument
    private(set) var diagnostics: [Diagnostic] = []
    private var source: EntityHierarchy?
    private var destination: EntityHierarchy?

    init(document: MappingDocument) {
        self.document = document
    }

    /// The mapping model named `name`.
    mutating func build(name: String, path: String) -> MappingModel {
        let sourceSnapshot = snapshot(document.sourceModelData, side: "source", path: document.sourceModelPath)
        let destinationSnapshot = snapshot(document.destinationModelData, side: "destination", path: document.destinationModelPath)
        source = sourceSnapshot.map(EntityHierarchy.init)
        destination = destinationSnapshot.map(EntityHierarchy.init)
        let sourceHashes = sourceSnapshot.map { VersionHasher($0).entityHashes() } ?? [:]
        let destinationHashes = destinationSnapshot.map { VersionHasher($0).entityHashes() } ?? [:]
        let keeping = sourceSnapshot.flatMap { source in destinationSnapshot.map { PropertyKeeping(source: source, destination: $0) } }
        var mappings = [EntityMapping]()
        for record in document.entityMappings {
            var mapping = EntityMapping(
                name: Self.name(of: record), type: Self.type(of: record, keeping: keeping), sourceEntityName: record.sourceName,
                destinationEntityName: record.destinationName,
                sourceEntityVersionHash: record.sourceName.flatMap { sourceHashes[$0] },
                destinationEntityVersionHash: record.destinationName.flatMap { destinationHashes[$0] },
                sourceExpression: record.sourceName.map {
                    SourceExpression(entityName: $0, predicate: record.filterPredicate ?? SourceExpression.noFilter)
                },
                policyClassName: record.policyClassName, location: record.location)
            if let data = record.userInfoData {
                do {
                    mapping.userInfo = try MappingModelUnarchiver.userInfo(data)
                } catch {
                    diagnostics.append(.unreadableArchive("the user info of '\(mapping.name)'", error.description, at: record.location))
                }
            }
            mappings.append(mapping)
        }
        let targets = mappingTargets(mappings)
        for index in mappings.indices {
            let record = document.entityMappings[index]
            let sourceEntity = mappings[index].sourceEntityName.flatMap { source?.entity(named: $0) }
            let context = SourceProperties(
                attributes: Set(sourceEntity.map { source?.attributes(of: $0).map(\.name) ?? [] } ?? []),
                relationships: Dictionary(
                    (sourceEntity.map { source?.relationships(of: $0) ?? [] } ?? []).map { ($0.name, $0) },
                    uniquingKeysWith: { first, _ in first }),
                generates: record.autogeneratesExpressions && sourceEntity != nil, targets: targets)
            mappings[index].attributeMappings = Self.sortedByName(record.attributeMappings).map {
                propertyMapping($0, isRelationship: false, mapping: mappings[index], context)
            }
            mappings[index].relationshipMappings = Self.sortedByName(record.relationshipMappings).map {
                propertyMapping($0, isRelationship: true, mapping: mappings[index], context)
            }
        }
        return MappingModel(
            name: name, path: path, sourceModelPath: document.sourceModelPath,
            destinationModelPath: document.destinationModelPath, sourceSnapshot: sourceSnapshot,
            destinationSnapshot: destinationSnapshot, entityMappings: mappings)
    }

    // MARK: - Entity mappings

    static func name(of record: MappingDocument.Entity) -> String {
        if let name = record.name, !name.isEmpty { return name }
        switch (record.sourceName, record.destinationName) {
        case (let source?, let destination?): return "\(source)To\(destination)"
        case (nil, let destination?): return destination
        case (let source?, nil): return source
        case (nil, nil): return ""
        }
    }

    /// The type mapc gives `record`, whose models `keeping` compares (nil when they are unknown).
    static func type(of record: MappingDocument.Entity, keeping: PropertyKeeping?) -> EntityMappingType {
        if record.policyClassName?.isEmpty == false { return .custom }
        if let stated = record.typeName.flatMap(EntityMappingType.init(name:)), stated != .undefined { return stated }
        switch (record.sourceName, record.destinationName) {
        case (nil, _): return .add
        case (_, nil): return .remove
        case (let source?, let destination?):
            guard source == destination, keeping?.keepsEveryProperty(of: source, in: destination) != false else { return .transform }
            return .copy
        }
    }

    private mutating func snapshot(_ data: [UInt8]?, side: String, path: String?) -> ModelVersion? {
        guard let data else { return nil }
        let name = path.map { ($0.split(separator: "/").last.map(String.init) ?? $0) }
            .map { $0.hasSuffix(".xcdatamodel") ? String($0.dropLast(".xcdatamodel".count)) : $0 } ?? side
        do {
            return try ModelSnapshotUnarchiver.version(data, name: name, path: path ?? "")
        } catch {
            diagnostics.append(.unreadableSnapshot(side, error.description, at: document.location))
            return nil
        }
    }

    // MARK: - Property mappings

    private static func sortedByName(_ properties: [MappingDocument.Property]) -> [MappingDocument.Property] {
        properties.enumerated().sorted { a, b in
            let order = a.element.name.lowercased().compare(b.element.name.lowercased())
            return order == .orderedSame ? a.offset < b.offset : order == .orderedAscending
        }.map(\.element)
    }

    /// What generating a property mapping's expression needs to know of the source entity.
    private struct SourceProperties {
        /// The source entity's stored attributes and relationships, inherited ones included.
        var attributes: Set<String>
        var relationships: [String: Relationship]
        /// Whether the entity mapping autogenerates expressions and its source entity is known.
        var generates: Bool
        var targets: [String: (count: Int, first: String)]
    }

    /// For each source entity, how many entity mappings take instances of it or of its
    /// subentities, and the first of them: a relationship to that entity resolves through that
    /// mapping when it is the only one.
    private func mappingTargets(_ mappings: [EntityMapping]) -> [String: (count: Int, first: String)] {
        var targets = [String: (count: Int, first: String)]()
        for mapping in mappings {
            guard let name = mapping.sourceEntityName, let entity = source?.entity(named: name) else { continue }
            for kind in source?.lineage(of: entity) ?? [] {
                let known = targets[kind.name]
                targets[kind.name] = ((known?.count ?? 0) + 1, known?.first ?? mapping.name)
            }
        }
        return targets
    }

    private mutating func propertyMapping(
        _ record: MappingDocument.Property, isRelationship: Bool, mapping: EntityMapping, _ context: SourceProperties
    ) -> PropertyMapping {
        var result = PropertyMapping(name: record.name, location: record.location)
        if let data = record.valueExpressionData {
            do {
                result.valueExpression = try MappingModelUnarchiver.expressionText(data)
            } catch {
                diagnostics.append(.unreadableArchive("the value expression of '\(mapping.name).\(record.name)'", error.description, at: record.location))
            }
            return result
        }
        guard context.generates, record.autogeneratesExpressions else { return result }
        if !isRelationship {
            if context.attributes.contains(record.name) { result.valueExpression = "$source.\(record.name)" }
            return result
        }
        if record.sourceMappingName != nil || record.sourceKeyPath != nil {
            result.valueExpression = Self.byMapping(record.sourceMappingName ?? "", record.sourceKeyPath ?? "$source.\(record.name)")
            return result
        }
        guard let relationship = context.relationships[record.name],
            let target = context.targets[relationship.destinationEntityName]
        else { return result }
        result.valueExpression = target.count == 1
            ? Self.byMapping(target.first, "$source.\(record.name)")
            : "FUNCTION($manager, \"destinationInstancesForSourceRelationshipNamed:sourceInstances:\", \"\(record.name)\", $source.\(record.name))"
        return result
    }

    private static func byMapping(_ name: String, _ keyPath: String) -> String {
        "FUNCTION($manager, \"destinationInstancesForEntityMappingNamed:sourceInstances:\", \"\(name)\", \(keyPath))"
    }
}
