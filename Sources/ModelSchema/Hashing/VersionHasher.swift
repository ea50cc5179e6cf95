import Foundation

/// Computes Core Data's version hashes for one model version, bit for bit as Apple does.
///
/// The algorithm (FORMATS.md §5) hashes, for each entity, its name, abstractness, its
/// superentity's hash, the hashes of its non-transient attributes and relationships (own and
/// inherited, sorted by name), its version hash modifier and its uniqueness constraints. It was
/// checked against the `NSStoreModelVersionHashes` of real stores and Xcode's `VersionInfo.plist`.
///
/// ```swift
/// let hashes = VersionHasher(version).entityHashes()
/// print(hashes["Post"]!.hex)
/// ```
public struct VersionHasher: Sendable {
    public let version: ModelVersion
    private let entitiesByName: [String: Entity]
    private let compositesByName: [String: CompositeDefinition]

    public init(_ version: ModelVersion) {
        self.version = version
        var entities = [String: Entity]()
        for entity in version.entities where entities[entity.name] == nil {
            entities[entity.name] = entity
        }
        entitiesByName = entities
        var composites = [String: CompositeDefinition]()
        for composite in version.composites where composites[composite.name] == nil {
            composites[composite.name] = composite
        }
        compositesByName = composites
    }

    // MARK: - Model-level values

    /// The version hash of every entity, by entity name (abstract entities and subentities included).
    public func entityHashes() -> [String: VersionHash] {
        var memo = Memo()
        for entity in version.entities {
            _ = entityHash(entity, memo: &memo, visiting: [])
        }
        return memo.entities
    }

    /// `NSManagedObjectModel.versionChecksum`: base64 of SHA-256 over the entity hashes in name order.
    public func versionChecksum(_ hashes: [String: VersionHash]? = nil) -> String {
        let hashes = hashes ?? entityHashes()
        var input = HashInput()
        for name in hashes.keys.sorted(by: NameOrder.precedes) {
            input.append(hashes[name]!)
        }
        return input.sha256.base64
    }

    /// `NSStoreModelVersionHashesDigest`: base64 of SHA-512 over each entity's name and hash, in name order.
    public func hashesDigest(_ hashes: [String: VersionHash]? = nil) -> String {
        let hashes = hashes ?? entityHashes()
        var input = HashInput()
        for name in hashes.keys.sorted(by: NameOrder.precedes) {
            input.append(name)
            input.append(hashes[name]!)
        }
        return Data(input.sha512).base64EncodedString()
    }

    // MARK: - Entities

    /// The hashes computed so far: entities by name, and plain attributes by the values their
    /// hash covers, since models repeat attributes (`id`, `createdAt`) across entities.
    private struct Memo {
        var entities: [String: VersionHash] = [:]
        var attributes: [AttributeHashKey: VersionHash] = [:]
    }

    /// What the hash of an attribute that is neither derived nor composite depends on.
    private struct AttributeHashKey: Hashable {
        var name: String
        var type: AttributeType
        var isOptional: Bool
        var isTransient: Bool
        var versionHashModifier: String?
        var allowsExternalBinaryDataStorage: Bool
        var preservesValueInHistoryOnDeletion: Bool
    }

    private func entityHash(
        _ entity: Entity, memo: inout Memo, visiting: Set<String>
    ) -> VersionHash {
        if let known = memo.entities[entity.name] { return known }
        var input = HashInput()
        input.append(entity.name)
        input.append(byte: entity.isAbstract ? 1 : 0)
        if let parent = parent(of: entity), !visiting.contains(parent.name) {
            input.append(entityHash(parent, memo: &memo, visiting: visiting.union([entity.name])))
        }
        for (_, hash) in propertyHashes(of: entity, memo: &memo).sorted(by: { NameOrder.precedes($0.key, $1.key) }) {
            if let hash { input.append(hash) }
        }
        if let modifier = entity.versionHashModifier, !modifier.isEmpty {
            input.append(modifier)
        }
        let constraints = entity.uniquenessConstraints.map { $0.joined(separator: ".") }
        for constraint in constraints.sorted(by: NameOrder.precedes) {
            input.append(constraint)
        }
        let hash = input.sha256
        memo.entities[entity.name] = hash
        return hash
    }

    private func parent(of entity: Entity) -> Entity? {
        entity.parentEntityName.flatMap { entitiesByName[$0] }
    }

    /// The root of the entity's hierarchy (cycles stop where they close).
    private func root(of entity: Entity) -> Entity {
        var current = entity
        var seen: Set<String> = [entity.name]
        while let parent = parent(of: current), seen.insert(parent.name).inserted {
            current = parent
        }
        return current
    }

    /// The hashes of own and inherited attributes and relationships by name, `nil` for a
    /// transient one; a subentity's own property wins. Hashing here, rather than collecting the
    /// properties first, saves copying every attribute.
    private func propertyHashes(of entity: Entity, memo: inout Memo) -> [String: VersionHash?] {
        var chain = [entity]
        var seen: Set<String> = [entity.name]
        while let parent = parent(of: chain.last!), seen.insert(parent.name).inserted {
            chain.append(parent)
        }
        var hashes = [String: VersionHash?](
            minimumCapacity: chain.reduce(0) { $0 + $1.attributes.count + $1.relationships.count })
        for ancestor in chain.reversed() {
            for index in ancestor.attributes.indices {
                let hash = ancestor.attributes[index].isTransient ? nil : attributeHash(ancestor.attributes[index], memo: &memo)
                hashes[ancestor.attributes[index].name] = .some(hash)
            }
            for index in ancestor.relationships.indices {
                let relationship = ancestor.relationships[index]
                let hash = relationship.isTransient ? nil : relationshipHash(relationship, in: entity)
                hashes[relationship.name] = .some(hash)
            }
        }
        return hashes
    }

    // MARK: - Properties

    /// `attributeHash(_:)` through the memo, for the attributes whose hash depends on plain values.
    private func attributeHash(_ attribute: Attribute, memo: inout Memo) -> VersionHash {
        guard !attribute.isDerived, attribute.type != .composite else { return attributeHash(attribute) }
        let key = AttributeHashKey(
            name: attribute.name, type: attribute.type, isOptional: attribute.isOptional,
            isTransient: attribute.isTransient, versionHashModifier: attribute.versionHashModifier,
            allowsExternalBinaryDataStorage: attribute.allowsExternalBinaryDataStorage,
            preservesValueInHistoryOnDeletion: attribute.preservesValueInHistoryOnDeletion)
        if let known = memo.attributes[key] { return known }
        let hash = attributeHash(attribute)
        memo.attributes[key] = hash
        return hash
    }

    /// The hash every property kind starts from: name, flags and version hash modifier.
    private func baseHash(name: String, isOptional: Bool, isTransient: Bool, modifier: String?) -> VersionHash {
        var input = HashInput()
        input.append(name)
        input.append(uint16: (isOptional ? 1 : 0) | (isTransient ? 2 : 0))
        if let modifier, !modifier.isEmpty {
            input.append(modifier)
        }
        return input.sha256
    }

    func attributeHash(_ attribute: Attribute) -> VersionHash {
        if attribute.isDerived, let expression = attribute.derivationExpression {
            var input = HashInput()
            input.append(DerivationExpression.predicateFormat(of: expression))
            return input.sha256
        }
        if attribute.type == .composite {
            return compositeHash(attribute)
        }
        var input = HashInput()
        input.append(
            baseHash(
                name: attribute.name, isOptional: attribute.isOptional,
                isTransient: attribute.isTransient, modifier: attribute.versionHashModifier))
        input.append(uint32: attribute.type.rawValue)
        if attribute.allowsExternalBinaryDataStorage { input.append(byte: 1) }
        if attribute.preservesValueInHistoryOnDeletion { input.append(byte: 1) }
        return input.sha256
    }

    /// A composite attribute hashes its flattened, non-transient leaf attributes sorted by name.
    private func compositeHash(_ attribute: Attribute) -> VersionHash {
        var leaves = [Attribute]()
        var seen = Set<String>()
        func flatten(_ compositeName: String?) {
            guard let name = compositeName, seen.insert(name).inserted,
                let composite = compositesByName[name]
            else { return }
            for element in composite.attributes {
                if element.type == .composite { flatten(element.compositeName) } else { leaves.append(element) }
            }
        }
        flatten(attribute.compositeName)
        var input = HashInput()
        for leaf in leaves.filter({ !$0.isTransient }).sorted(by: { NameOrder.precedes($0.name, $1.name) }) {
            input.append(attributeHash(leaf))
        }
        return input.sha256
    }

    func relationshipHash(_ relationship: Relationship, in entity: Entity) -> VersionHash {
        var input = HashInput()
        input.append(
            baseHash(
                name: relationship.name, isOptional: relationship.isOptional,
                isTransient: relationship.isTransient, modifier: relationship.versionHashModifier))
        input.append(relationship.destinationEntityName)
        if let inverse = relationship.inverseName, !isReflexiveInRoot(relationship, of: entity) {
            input.append(inverse)
        }
        input.append(uint32: UInt32(truncatingIfNeeded: relationship.effectiveMaxCount))
        input.append(uint32: UInt32(truncatingIfNeeded: relationship.effectiveMinCount))
        if relationship.isOrdered { input.append(uint16: 1) }
        return input.sha256
    }

    /// The reflexive-inverse rule of `-[NSRelationshipDescription _versionHash:inStyle:]` in the
    /// style stores record (0): the inverse name is left out when the relationship is its own
    /// inverse, which for an inherited relationship is decided on the top-most ancestor declaring it.
    private func isReflexiveInRoot(_ relationship: Relationship, of entity: Entity) -> Bool {
        // Most entities have no superentity: then the relationship is declared here, and no
        // entity needs copying nor any set of names allocating.
        if entity.parentEntityName == nil {
            guard let declared = entity.relationships.first(where: { $0.name == relationship.name }) else { return false }
            return declared.inverseName == declared.name && declared.destinationEntityName == entity.name
        }
        var declaring = entity
        var seen: Set<String> = [entity.name]
        var current = entity
        while let ancestor = parent(of: current), seen.insert(ancestor.name).inserted {
            if ancestor.relationships.contains(where: { $0.name == relationship.name }) { declaring = ancestor }
            current = ancestor
        }
        guard let declared = declaring.relationships.first(where: { $0.name == relationship.name }) else {
            return false
        }
        return declared.inverseName == declared.name && declared.destinationEntityName == declaring.name
    }
}
