import ModelSchema

/// Whether a destination entity keeps every stored property of a same-named source entity as it
/// was: same name, same version hash, new properties allowed. Xcode's mapping editor leaves every
/// entity mapping's type "Undefined" in `xcmapping.xml`, and mapc writes copy for a same-named
/// mapping whose destination keeps its source's properties, transform for one that drops,
/// renames or changes one (a relationship whose inverse was renamed counts as changed), as every
/// public pair of `.xcmappingmodel` and `.cdm` shows (Documentation/MappingModels.md).
struct PropertyKeeping {
    private let source: EntityHierarchy
    private let destination: EntityHierarchy
    private let sourceHasher: VersionHasher
    private let destinationHasher: VersionHasher

    init(source: ModelVersion, destination: ModelVersion) {
        self.source = EntityHierarchy(source)
        self.destination = EntityHierarchy(destination)
        sourceHasher = VersionHasher(source)
        destinationHasher = VersionHasher(destination)
    }

    /// Whether `destinationName` keeps every stored property of `sourceName`; true when either
    /// entity is unknown, so that a mapping without its models stays a copy.
    func keepsEveryProperty(of sourceName: String, in destinationName: String) -> Bool {
        guard let old = source.entity(named: sourceName), let new = destination.entity(named: destinationName) else { return true }
        let kept = hashes(of: new, in: destination, destinationHasher)
        return hashes(of: old, in: source, sourceHasher).allSatisfy { kept[$0.key] == $0.value }
    }

    /// The version hash of each stored property of `entity`, inherited ones included, by name.
    private func hashes(of entity: Entity, in hierarchy: EntityHierarchy, _ hasher: VersionHasher) -> [String: VersionHash] {
        var hashes = [String: VersionHash]()
        for attribute in hierarchy.attributes(of: entity) { hashes[attribute.name] = hasher.attributeHash(attribute) }
        for relationship in hierarchy.relationships(of: entity) { hashes[relationship.name] = hasher.relationshipHash(relationship, in: entity) }
        return hashes
    }
}
