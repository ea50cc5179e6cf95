import ArgumentParser
import Foundation
import ModelCompiler
import ModelSchema

/// What `inspect`, `decompile` and `diff` do when given a mapping model (`.xcmappingmodel` or `.cdm`).
enum MappingCommands {
    /// Shows the mapping model at `path`, and the versions of `modelPath` it matches.
    static func inspect(_ path: String, model modelPath: String?, json: Bool, options: ModelValidator.Options) throws {
        let read = MappingCompilation.read(at: path)
        DiagnosticPrinter.standardError.print(read.diagnostics)
        guard let model = read.model, !read.diagnostics.contains(where: { $0.severity == .error }) else {
            throw ExitCode.failure
        }
        let bundle = try modelPath.map { try ModelLoading.read($0, options: options) }
        let report = MappingModelReport(model, bundle: bundle)
        DiagnosticPrinter.standardError.print(report.diagnostics.map { $0.inFile(path) })
        if json {
            try JSONOutput.print(report)
        } else {
            print(report.text)
        }
    }

    /// Decompiles the `.cdm` at `path` into `DIR/Name.xcmappingmodel`, with snapshots of the
    /// versions of `modelPath` it matches.
    static func decompile(_ path: String, into output: String, model modelPath: String?, options: ModelValidator.Options) throws {
        let bundle = try modelPath.map { try ModelLoading.read($0, options: options) }
        let result = try MappingDecompilation.decompile(mappingAt: path, into: output, bundle: bundle)
        DiagnosticPrinter.standardError.print(result.diagnostics)
        guard let product = result.outputPath else { throw ExitCode.failure }
        print("decompiled \(product)")
    }

    /// For `diff --mapping`: shows the mapping model of `places` that covers the step from
    /// `source` to `destination`, if any; returns whether one did.
    static func showMapping(in places: [String], from source: ModelVersion, to destination: ModelVersion, json: Bool) throws -> Bool {
        guard !places.isEmpty else { return false }
        let found = MappingModelFinder.find(in: places, from: source, to: destination)
        DiagnosticPrinter.standardError.print(found.diagnostics)
        guard let model = found.model else {
            FileHandle.standardError.write(Data("note: none of \(found.candidates.count) mapping model(s) covers '\(source.name)' -> '\(destination.name)'; showing the inferred mapping\n".utf8))
            return false
        }
        let report = MappingModelReport(model, bundle: nil)
        if json {
            try JSONOutput.print(report)
        } else {
            print("custom mapping model \(model.path) covers '\(source.name)' -> '\(destination.name)'")
            print(report.text)
        }
        return true
    }
}
