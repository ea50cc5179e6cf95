import ModelSchema

/// Infers the lightweight migration between two versions as Core Data does (FORMATS §8): entities
/// and properties match the source element named by their renaming identifier, else the one
/// with their own name (so a chain keeps matching once the rename is done); what cannot be inferred is reported
/// with every reason, each at its place in the model, not only the first.
public enum MappingInference {
    /// `sourceHashes` and `destinationHashes` save hashing again when the caller has them.
    public static func infer(
        from source: ModelVersion, to destination: ModelVersion,
        sourceHashes: [String: VersionHash]? = nil, destinationHashes: [String: VersionHash]? = nil
    ) -> InferredMapping {
        var inference = Inference(source: source, destination: destination)
        inference.run(
            sourceHashes: sourceHashes ?? VersionHasher(source).entityHashes(),
            destinationHashes: destinationHashes ?? VersionHasher(destination).entityHashes())
        return InferredMapping(
            sourceVersion: source.name, destinationVersion: destination.name, entities: inference.mappings,
            diagnostics: inference.diagnostics)
    }

    /// Attribute type changes Core Data treats as the same storage (`_attributeTypeIsSchemaEqual`).
    static func isWidening(from: AttributeType, to: AttributeType) -> Bool {
        switch (from, to) {
        case (.integer16, .integer32), (.integer16, .integer64), (.integer32, .integer64), (.float, .double),
            (.boolean, .integer16), (.boolean, .integer32), (.boolean, .integer64):
            true
        default: false
        }
    }
}

/// One run of the inference.
private struct Inference {
    let source: EntityHierarchy
    let destination: EntityHierarchy
    var mappings: [EntityMapping] = []
    var diagnostics: [Diagnostic] = []
    /// Destination entity name → the source entity it comes from.
    var matched: [String: String] = [:]

    init(source: ModelVersion, destination: ModelVersion) {
        self.source = EntityHierarchy(source)
        self.destination = EntityHierarchy(destination)
    }

    mutating func run(sourceHashes: [String: VersionHash], destinationHashes: [String: VersionHash]) {
        for entity in destination.version.entities {
            if let key = [entity.renamingIdentifier, entity.name].compactMap({ $0 }).first(where: { source.entity(named: $0) != nil }) {
                matched[entity.name] = key
            }
        }
        for entity in destination.version.entities.sorted(by: { $0.name < $1.name }) {
            guard let sourceName = matched[entity.name], let sourceEntity = source.entity(named: sourceName) else {
                let properties =
                    destination.attributes(of: entity).map { attributeAdded($0, entity, hasRows: false) }
                    + destination.relationships(of: entity).map {
                        PropertyMapping(kind: .add, source: nil, destination: $0.name, isRelationship: true, change: nil, dropsData: false)
                    }
                mappings.append(EntityMapping(kind: .add, source: nil, destination: entity.name, properties: properties))
                continue
            }
            let same = sourceName == entity.name && sourceHashes[sourceName] == destinationHashes[entity.name]
            mappings.append(
                EntityMapping(
                    kind: same ? .copy : .transform, source: sourceName, destination: entity.name,
                    properties: properties(from: sourceEntity, to: entity)))
        }
        let used = Set(matched.values)
        for entity in source.version.entities.sorted(by: { $0.name < $1.name }) where !used.contains(entity.name) {
            let properties =
                source.attributes(of: entity).map { PropertyMapping(kind: .remove, source: $0.name, destination: nil, isRelationship: false, change: nil, dropsData: true) }
                + source.relationships(of: entity).map { PropertyMapping(kind: .remove, source: $0.name, destination: nil, isRelationship: true, change: nil, dropsData: true) }
            mappings.append(EntityMapping(kind: .remove, source: entity.name, destination: nil, properties: properties))
        }
        checkHierarchies()
        suggestEntityRenames(removed: source.version.entities.filter { !used.contains($0.name) })
    }

    // MARK: Properties

    private mutating func properties(from sourceEntity: Entity, to entity: Entity) -> [PropertyMapping] {
        var result = [PropertyMapping]()
        var sourceAttributes = Dictionary(source.attributes(of: sourceEntity).map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        var sourceRelationships = Dictionary(source.relationships(of: sourceEntity).map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        var addedAttributes = [Attribute](), addedRelationships = [Relationship]()
        for attribute in destination.attributes(of: entity) {
            let key = [attribute.renamingIdentifier, attribute.name].compactMap { $0 }.first { sourceAttributes[$0] != nil }
            guard let key, let old = sourceAttributes.removeValue(forKey: key) else {
                result.append(attributeAdded(attribute, entity, hasRows: true))
                if attribute.renamingIdentifier == nil { addedAttributes.append(attribute) }
                continue
            }
            result.append(attributeMapping(old, attribute, entity))
        }
        for relationship in destination.relationships(of: entity) {
            let key = [relationship.renamingIdentifier, relationship.name].compactMap { $0 }.first { sourceRelationships[$0] != nil }
            guard let key, let old = sourceRelationships.removeValue(forKey: key) else {
                if !relationship.isOptional && !relationship.isToMany {
                    diagnostics.append(
                        MigrationDiagnostics.requiredRelationshipAdded(entity.name, relationship.name, at: relationship.location)
                            .inFile(destination.version.path))
                }
                result.append(PropertyMapping(kind: .add, source: nil, destination: relationship.name, isRelationship: true, change: nil, dropsData: false))
                if relationship.renamingIdentifier == nil { addedRelationships.append(relationship) }
                continue
            }
            result.append(relationshipMapping(old, relationship, entity))
        }
        for old in sourceAttributes.values.sorted(by: { $0.name < $1.name }) {
            result.append(PropertyMapping(kind: .remove, source: old.name, destination: nil, isRelationship: false, change: nil, dropsData: true))
        }
        for old in sourceRelationships.values.sorted(by: { $0.name < $1.name }) {
            result.append(PropertyMapping(kind: .remove, source: old.name, destination: nil, isRelationship: true, change: nil, dropsData: true))
        }
        suggestPropertyRenames(
            entity, removedAttributes: sourceAttributes.values.sorted { $0.name < $1.name }, added: addedAttributes,
            removedRelationships: sourceRelationships.values.sorted { $0.name < $1.name }, addedRelationships: addedRelationships)
        return result
    }

    private mutating func attributeAdded(_ attribute: Attribute, _ entity: Entity, hasRows: Bool) -> PropertyMapping {
        if hasRows && !attribute.isOptional && attribute.defaultValueString == nil {
            diagnostics.append(
                MigrationDiagnostics.requiredWithoutDefault(entity.name, attribute.name, added: true, at: attribute.location)
                    .inFile(destination.version.path))
        }
        let change = attribute.defaultValueString.map { "default \($0)" }
        return PropertyMapping(kind: .add, source: nil, destination: attribute.name, isRelationship: false, change: change, dropsData: false)
    }

    private mutating func attributeMapping(_ old: Attribute, _ new: Attribute, _ entity: Entity) -> PropertyMapping {
        var changes = [String]()
        if old.type != new.type {
            if MappingInference.isWidening(from: old.type, to: new.type) {
                changes.append("\(old.type.xmlName ?? "?") → \(new.type.xmlName ?? "?")")
            } else {
                diagnostics.append(
                    MigrationDiagnostics.typeChange(entity.name, new.name, from: old.type, to: new.type, at: new.location)
                        .inFile(destination.version.path))
            }
        }
        if old.isOptional && !new.isOptional {
            if let value = new.defaultValueString {
                changes.append("optional → required, default \(value)")
            } else {
                diagnostics.append(
                    MigrationDiagnostics.requiredWithoutDefault(entity.name, new.name, added: false, at: new.location)
                        .inFile(destination.version.path))
            }
        }
        let renamed = old.name != new.name
        let kind: PropertyMapping.Kind = renamed ? .rename : (changes.isEmpty ? .copy : .transform)
        if renamed { changes.insert("renamed from '\(old.name)'", at: 0) }
        return PropertyMapping(
            kind: kind, source: old.name, destination: new.name, isRelationship: false,
            change: changes.isEmpty ? nil : changes.joined(separator: "; "), dropsData: false)
    }

    private mutating func relationshipMapping(_ old: Relationship, _ new: Relationship, _ entity: Entity) -> PropertyMapping {
        var changes = [String]()
        if matched[new.destinationEntityName].map({ !isKind(source: $0, of: old.destinationEntityName) }) ?? true {
            diagnostics.append(
                MigrationDiagnostics.destinationChanged(entity.name, new.name, from: old.destinationEntityName, to: new.destinationEntityName, at: new.location)
                    .inFile(destination.version.path))
        }
        if old.isToMany != new.isToMany { changes.append(old.isToMany ? "to-many → to-one" : "to-one → to-many") }
        if old.isToMany && new.isToMany && old.isOrdered != new.isOrdered { changes.append(new.isOrdered ? "unordered → ordered" : "ordered → unordered") }
        let renamed = old.name != new.name
        if renamed { changes.insert("renamed from '\(old.name)'", at: 0) }
        let kind: PropertyMapping.Kind = renamed ? .rename : (changes.isEmpty ? .copy : .transform)
        return PropertyMapping(
            kind: kind, source: old.name, destination: new.name, isRelationship: true,
            change: changes.isEmpty ? nil : changes.joined(separator: "; "), dropsData: old.isToMany && !new.isToMany)
    }

    /// Whether source entities `name` and `other` are in one line of inheritance.
    private func isKind(source name: String, of other: String) -> Bool {
        source.isKind(name, of: other) || source.isKind(other, of: name)
    }

    // MARK: Hierarchies

    /// Two entities that had no common ancestor in the source cannot share one in the
    /// destination: their rows live in different tables, which Core Data does not merge.
    private mutating func checkHierarchies() {
        var sourceRootsByDestinationRoot = [String: (root: String, entity: String)]()
        for entity in destination.version.entities.sorted(by: { $0.name < $1.name }) {
            guard let sourceName = matched[entity.name], let sourceEntity = source.entity(named: sourceName) else { continue }
            let destinationRoot = destination.root(of: entity).name
            let sourceRoot = source.root(of: sourceEntity).name
            if let first = sourceRootsByDestinationRoot[destinationRoot] {
                if first.root != sourceRoot {
                    diagnostics.append(
                        MigrationDiagnostics.mergedHierarchies(entity.name, first.entity, sourceName, at: entity.location)
                            .inFile(destination.version.path))
                }
            } else {
                sourceRootsByDestinationRoot[destinationRoot] = (sourceRoot, sourceName)
            }
        }
    }

    // MARK: Rename suggestions

    private mutating func suggestPropertyRenames(
        _ entity: Entity, removedAttributes: [Attribute], added: [Attribute],
        removedRelationships: [Relationship], addedRelationships: [Relationship]
    ) {
        var candidates = added
        for old in removedAttributes {
            guard let index = candidates.firstIndex(where: { $0.type == old.type || MappingInference.isWidening(from: old.type, to: $0.type) }) else { continue }
            let new = candidates.remove(at: index)
            diagnostics.append(
                MigrationDiagnostics.possibleRename(kind: "attribute", owner: entity.name, removed: old.name, added: new.name, at: new.location)
                    .inFile(destination.version.path))
        }
        var relationshipCandidates = addedRelationships
        for old in removedRelationships {
            guard let index = relationshipCandidates.firstIndex(where: { matched[$0.destinationEntityName] == old.destinationEntityName && $0.isToMany == old.isToMany }) else { continue }
            let new = relationshipCandidates.remove(at: index)
            diagnostics.append(
                MigrationDiagnostics.possibleRename(kind: "relationship", owner: entity.name, removed: old.name, added: new.name, at: new.location)
                    .inFile(destination.version.path))
        }
    }

    /// A removed and an added entity whose stored attribute names are at least half the same.
    private mutating func suggestEntityRenames(removed: [Entity]) {
        let added = destination.version.entities.filter { matched[$0.name] == nil && $0.renamingIdentifier == nil }
        var candidates = added
        for old in removed.sorted(by: { $0.name < $1.name }) {
            let oldNames = Set(source.attributes(of: old).map(\.name))
            let scored = candidates.enumerated().map { index, new -> (Int, Double) in
                let newNames = Set(destination.attributes(of: new).map(\.name))
                let union = oldNames.union(newNames)
                return (index, union.isEmpty ? 0 : Double(oldNames.intersection(newNames).count) / Double(union.count))
            }
            guard let best = scored.max(by: { $0.1 < $1.1 }), best.1 >= 0.5 else { continue }
            let new = candidates.remove(at: best.0)
            diagnostics.append(
                MigrationDiagnostics.possibleRename(kind: "entity", owner: nil, removed: old.name, added: new.name, at: new.location)
                    .inFile(destination.version.path))
        }
    }
}
