import ModelSchema

/// Infers the lightweight migration between two versions as Core Data does: entities
/// and properties match by identity (renaming identifier, else name, on both sides) and by name
/// (`IdentityMatch`); what cannot be inferred is reported with every reason, each at its place
/// in the model, not only the first. Reasons that only rows decide carry a ``RowCondition``.
public enum MappingInference {
    /// `sourceHashes` and `destinationHashes` save hashing again when the caller has them.
    /// `storedEntities` limits the mapping to the entities a store holds in each version (a store
    /// of one configuration, `ModelVersion.storedEntityNames(inConfiguration:)`): an entity
    /// outside the source's is added, one outside the destination's removed, one outside both
    /// left out with whatever would make it impossible; entities still match by identity across
    /// the whole model.
    public static func infer(
        from source: ModelVersion, to destination: ModelVersion,
        sourceHashes: [String: VersionHash]? = nil, destinationHashes: [String: VersionHash]? = nil,
        storedEntities: (source: Set<String>, destination: Set<String>)? = nil
    ) -> InferredMapping {
        var inference = Inference(source: source, destination: destination, storedEntities: storedEntities)
        inference.run(
            sourceHashes: sourceHashes ?? VersionHasher(source).entityHashes(),
            destinationHashes: destinationHashes ?? VersionHasher(destination).entityHashes())
        return InferredMapping(
            sourceVersion: source.name, destinationVersion: destination.name, entities: inference.mappings,
            diagnostics: inference.diagnostics, conditions: inference.conditions)
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
    var mappings: [InferredEntityMapping] = []
    var diagnostics: [Diagnostic] = []
    var conditions: [RowCondition] = []
    /// Destination entity name → the source entity it comes from, over the whole model (a
    /// relationship's destination is compared through it).
    var matched: [String: String] = [:]
    /// The entities the store holds in each version; nil for every entity.
    let storedEntities: (source: Set<String>, destination: Set<String>)?

    init(source: ModelVersion, destination: ModelVersion, storedEntities: (source: Set<String>, destination: Set<String>)?) {
        self.source = EntityHierarchy(source)
        self.destination = EntityHierarchy(destination)
        self.storedEntities = storedEntities
    }

    /// The destination entities the mapping covers, in the version's order.
    var destinationEntities: [Entity] {
        destination.version.entities.filter { storedEntities?.destination.contains($0.name) ?? true }
    }

    /// The source entity `entity` comes from, when the store holds it in the source version.
    func storedSource(of entity: Entity) -> Entity? {
        guard let name = matched[entity.name], storedEntities?.source.contains(name) ?? true else { return nil }
        return source.entity(named: name)
    }

    mutating func run(sourceHashes: [String: VersionHash], destinationHashes: [String: VersionHash]) {
        let sourceList = source.version.entities, destinationList = destination.version.entities
        let pairs = IdentityMatch.pairs(
            destinations: destinationList.map { .init(name: $0.name, renamingIdentifier: $0.renamingIdentifier) },
            sources: sourceList.map { .init(name: $0.name, renamingIdentifier: $0.renamingIdentifier) })
        for (destinationIndex, sourceIndex) in pairs {
            matched[destinationList[destinationIndex].name] = sourceList[sourceIndex].name
        }
        for entity in destinationEntities.sorted(by: { $0.name < $1.name }) {
            guard let sourceEntity = storedSource(of: entity) else {
                let properties =
                    destination.attributes(of: entity).map { attributeAdded($0, entity, sourceEntity: nil) }
                    + destination.relationships(of: entity).map {
                        InferredPropertyMapping(kind: .add, source: nil, destination: $0.name, isRelationship: true, change: nil, dropsData: false)
                    }
                mappings.append(InferredEntityMapping(kind: .add, source: nil, destination: entity.name, properties: properties))
                continue
            }
            let sourceName = sourceEntity.name
            let same = sourceName == entity.name && sourceHashes[sourceName] == destinationHashes[entity.name]
            mappings.append(
                InferredEntityMapping(
                    kind: same ? .copy : .transform, source: sourceName, destination: entity.name,
                    properties: properties(from: sourceEntity, to: entity)))
        }
        let used = Set(destinationEntities.compactMap { storedSource(of: $0)?.name })
        let removed = source.version.entities.filter { !used.contains($0.name) && (storedEntities?.source.contains($0.name) ?? true) }
        for entity in removed.sorted(by: { $0.name < $1.name }) {
            let properties =
                source.attributes(of: entity).map { InferredPropertyMapping(kind: .remove, source: $0.name, destination: nil, isRelationship: false, change: nil, dropsData: true) }
                + source.relationships(of: entity).map { InferredPropertyMapping(kind: .remove, source: $0.name, destination: nil, isRelationship: true, change: nil, dropsData: true) }
            mappings.append(InferredEntityMapping(kind: .remove, source: entity.name, destination: nil, properties: properties))
        }
        checkHierarchies()
        suggestEntityRenames(removed: removed)
    }

    // MARK: Properties

    private mutating func properties(from sourceEntity: Entity, to entity: Entity) -> [InferredPropertyMapping] {
        var result = [InferredPropertyMapping]()
        let oldAttributes = source.attributes(of: sourceEntity), newAttributes = destination.attributes(of: entity)
        let oldRelationships = source.relationships(of: sourceEntity), newRelationships = destination.relationships(of: entity)
        let attributePairs = IdentityMatch.pairs(
            destinations: newAttributes.map { .init(name: $0.name, renamingIdentifier: $0.renamingIdentifier) },
            sources: oldAttributes.map { .init(name: $0.name, renamingIdentifier: $0.renamingIdentifier) })
        let relationshipPairs = IdentityMatch.pairs(
            destinations: newRelationships.map { .init(name: $0.name, renamingIdentifier: $0.renamingIdentifier) },
            sources: oldRelationships.map { .init(name: $0.name, renamingIdentifier: $0.renamingIdentifier) })
        var addedAttributes = [Attribute](), addedRelationships = [Relationship]()
        for (index, attribute) in newAttributes.enumerated() {
            guard let old = attributePairs[index].map({ oldAttributes[$0] }) else {
                result.append(attributeAdded(attribute, entity, sourceEntity: sourceEntity.name))
                if attribute.renamingIdentifier == nil { addedAttributes.append(attribute) }
                continue
            }
            result.append(attributeMapping(old, attribute, entity, sourceEntity: sourceEntity.name))
        }
        for (index, relationship) in newRelationships.enumerated() {
            guard let old = relationshipPairs[index].map({ oldRelationships[$0] }) else {
                if !relationship.isOptional && !relationship.isToMany {
                    addConditional(
                        MigrationDiagnostics.requiredRelationshipAdded(entity.name, relationship.name, at: relationship.location),
                        RowCondition(sourceEntity: sourceEntity.name, emptyProperty: nil))
                }
                result.append(InferredPropertyMapping(kind: .add, source: nil, destination: relationship.name, isRelationship: true, change: nil, dropsData: false))
                if relationship.renamingIdentifier == nil { addedRelationships.append(relationship) }
                continue
            }
            result.append(relationshipMapping(old, relationship, entity))
        }
        let keptAttributes = Set(attributePairs.values), keptRelationships = Set(relationshipPairs.values)
        let removedAttributes = oldAttributes.indices.filter { !keptAttributes.contains($0) }.map { oldAttributes[$0] }.sorted { $0.name < $1.name }
        let removedRelationships = oldRelationships.indices.filter { !keptRelationships.contains($0) }.map { oldRelationships[$0] }.sorted { $0.name < $1.name }
        for old in removedAttributes {
            result.append(InferredPropertyMapping(kind: .remove, source: old.name, destination: nil, isRelationship: false, change: nil, dropsData: true))
        }
        for old in removedRelationships {
            result.append(InferredPropertyMapping(kind: .remove, source: old.name, destination: nil, isRelationship: true, change: nil, dropsData: true))
        }
        // Rename suggestions once, on the entity that declares the property, not per subentity.
        let declared = Set(sourceEntity.attributes.map(\.name) + sourceEntity.relationships.map(\.name))
        let own = Set(entity.attributes.map(\.name) + entity.relationships.map(\.name))
        suggestPropertyRenames(
            entity, removedAttributes: removedAttributes.filter { declared.contains($0.name) }, added: addedAttributes.filter { own.contains($0.name) },
            removedRelationships: removedRelationships.filter { declared.contains($0.name) },
            addedRelationships: addedRelationships.filter { own.contains($0.name) })
        return result
    }

    /// Records a diagnostic that holds only when the store has rows matching `condition`.
    private mutating func addConditional(_ diagnostic: Diagnostic, _ condition: RowCondition) {
        var condition = condition
        condition.diagnostic = diagnostic.inFile(destination.version.path)
        diagnostics.append(condition.diagnostic)
        conditions.append(condition)
    }

    /// A new attribute; `sourceEntity` is `nil` when the entity is new too (no rows to fill).
    private mutating func attributeAdded(_ attribute: Attribute, _ entity: Entity, sourceEntity: String?) -> InferredPropertyMapping {
        if let sourceEntity, !attribute.isOptional && attribute.defaultValueString == nil && attribute.defaultDateTimeInterval == nil {
            addConditional(
                MigrationDiagnostics.requiredWithoutDefault(entity.name, attribute.name, added: true, at: attribute.location),
                RowCondition(sourceEntity: sourceEntity, emptyProperty: nil))
        }
        let change = attribute.defaultValueString.map { "default \($0)" }
        return InferredPropertyMapping(kind: .add, source: nil, destination: attribute.name, isRelationship: false, change: change, dropsData: false)
    }

    private mutating func attributeMapping(_ old: Attribute, _ new: Attribute, _ entity: Entity, sourceEntity: String) -> InferredPropertyMapping {
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
            if let value = new.defaultValueString ?? new.defaultDateTimeInterval {
                changes.append("optional → required, default \(value)")
            } else {
                addConditional(
                    MigrationDiagnostics.requiredWithoutDefault(entity.name, new.name, added: false, at: new.location),
                    RowCondition(sourceEntity: sourceEntity, emptyProperty: old.name))
            }
        }
        let renamed = old.name != new.name
        let kind: InferredPropertyMapping.Kind = renamed ? .rename : (changes.isEmpty ? .copy : .transform)
        if renamed { changes.insert("renamed from '\(old.name)'", at: 0) }
        return InferredPropertyMapping(
            kind: kind, source: old.name, destination: new.name, isRelationship: false,
            change: changes.isEmpty ? nil : changes.joined(separator: "; "), dropsData: false)
    }

    private mutating func relationshipMapping(_ old: Relationship, _ new: Relationship, _ entity: Entity) -> InferredPropertyMapping {
        var changes = [String]()
        // A retargeted relationship maps by name like any other (Core Data's inferred mapping
        // carries each link to the destination instance of its source object).
        if matched[new.destinationEntityName] != old.destinationEntityName {
            changes.append("destination \(old.destinationEntityName) → \(new.destinationEntityName)")
        }
        if old.isToMany != new.isToMany { changes.append(old.isToMany ? "to-many → to-one" : "to-one → to-many") }
        if old.isToMany && new.isToMany && old.isOrdered != new.isOrdered { changes.append(new.isOrdered ? "unordered → ordered" : "ordered → unordered") }
        let renamed = old.name != new.name
        if renamed { changes.insert("renamed from '\(old.name)'", at: 0) }
        let kind: InferredPropertyMapping.Kind = renamed ? .rename : (changes.isEmpty ? .copy : .transform)
        return InferredPropertyMapping(
            kind: kind, source: old.name, destination: new.name, isRelationship: true,
            change: changes.isEmpty ? nil : changes.joined(separator: "; "), dropsData: old.isToMany && !new.isToMany)
    }

    // MARK: Hierarchies

    /// Two entities that had no common ancestor in the source cannot share one in the
    /// destination: their rows live in different tables, which Core Data does not merge.
    private mutating func checkHierarchies() {
        var sourceRootsByDestinationRoot = [String: (root: String, entity: String)]()
        for entity in destinationEntities.sorted(by: { $0.name < $1.name }) {
            guard let sourceEntity = storedSource(of: entity) else { continue }
            let sourceName = sourceEntity.name
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
        let added = destinationEntities.filter { storedSource(of: $0) == nil && $0.renamingIdentifier == nil }
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
