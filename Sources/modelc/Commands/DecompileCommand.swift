import ArgumentParser
import ModelArchive
import ModelCompiler
import ModelSchema
import ModelXML

/// `modelc decompile`: a source model back from a compiled one.
struct DecompileCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "decompile",
        abstract: "Recover a .xcdatamodeld (or .xcdatamodel) from a compiled .momd (or .mom).",
        discussion: """
            Writes the model in the XML Xcode writes, so that a team that lost its source \
            model can recover it from a shipped app bundle. The result compiles to the same \
            .mom files and has the same version hashes. What momc does not keep (codegen \
            settings such as usesScalarValueType, the diagram layout) cannot be recovered.
            """
    )

    @Argument(help: "A compiled .momd folder or .mom file.", completion: .file())
    var compiled: String

    @Option(name: [.short, .customLong("output")], help: "The folder to write the model into.")
    var output: String

    @Option(help: "For a .cdm: the model bundle whose versions its hashes match, for the snapshots Xcode's editor needs.")
    var model: String?

    func run() throws {
        if MappingCompilation.isCompiled(compiled) { return try MappingCommands.decompile(compiled, into: output, model: model) }
        let bundle: ModelSchema.ModelBundle
        do {
            bundle = try CompiledModelReader.read(at: compiled)
        } catch {
            DiagnosticPrinter.standardError.print([
                Diagnostic(severity: .error, code: "X001", message: "cannot read compiled model: \(error)", path: compiled)
            ])
            throw ExitCode.failure
        }
        let path = try ModelBundleWriter.write(bundle, into: output)
        print("decompiled \(path)")
    }
}
