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
    public func entityHashes() -> [String: VersionHash] {
        var memo = Memo()
        memo.entities.reserveCapacity(version.entities.count)
        memo.walkMarks = Array(repeating: -1, count: version.entities.count)
        version.entities.withUnsafeBufferPointer { entities in
            for index in entities.indices where memo.entities[entities[index].name] == nil {
                // The entity and its ancestors not hashed yet, nearest first, hashed from the top
                // down: a loop, not recursion, so a chain of any depth keeps the stack flat. A
                // cycle ends the walk; its first entity is then hashed without a parent hash.
                var pending = [index]
                var names: Set<String> = [entities[index].name]
                while let parent = entities[pending.last!].parentEntityName.flatMap({ entityPositions[$0] }),
                    memo.entities[entities[parent].name] == nil, names.insert(entities[parent].name).inserted
                {
                    pending.append(parent)
                }
                for position in pending.reversed() {
                    _ = entityHash(entities[position], memo: &memo)
                }
            }
        }
        return memo.entities
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

    /// The hashes computed so far: entities by name, and plain attributes by the values their
    /// hash covers, since models repeat attributes (`id`, `createdAt`) across entities.
    private struct Memo {
        var entities: [String: VersionHash] = [:]
        var attributes = AttributeMemo()
        /// For each entity position, the number of the ancestor walk that last reached it: how a
        /// walk notices a cycle without a set of names.
        var walkMarks: [Int] = []
        var walks = 0
    }

    /// One own or inherited property in an entity's hash: its name, and its hash unless it is transient.
    private struct NamedHash {
        var name: String
        var hash: VersionHash?
    }

    /// The entity's hash; its parent's, when it has one outside a cycle, is already in `memo`.
    private func entityHash(_ entity: Entity, memo: inout Memo) -> VersionHash {
        if let known = memo.entities[entity.name] { return known }
        let parentHash = entity.parentEntityName.flatMap { memo.entities[$0] }
        let properties = propertyHashes(of: entity, memo: &memo)
        var input = HashInput(capacity: 128 + entity.name.utf8.count + 32 * properties.count)
        input.append(entity.name)
        input.append(byte: entity.isAbstract ? 1 : 0)
        if let parentHash {
            input.append(parentHash)
        }
        for hash in properties {
            input.append(hash)
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

    /// The positions of the entity's ancestors, nearest first, stopping before any entity the
    /// walk has reached (a cycle); reads positions, never copying an entity.
    private func ancestorPositions(of entity: Entity, memo: inout Memo) -> [Int] {
        guard entity.parentEntityName != nil else { return [] }
        memo.walks += 1
        if let own = entityPositions[entity.name] { memo.walkMarks[own] = memo.walks }
        var ancestors = [Int]()
        var next = entity.parentEntityName.flatMap { entityPositions[$0] }
        while let position = next, memo.walkMarks[position] != memo.walks {
            memo.walkMarks[position] = memo.walks
            ancestors.append(position)
            next = version.entities[position].parentEntityName.flatMap { entityPositions[$0] }
        }
        return ancestors
    }

    /// The hashes of own and inherited attributes and relationships in name order, transient ones
    /// left out; a subentity's own property wins, and within one entity the last one of a name.
    /// Hashing here, rather than collecting the properties first, saves copying every attribute.
    private func propertyHashes(of entity: Entity, memo: inout Memo) -> [VersionHash] {
        let ancestors = ancestorPositions(of: entity, memo: &memo)
        var properties = [NamedHash]()
        properties.reserveCapacity(
            ancestors.reduce(entity.attributes.count + entity.relationships.count) {
                $0 + version.entities[$1].attributes.count + version.entities[$1].relationships.count
            })
        // Whether each relationship name is reflexive where it is first declared, top down.
        var reflexive = [String: Bool]()
        for position in ancestors.reversed() {
            appendPropertyHashes(of: version.entities[position], to: &properties, reflexive: &reflexive, memo: &memo)
        }
        appendPropertyHashes(of: entity, to: &properties, reflexive: &reflexive, memo: &memo)
        return Self.nameOrderedHashes(properties)
    }

    /// Appends the hashes of the attributes and relationships `declaring` declares, as seen from
    /// `entity`; reads them in place rather than copying each one.
    private func appendPropertyHashes(
        of declaring: Entity, to properties: inout [NamedHash], reflexive: inout [String: Bool], memo: inout Memo
    ) {
        declaring.attributes.withUnsafeBufferPointer { attributes in
            for index in attributes.indices {
                let hash = attributes[index].isTransient ? nil : attributeHash(at: index, of: attributes, memo: &memo)
                properties.append(NamedHash(name: attributes[index].name, hash: hash))
            }
        }
        declaring.relationships.withUnsafeBufferPointer { relationships in
            for index in relationships.indices {
                let relationship = relationships[index]
                let isReflexive = reflexive[relationship.name] ?? {
                    let value = relationship.inverseName == relationship.name
                        && relationship.destinationEntityName == declaring.name
                    reflexive[relationship.name] = value
                    return value
                }()
                let hash = relationship.isTransient ? nil : relationshipHash(relationship, isReflexive: isReflexive)
                properties.append(NamedHash(name: relationship.name, hash: hash))
            }
        }
    }

    /// The hashes of `properties` in name order, where of equal names the last one counts and
    /// transient ones (no hash) are left out, as a dictionary keyed by name, sorted, would give.
    ///
    /// Sorts by name and then position, so that equal names end up next to each other with the
    /// last one last, which is the one kept. Only with non-ASCII names can equal (canonically
    /// equivalent) names have different bytes and sort apart; those are merged by a dictionary first.
    private static func nameOrderedHashes(_ properties: [NamedHash]) -> [VersionHash] {
        let allASCII = properties.indices.allSatisfy { isASCII(properties[$0].name) }
        let properties = allASCII ? properties : mergingEqualNames(properties)
        let order = NameOrder.sortedPositions(of: properties.map(\.name))
        var hashes = [VersionHash]()
        hashes.reserveCapacity(properties.count)
        properties.withUnsafeBufferPointer { properties in
            for (position, index) in order.enumerated() {
                if position + 1 < order.count, properties[order[position + 1]].name == properties[index].name { continue }
                if let hash = properties[index].hash { hashes.append(hash) }
            }
        }
        return hashes
    }

    /// The properties with equal names merged as assigning into a dictionary merges them: at the
    /// first one's place, spelled as the first one, with the last one's hash.
    private static func mergingEqualNames(_ properties: [NamedHash]) -> [NamedHash] {
        var merged = [NamedHash]()
        var positions = [String: Int]()
        for property in properties {
            if let position = positions[property.name] {
                merged[position].hash = property.hash
            } else {
                positions[property.name] = merged.count
                merged.append(property)
            }
        }
        return merged
    }

    /// Whether the name is all ASCII, where equal names are equal bytes.
    private static func isASCII(_ name: String) -> Bool {
        name.utf8.withContiguousStorageIfAvailable { !$0.contains { $0 >= 0x80 } } ?? !name.utf8.contains { $0 >= 0x80 }
    }

    // MARK: - Properties

    /// `attributeHash(_:)` through the memo, for the attributes whose hash depends on plain values;
    /// reads the attribute in place, since copying one costs more than a look-up.
    private func attributeHash(at index: Int, of attributes: UnsafeBufferPointer<Attribute>, memo: inout Memo) -> VersionHash {
        guard !attributes[index].isDerived, attributes[index].type != .composite else {
            return attributeHash(attributes[index])
        }
        if let known = memo.attributes.hash(of: attributes.baseAddress! + index) { return known }
        let key = AttributeHashKey(attributes.baseAddress! + index)
        let hash = key.versionHash
        memo.attributes.insert(hash, for: key)
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
