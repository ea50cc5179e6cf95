import Foundation
import ModelSchema

/// Reads a `.xcmappingmodel` (or its `xcmapping.xml`): a Core Data XML store holding Xcode's
/// mapping-editor objects, linked by `idrefs`.
///
/// ```swift
/// let (document, diagnostics) = MappingDocumentReader().read(at: "V2toV3.xcmappingmodel")
/// ```
public struct MappingDocumentReader: Sendable {
    public init() {}

    /// The document at `path` with the problems found; nil when it cannot be read at all.
    public func read(at path: String) -> (MappingDocument?, [Diagnostic]) {
        let file = path.hasSuffix("xcmapping.xml") ? path : "\(path.hasSuffix("/") ? String(path.dropLast()) : path)/xcmapping.xml"
        guard FileManager.default.fileExists(atPath: file) else {
            return (nil, [Diagnostic.notAMappingModel("no xcmapping.xml in '\(path)'").inFile(path)])
        }
        guard let bytes = FileBytes.read(atPath: file) else {
            return (nil, [Diagnostic.unreadableFile("permission denied or not a regular file").inFile(file)])
        }
        return read(bytes: bytes, path: file)
    }

    /// The document in `bytes`, the content of the `xcmapping.xml` at `path`.
    public func read(bytes: [UInt8], path: String) -> (MappingDocument?, [Diagnostic]) {
        let root: XMLElementNode
        do {
            root = try XMLDocumentParser.parse(bytes)
        } catch {
            return (nil, [ModelReader.diagnostic(for: error).inFile(path)])
        }
        guard root.name == "database" else {
            return (nil, [Diagnostic.notAMappingModel("the root element is <\(root.name)>, not <database>", at: root.location).inFile(path)])
        }
        let objects = root.children(named: "object").map(StoreObject.init)
        let byID = Dictionary(objects.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        guard let model = objects.first(where: { $0.type == "XDDEVMAPPINGMODEL" }) else {
            return (nil, [Diagnostic.notAMappingModel("no XDDEVMAPPINGMODEL object", at: root.location).inFile(path)])
        }
        var reached = Set([model.id])
        var entities = [MappingDocument.Entity]()
        for entity in model.references("entitymappings").compactMap({ byID[$0] }) where entity.type == "XDDEVENTITYMAPPING" {
            reached.insert(entity.id)
            let attributes = entity.references("attributemappings").compactMap { byID[$0] }
            let relationships = entity.references("relationshipmappings").compactMap { byID[$0] }
            reached.formUnion((attributes + relationships).map(\.id))
            entities.append(MappingDocument.Entity(
                name: entity.string("name"), sourceName: entity.string("sourcename"),
                destinationName: entity.string("destinationname"), typeName: entity.string("mappingtypename"),
                number: Int(entity.string("mappingnumber") ?? "") ?? 0,
                policyClassName: entity.string("migrationpolicyclassname"),
                filterPredicate: entity.string("sourcefilterpredicatestring"), userInfoData: entity.binary("userinfodata"),
                autogeneratesExpressions: entity.string("autogenerateexpression") != "0",
                attributeMappings: attributes.map(Self.property), relationshipMappings: relationships.map(Self.property),
                location: entity.location))
        }
        // The editor's order; objects with the same number keep the file's order.
        let ordered = entities.enumerated().sorted { ($0.element.number, $0.offset) < ($1.element.number, $1.offset) }.map(\.element)
        let document = MappingDocument(
            path: path, sourceModelPath: model.string("sourcemodelpath"),
            destinationModelPath: model.string("destinationmodelpath"), sourceModelData: model.binary("sourcemodeldata"),
            destinationModelData: model.binary("destinationmodeldata"), entityMappings: ordered,
            orphanCount: objects.count - reached.count, location: model.location)
        return (document, [])
    }

    private static func property(_ object: StoreObject) -> MappingDocument.Property {
        MappingDocument.Property(
            name: object.string("name") ?? "", valueExpressionData: object.binary("valueexpressiondata"),
            sourceMappingName: object.string("sourcemappingname"), sourceKeyPath: object.string("sourcekeypath"),
            autogeneratesExpressions: object.string("autogenerateexpression") != "0",
            location: object.location)
    }
}

extension Diagnostic {
    static func notAMappingModel(_ reason: String, at location: SourceLocation = .unknown) -> Self {
        .error("P301", "not a mapping model: \(reason)", at: location)
    }
}
