import Foundation
import ModelArchive
import ModelSchema
import ModelXML

/// Mapping models through the pipeline: read (`.xcmappingmodel` or `.cdm`) → validate →
/// compile into the `.cdm` Xcode's mapping compiler writes.
///
/// ```swift
/// let result = try MappingCompilation.compile(mappingAt: "V2toV3.xcmappingmodel", into: "Out")
/// print(result.outputPath ?? "failed")   // Out/V2toV3.cdm
/// ```
public enum MappingCompilation {
    public struct ReadResult: Sendable {
        public var model: MappingModel?
        public var diagnostics: [Diagnostic]
    }

    /// Reads the mapping model at `path`, a `.xcmappingmodel` folder (or its `xcmapping.xml`) or
    /// a compiled `.cdm`, and validates it.
    public static func read(at path: String) -> ReadResult {
        let trimmed = path.hasSuffix("/") ? String(path.dropLast()) : path
        let name = name(of: trimmed)
        if isCompiled(trimmed) {
            guard let data = FileManager.default.contents(atPath: trimmed) else {
                return ReadResult(model: nil, diagnostics: [Diagnostic.unreadableCompiledMapping("no readable file").inFile(trimmed)])
            }
            do {
                let model = try MappingModelUnarchiver.mappingModel([UInt8](data), name: name, path: trimmed)
                return ReadResult(model: model, diagnostics: MappingValidator().validate(model).map { $0.inFile(trimmed) })
            } catch {
                return ReadResult(model: nil, diagnostics: [Diagnostic.unreadableCompiledMapping(error.description).inFile(trimmed)])
            }
        }
        let (document, readingDiagnostics) = MappingDocumentReader().read(at: trimmed)
        guard let document else { return ReadResult(model: nil, diagnostics: readingDiagnostics) }
        var builder = MappingModelBuilder(document: document)
        let model = builder.build(name: name, path: trimmed)
        let diagnostics = readingDiagnostics + (builder.diagnostics + MappingValidator().validate(model)).map { $0.inFile(document.path) }
        return ReadResult(model: model, diagnostics: diagnostics)
    }

    /// Whether `path` names a compiled mapping model (`.cdm`, or `.cdm_precompiled` as some
    /// projects commit them).
    public static func isCompiled(_ path: String) -> Bool {
        let ext = URL(fileURLWithPath: path).pathExtension
        return ext == "cdm" || ext.hasPrefix("cdm_")
    }

    /// Whether `path` names a mapping model, source or compiled.
    public static func isMappingModel(_ path: String) -> Bool {
        let trimmed = path.hasSuffix("/") ? String(path.dropLast()) : path
        return trimmed.hasSuffix(".xcmappingmodel") || trimmed.hasSuffix(".xcmappingmodel/xcmapping.xml") || isCompiled(trimmed)
    }

    /// The mapping model's name: the file name without `.xcmappingmodel` or `.cdm`.
    static func name(of path: String) -> String {
        let file = path.hasSuffix("/xcmapping.xml") ? String(path.dropLast("/xcmapping.xml".count)) : path
        return URL(fileURLWithPath: file).deletingPathExtension().lastPathComponent
    }

    // MARK: - Compiling

    /// Reads, validates and compiles the mapping model at `path` into `DIR/Name.cdm`; errors stop
    /// the compile before anything is written.
    public static func compile(mappingAt path: String, into outputDirectory: String) throws -> ModelCompilation.Result {
        let read = read(at: path)
        var diagnostics = read.diagnostics
        guard let model = read.model, !diagnostics.contains(where: { $0.severity == .error }) else {
            return ModelCompilation.Result(diagnostics: diagnostics, outputPath: nil)
        }
        let bytes: [UInt8]
        do {
            bytes = try MappingModelArchiver.archive(model)
        } catch {
            diagnostics.append(Diagnostic.unparsableExpression(error.mappingName, "the value expression of '\(error.propertyName)'", "", error.message, at: .unknown).inFile(path))
            return ModelCompilation.Result(diagnostics: diagnostics, outputPath: nil)
        }
        let product = "\(model.name).cdm"
        try ModelCompilation.write([(product, bytes)], product: product, into: outputDirectory)
        return ModelCompilation.Result(diagnostics: diagnostics, outputPath: "\(outputDirectory)/\(product)")
    }
}
