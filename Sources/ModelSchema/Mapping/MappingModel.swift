/// A custom mapping model: what `NSMappingModel` holds, read from a `.xcmappingmodel` or a
/// compiled `.cdm`.
///
/// Expressions are kept as `predicateFormat` text (`$source.name`,
/// `FUNCTION($manager, "destinationInstancesForEntityMappingNamed:sourceInstances:", "AToB", $source.b)`);
/// `ModelExpression` parses them into syntax trees, and the archiver writes those trees as the
/// NSExpression objects Xcode writes.
public struct MappingModel: Sendable, Hashable {
    /// The name without extension (`V2toV3` for `V2toV3.xcmappingmodel` or `V2toV3.cdm`).
    public var name: String
    /// The path the mapping model was read from.
    public var path: String
    /// The project-relative paths of the two models Xcode recorded (often stale); nil for a `.cdm`.
    public var sourceModelPath: String?
    public var destinationModelPath: String?
    /// Xcode's snapshots of the source and destination model, taken when the mapping was edited;
    /// nil for a `.cdm`, which keeps only entity hashes.
    public var sourceSnapshot: ModelVersion?
    public var destinationSnapshot: ModelVersion?
    /// The entity mappings in the editor's order (`mappingnumber`), which is the migration order.
    public var entityMappings: [EntityMapping]

    public init(
        name: String, path: String, sourceModelPath: String? = nil, destinationModelPath: String? = nil,
        sourceSnapshot: ModelVersion? = nil, destinationSnapshot: ModelVersion? = nil,
        entityMappings: [EntityMapping] = []
    ) {
        self.name = name
        self.path = path
        self.sourceModelPath = sourceModelPath
        self.destinationModelPath = destinationModelPath
        self.sourceSnapshot = sourceSnapshot
        self.destinationSnapshot = destinationSnapshot
        self.entityMappings = entityMappings
    }

    /// The entity mapping with the given name.
    public func entityMapping(named name: String) -> EntityMapping? {
        entityMappings.first { $0.name == name }
    }

    /// The source entity hashes the mapping was made for, by entity name.
    public var sourceEntityHashes: [String: VersionHash] {
        Dictionary(entityMappings.compactMap { mapping in
            mapping.sourceEntityName.flatMap { name in mapping.sourceEntityVersionHash.map { (name, $0) } }
        }, uniquingKeysWith: { first, _ in first })
    }

    /// The destination entity hashes the mapping was made for, by entity name.
    public var destinationEntityHashes: [String: VersionHash] {
        Dictionary(entityMappings.compactMap { mapping in
            mapping.destinationEntityName.flatMap { name in mapping.destinationEntityVersionHash.map { (name, $0) } }
        }, uniquingKeysWith: { first, _ in first })
    }
}

/// `NSEntityMappingType`.
public enum EntityMappingType: Int, Sendable, Hashable, CaseIterable {
    case undefined = 0
    case custom = 1
    case add = 2
    case remove = 3
    case copy = 4
    case transform = 5

    /// The name Xcode's editor stores in `mappingtypename` and `inspect` prints.
    public var name: String {
        switch self {
        case .undefined: "Undefined"
        case .custom: "Custom"
        case .add: "Add"
        case .remove: "Remove"
        case .copy: "Copy"
        case .transform: "Transform"
        }
    }

    public init?(name: String) {
        guard let match = Self.allCases.first(where: { $0.name == name }) else { return nil }
        self = match
    }
}
