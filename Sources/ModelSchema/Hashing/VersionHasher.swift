import Foundation

/// Computes Core Data's version hashes for one model version, bit for bit as Apple does.
///
/// The algorithm hashes, for each entity, its name, abstractness, its
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
    /// The position in `version.entities` of the first entity declared with each name; positions
    /// rather than entities, so that building it copies no entity.
    private let entityPositions: [String: Int]
    private let compositesByName: [String: CompositeDefinition]

    public init(_ version: ModelVersion) {
        self.version = version
        var positions = [String: Int](minimumCapacity: version.entities.count)
        for index in version.entities.indices {
            positions[version.entities[index].name] = positions[version.entities[index].name] ?? index
        }
        entityPositions = positions
        var composites = [String: CompositeDefinition]()
        for composite in version.composites where composites[composite.name] == nil {
            composites[composite.name] = composite
        }
        compositesByName = composites
    }

    // MARK: - Model-level values

    /// The version hash of every entity, by entity name (abstract entities and subentities included).
    ///
    /// Each hierarchy is walked down from its root once, without recursion (``HierarchyWalk``);
    /// a cycle, which validation reports, is entered at one of its entities, hashed as a root.
    public func entityHashes() -> [String: VersionHash] {
        version.entities.withUnsafeBufferPointer { entities in
            var walk = HierarchyWalk(entities: entities, positions: entityPositions)
            for root in walk.nodes where walk.parents[root] == nil {
                walk.descend(from: root, hasher: self)
            }
            for node in walk.nodes where walk.hashes[node] == nil {
                walk.descend(from: walk.cycleEntry(above: node), hasher: self)
            }
            var result = [String: VersionHash](minimumCapacity: walk.nodes.count)
            for node in walk.nodes { result[entities[node].name] = walk.hashes[node] }
            return result
        }
    }

    /// `NSManagedObjectModel.versionChecksum`: base64 of SHA-256 over the entity hashes in name order.
    public func versionChecksum(_ hashes: [String: VersionHash]? = nil) -> String {
        let hashes = Self.inNameOrder(hashes ?? entityHashes())
        var input = HashInput(capacity: 32 * hashes.count)
        for (_, hash) in hashes {
            input.append(hash)
        }
        return input.sha256.base64
    }

    /// `NSStoreModelVersionHashesDigest`: base64 of SHA-512 over each entity's name and hash, in name order.
    public func hashesDigest(_ hashes: [String: VersionHash]? = nil) -> String {
        var input = HashInput()
        for (name, hash) in Self.inNameOrder(hashes ?? entityHashes()) {
            input.append(name)
            input.append(hash)
        }
        return Data(input.sha512).base64EncodedString()
    }

    /// Entity hashes in ``NameOrder``, the order both model-level values cover them in.
    private static func inNameOrder(_ hashes: [String: VersionHash]) -> [(key: String, value: VersionHash)] {
        let pairs = Array(hashes)
        return NameOrder.sortedPositions(of: pairs.map(\.key)).map { pairs[$0] }
    }

    // MARK: - Entities

    /// The hash of the entity `entity` points to, given its parent's hash and its own and
    /// inherited property hashes in name order; the property hashes are fed to SHA-256 in place.
    func entityHash(_ entity: UnsafePointer<Entity>, parentHash: VersionHash?, properties: [UInt8]) -> VersionHash {
        var head = HashInput(capacity: 64 + entity.pointee.name.utf8.count)
        head.append(entity.pointee.name)
        head.append(byte: entity.pointee.isAbstract ? 1 : 0)
        if let parentHash {
            head.append(parentHash)
        }
        var tail = HashInput()
        if let modifier = entity.pointee.versionHashModifier, !modifier.isEmpty {
            tail.append(modifier)
        }
        let constraints = entity.pointee.uniquenessConstraints.map { $0.joined(separator: ".") }
        for constraint in constraints.sorted(by: NameOrder.precedes) {
            tail.append(constraint)
        }
        var hasher = SHA256()
        head.bytes.withUnsafeBytes { hasher.update(bufferPointer: $0) }
        properties.withUnsafeBytes { hasher.update(bufferPointer: $0) }
        tail.bytes.withUnsafeBytes { hasher.update(bufferPointer: $0) }
        return VersionHash(bytes: hasher.finalize())
    }

    // MARK: - Properties

    /// `attributeHash(_:)` through the memo, for the attributes whose hash depends on plain values;
    /// reads the attribute in place, since copying one costs more than a look-up.
    func attributeHash(at index: Int, of attributes: UnsafeBufferPointer<Attribute>, memo: inout AttributeMemo) -> VersionHash {
        guard !attributes[index].isDerived, attributes[index].type != .composite else {
            return attributeHash(attributes[index])
        }
        if let known = memo.hash(of: attributes.baseAddress! + index) { return known }
        let key = AttributeHashKey(attributes.baseAddress! + index)
        let hash = key.versionHash
        memo.insert(hash, for: key)
        return hash
    }

    /// What the hash every property kind starts from covers: name, flags and version hash modifier.
    static func baseInput(name: String, isOptional: Bool, isTransient: Bool, modifier: String?) -> HashInput {
        var input = HashInput()
        input.append(name)
        input.append(uint16: (isOptional ? 1 : 0) | (isTransient ? 2 : 0))
        if let modifier, !modifier.isEmpty {
            input.append(modifier)
        }
        return input
    }

    /// The version hash of one attribute (`NSPropertyDescription.versionHash`), so a tool can say
    /// which property of an entity changed its hash.
    public func attributeHash(_ attribute: Attribute) -> VersionHash {
        if attribute.isDerived, let expression = attribute.derivationExpression {
            var input = HashInput()
            input.append(DerivationExpression.predicateFormat(of: expression))
            return input.sha256
        }
        if attribute.type == .composite {
            return compositeHash(attribute)
        }
        return withUnsafePointer(to: attribute) { AttributeHashKey($0) }.versionHash
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

    /// The version hash of one relationship of `entity` (`NSPropertyDescription.versionHash`), for
    /// callers that hash one property at a time (lock files): the reflexive-inverse rule is decided
    /// on the top-most ancestor that declares the name, as in the entity hashes.
    public func relationshipHash(_ relationship: Relationship, in entity: Entity) -> VersionHash {
        var declaring = entity
        var seen: Set<String> = [entity.name]
        var next = entity.parentEntityName.flatMap { entityPositions[$0] }
        while let position = next, seen.insert(version.entities[position].name).inserted {
            let ancestor = version.entities[position]
            if ancestor.relationships.contains(where: { $0.name == relationship.name }) { declaring = ancestor }
            next = ancestor.parentEntityName.flatMap { entityPositions[$0] }
        }
        let top = declaring.relationships.first { $0.name == relationship.name } ?? relationship
        let isReflexive = top.inverseName == top.name && top.destinationEntityName == declaring.name
        return relationshipHash(relationship, isReflexive: isReflexive)
    }

    /// A relationship's hash. `isReflexive` is the reflexive-inverse rule of
    /// `-[NSRelationshipDescription _versionHash:inStyle:]` in the style stores record (0): the
    /// inverse name is left out when the relationship is its own inverse, which for an inherited
    /// relationship is decided on the top-most ancestor declaring it.
    func relationshipHash(_ relationship: Relationship, isReflexive: Bool) -> VersionHash {
        var input = HashInput(capacity: 128)
        input.append(
            sha256Of: Self.baseInput(
                name: relationship.name, isOptional: relationship.isOptional,
                isTransient: relationship.isTransient, modifier: relationship.versionHashModifier))
        input.append(relationship.destinationEntityName)
        if let inverse = relationship.inverseName, !isReflexive {
            input.append(inverse)
        }
        input.append(uint32: UInt32(truncatingIfNeeded: relationship.effectiveMaxCount))
        input.append(uint32: UInt32(truncatingIfNeeded: relationship.effectiveMinCount))
        if relationship.isOrdered { input.append(uint16: 1) }
        return input.sha256
    }
}
