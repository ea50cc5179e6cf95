import ArgumentParser
import Foundation
import ModelCompiler
import ModelSchema

/// What `compile` and `inspect` do when given a mapping model (`.xcmappingmodel` or `.cdm`).
enum MappingCommands {
    /// Compiles the mapping model at `path` into `DIR/Name.cdm`.
    static func compile(_ path: String, into output: String) throws {
        let result = try MappingCompilation.compile(mappingAt: path, into: output)
        DiagnosticPrinter.standardError.print(result.diagnostics)
        guard let product = result.outputPath else { throw ExitCode.failure }
        print("compiled \(product)")
    }

    /// Compiles every model and mapping model under `folder`, as Xcode's build does.
    static func compile(folder: String, into output: String, options: ModelCompilation.Options) throws {
        let results = try FolderCompilation.compile(folderAt: folder, into: output, options: options)
        DiagnosticPrinter.standardError.print(results.flatMap(\.diagnostics))
        for product in results.compactMap(\.outputPath) { print("compiled \(product)") }
        if results.isEmpty || results.contains(where: { $0.outputPath == nil }) { throw ExitCode.failure }
    }

    /// Shows the mapping model at `path`, and the versions of `modelPath` it matches.
    static func inspect(_ path: String, model modelPath: String?, json: Bool) throws {
        let read = MappingCompilation.read(at: path)
        DiagnosticPrinter.standardError.print(read.diagnostics)
        guard let model = read.model, !read.diagnostics.contains(where: { $0.severity == .error }) else {
            throw ExitCode.failure
        }
        let bundle = try modelPath.map(ModelLoading.read)
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
    static func decompile(_ path: String, into output: String, model modelPath: String?) throws {
        let bundle = try modelPath.map(ModelLoading.read)
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
