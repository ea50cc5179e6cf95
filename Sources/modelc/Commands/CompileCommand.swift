import ArgumentParser
import ModelArchive
import ModelCompiler
import ModelSchema

/// `modelc compile`: Xcode's momc on any OS.
struct CompileCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "compile",
        abstract: "Compile a model into the .momd (or .mom) Core Data loads.",
        discussion: """
            A .xcdatamodeld bundle becomes DIR/Name.momd/ with one .mom per version and a \
            VersionInfo.plist (current version, entity hashes, checksums); a lone \
            .xcdatamodel becomes DIR/Name.mom. The model is validated first: errors stop the \
            compile and nothing is written; warnings are printed and do not. Output is \
            deterministic. No .omo is written: Core Data falls back to the .mom without it. \
            With --json, prints what was written and the diagnostics as one JSON object on \
            standard output, or the JSON error object every command prints.
            """
    )

    @Argument(help: "A .xcdatamodeld bundle, a .xcdatamodel folder, a .xcmappingmodel (compiled into Name.cdm), or a folder of them.", completion: .file())
    var model: String

    @Option(name: [.short, .customLong("output")], help: "The folder to write the compiled model into.")
    var output: String

    @Option(help: ArgumentHelp(
        "Write what this Xcode's momc wrote: compiler identity in each .mom, checksums in VersionInfo.plist or not.",
        discussion: "One of \(CompilerVersion.known.map(\.xcode).joined(separator: ", ")); default \(CompilerVersion.newestVerified.xcode)."))
    var xcodeVersion = CompilerVersion.newestVerified.xcode

    @Flag(help: "Print what was written and the diagnostics (or the error) as JSON on standard output.")
    var json = false

    @OptionGroup var modelValidation: ModelValidationOptions

    func validate() throws {
        guard CompilerVersion.named(xcodeVersion) != nil else {
            throw ValidationError(
                "unknown --xcode-version '\(xcodeVersion)'; known: \(CompilerVersion.known.map(\.xcode).joined(separator: ", "))")
        }
    }

    func run() throws {
        try CommandFailure.reporting(json: json, path: model) {
            let results = try compile()
            let diagnostics = results.flatMap(\.diagnostics)
            guard !results.isEmpty else {
                throw CommandFailure(
                    errorClass: "notFound", code: "X013",
                    message: "the folder holds no model (.xcdatamodeld, .xcdatamodel) and no mapping model (.xcmappingmodel)", path: model)
            }
            let written = results.compactMap(\.outputPath)
            guard written.count == results.count else { throw CommandFailure.invalidModel(model, diagnostics) }
            let report = CompileReport(written: written, diagnostics: diagnostics)
            if json {
                try JSONOutput.print(report.json)
            } else {
                DiagnosticPrinter.standardError.print(diagnostics)
                print(report.text)
            }
        }
    }

    /// Compiles what `model` names: one mapping model, every model and mapping model of a
    /// folder (as Xcode's build does), or one model.
    private func compile() throws -> [ModelCompilation.Result] {
        if MappingCompilation.isMappingModel(model) { return [try MappingCompilation.compile(mappingAt: model, into: output)] }
        let options = ModelCompilation.Options(
            compilerVersion: CompilerVersion.named(xcodeVersion) ?? .newestVerified,
            validation: modelValidation.validation)
        if FolderCompilation.isFolderOfModels(model) { return try FolderCompilation.compile(folderAt: model, into: output, options: options) }
        return [try ModelCompilation.compile(modelAt: model, into: output, options: options)]
    }
}
