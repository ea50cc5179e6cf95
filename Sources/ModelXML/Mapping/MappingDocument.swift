import ModelSchema

/// The content of a `.xcmappingmodel/xcmapping.xml` as Xcode's mapping editor stored it, before
/// compiling: names and flags as written, and the keyed archives (model snapshots, value
/// expressions, user info) still as bytes, for `ModelArchive` to decode.
///
/// Only objects reachable from the mapping model count: the editor leaves orphaned entity and
/// property mappings behind, which are dropped here.
public struct MappingDocument: Sendable, Hashable {
    /// The `xcmapping.xml` path.
    public var path: String
    public var sourceModelPath: String?
    public var destinationModelPath: String?
    /// The keyed archives of Xcode's snapshots of the two models.
    public var sourceModelData: [UInt8]?
    public var destinationModelData: [UInt8]?
    /// Entity mappings in `mappingnumber` order.
    public var entityMappings: [Entity]
    /// Objects of the file that no mapping reaches (left behind by the editor).
    public var orphanCount: Int
    public var location: SourceLocation

    public init(
        path: String, sourceModelPath: String?, destinationModelPath: String?, sourceModelData: [UInt8]?,
        destinationModelData: [UInt8]?, entityMappings: [Entity], orphanCount: Int = 0, location: SourceLocation = .unknown
    ) {
        self.path = path
        self.sourceModelPath = sourceModelPath
        self.destinationModelPath = destinationModelPath
        self.sourceModelData = sourceModelData
        self.destinationModelData = destinationModelData
        self.entityMappings = entityMappings
        self.orphanCount = orphanCount
        self.location = location
    }

    /// An `XDDEVENTITYMAPPING` object.
    public struct Entity: Sendable, Hashable {
        public var name: String?
        public var sourceName: String?
        public var destinationName: String?
        /// `mappingtypename`: `Undefined` in every file Xcode wrote.
        public var typeName: String?
        public var number: Int
        public var policyClassName: String?
        public var filterPredicate: String?
        public var userInfoData: [UInt8]?
        /// `autogenerateexpression`: whether the compiler fills in expressions left empty.
        public var autogeneratesExpressions: Bool
        public var attributeMappings: [Property]
        public var relationshipMappings: [Property]
        public var location: SourceLocation

        public init(
            name: String?, sourceName: String?, destinationName: String?, typeName: String?, number: Int,
            policyClassName: String?, filterPredicate: String?, userInfoData: [UInt8]?, autogeneratesExpressions: Bool,
            attributeMappings: [Property], relationshipMappings: [Property], location: SourceLocation = .unknown
        ) {
            self.name = name
            self.sourceName = sourceName
            self.destinationName = destinationName
            self.typeName = typeName
            self.number = number
            self.policyClassName = policyClassName
            self.filterPredicate = filterPredicate
            self.userInfoData = userInfoData
            self.autogeneratesExpressions = autogeneratesExpressions
            self.attributeMappings = attributeMappings
            self.relationshipMappings = relationshipMappings
            self.location = location
        }
    }

    /// An `XDDEVATTRIBUTEMAPPING` or `XDDEVRELATIONSHIPMAPPING` object.
    public struct Property: Sendable, Hashable {
        public var name: String
        /// The keyed archive of a value expression set in the editor.
        public var valueExpressionData: [UInt8]?
        /// The relationship inspector's "Mapping Name" and "Key Path" fields.
        public var sourceMappingName: String?
        public var sourceKeyPath: String?
        /// `autogenerateexpression` (relationship mappings only; absent means yes).
        public var autogeneratesExpressions: Bool
        public var location: SourceLocation

        public init(
            name: String, valueExpressionData: [UInt8]?, sourceMappingName: String? = nil, sourceKeyPath: String? = nil,
            autogeneratesExpressions: Bool = true, location: SourceLocation = .unknown
        ) {
            self.name = name
            self.valueExpressionData = valueExpressionData
            self.sourceMappingName = sourceMappingName
            self.sourceKeyPath = sourceKeyPath
            self.autogeneratesExpressions = autogeneratesExpressions
            self.location = location
        }
    }
}
