import Foundation
import ModelArchive
import ModelSchema
import ModelXML

/// A `.xcmappingmodel` back from a compiled `.cdm`, so that a team that shipped only the
/// compiled mapping can edit it again.
///
/// Every expression is written out explicitly (the editor's "autogenerate" is off), so that
/// compiling the result gives the `.cdm` again. A `.cdm` keeps entity hashes, not models: the
/// snapshots Xcode's editor needs are written from the versions of `bundle` that the hashes
/// match, and left out when no bundle is given (the result then compiles without hashes).
public enum MappingDecompilation {
    public struct Result: Sendable {
        public var outputPath: String?
        public var diagnostics: [Diagnostic]
    }

    /// Decompiles the `.cdm` at `path` into `DIR/Name.xcmappingmodel`.
    public static func decompile(mappingAt path: String, into outputDirectory: String, bundle: ModelBundle?) throws -> Result {
        let read = MappingCompilation.read(at: path)
        var diagnostics = read.diagnostics
        guard let model = read.model, !diagnostics.contains(where: { $0.severity == .error }) else {
            return Result(outputPath: nil, diagnostics: diagnostics)
        }
        var versions = [MappingVersionMatch.Side: ModelVersion]()
        if let bundle {
            for side in [MappingVersionMatch.Side.source, .destination] {
                let match = MappingVersionMatch.match(model, side: side, in: bundle)
                if let name = match.version, let version = bundle.version(named: name) {
                    versions[side] = version
                } else if let warning = match.diagnostic(bundle: bundle.name) {
                    diagnostics.append(warning.inFile(path))
                }
            }
        }
        let document = try self.document(model, source: versions[.source], destination: versions[.destination], bundle: bundle)
        let folder = "\(outputDirectory)/\(model.name).xcmappingmodel"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try Data(MappingDocumentWriter.xml(document).utf8).write(to: URL(fileURLWithPath: "\(folder)/xcmapping.xml"), options: .atomic)
        return Result(outputPath: folder, diagnostics: diagnostics)
    }

    /// The editor objects of `model`, with snapshots of the given versions.
    static func document(_ model: MappingModel, source: ModelVersion?, destination: ModelVersion?, bundle: ModelBundle?) throws -> MappingDocument {
        var entities = [MappingDocument.Entity]()
        let keeping = source.flatMap { source in destination.map { PropertyKeeping(source: source, destination: $0) } }
        for (index, mapping) in model.entityMappings.enumerated() {
            let record = MappingDocument.Entity(
                name: mapping.name, sourceName: mapping.sourceEntityName, destinationName: mapping.destinationEntityName,
                typeName: nil, number: index + 1, policyClassName: mapping.policyClassName,
                filterPredicate: mapping.sourceExpression.map(\.predicate).flatMap { $0 == SourceExpression.noFilter ? nil : $0 },
                userInfoData: mapping.userInfo.map(MappingModelArchiver.userInfoArchive), autogeneratesExpressions: false,
                attributeMappings: try mapping.attributeMappings.map(property), relationshipMappings: try mapping.relationshipMappings.map(property))
            var typed = record
            if MappingModelBuilder.type(of: record, keeping: keeping) != mapping.type { typed.typeName = mapping.type.name }
            entities.append(typed)
        }
        let path = { (version: ModelVersion?) in
            version.map { v in bundle.map { "\($0.name).xcdatamodeld/\(v.name).xcdatamodel" } ?? "\(v.name).xcdatamodel" }
        }
        return MappingDocument(
            path: model.path, sourceModelPath: path(source), destinationModelPath: path(destination),
            sourceModelData: source.map(ModelSnapshotArchiver.archive),
            destinationModelData: destination.map(ModelSnapshotArchiver.archive), entityMappings: entities)
    }

    private static func property(_ mapping: PropertyMapping) throws -> MappingDocument.Property {
        MappingDocument.Property(
            name: mapping.name, valueExpressionData: try mapping.valueExpression.map(MappingModelArchiver.expressionArchive),
            autogeneratesExpressions: false)
    }
}
