import ArgumentParser
import ModelArchive
import ModelCompiler

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
            deterministic. No .omo is written: Core Data falls back to the .mom without it.
            """
    )

    @Argument(help: "A .xcdatamodeld bundle, a .xcdatamodel folder or a .xcmappingmodel (compiled into Name.cdm).", completion: .file())
    var model: String

    @Option(name: [.short, .customLong("output")], help: "The folder to write the compiled model into.")
    var output: String

    @Option(help: ArgumentHelp(
        "Write what this Xcode's momc wrote: compiler identity in each .mom, checksums in VersionInfo.plist or not.",
        discussion: "One of \(CompilerVersion.known.map(\.xcode).joined(separator: ", ")); default \(CompilerVersion.newestVerified.xcode)."))
    var xcodeVersion = CompilerVersion.newestVerified.xcode

    func validate() throws {
        guard CompilerVersion.named(xcodeVersion) != nil else {
            throw ValidationError(
                "unknown --xcode-version '\(xcodeVersion)'; known: \(CompilerVersion.known.map(\.xcode).joined(separator: ", "))")
        }
    }

    func run() throws {
        if MappingCompilation.isMappingModel(model) { return try MappingCommands.compile(model, into: output) }
        let options = ModelCompilation.Options(compilerVersion: CompilerVersion.named(xcodeVersion) ?? .newestVerified)
        if FolderCompilation.isFolderOfModels(model) { return try MappingCommands.compile(folder: model, into: output, options: options) }
        let result = try ModelCompilation.compile(modelAt: model, into: output, options: options)
        DiagnosticPrinter.standardError.print(result.diagnostics)
        guard let path = result.outputPath else { throw ExitCode.failure }
        print("compiled \(path)")
    }
}
