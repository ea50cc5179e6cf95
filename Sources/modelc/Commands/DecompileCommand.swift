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
            settings such as usesScalarValueType, the diagram layout) cannot be recovered. \
            Given a source model instead, it is rewritten in today's XML: the way to bring \
            Xcode 3 versions (elements/layout) forward.
            """
    )

    @Argument(help: "A compiled .momd folder, .mom file, or an app bundle holding one; or a source model, Xcode 3 versions included, to rewrite in today's XML.", completion: .file())
    var compiled: String

    @Option(name: [.short, .customLong("output")], help: "The folder to write the model into.")
    var output: String

    @Option(help: "For a .cdm: the model bundle whose versions its hashes match, for the snapshots Xcode's editor needs.")
    var model: String?

    @OptionGroup var modelValidation: ModelValidationOptions

    @Flag(help: "Print errors as JSON on standard output.")
    var json = false

    func run() throws {
        try CommandFailure.reporting(json: json, path: output) {
            if MappingCompilation.isCompiled(compiled) { return try MappingCommands.decompile(compiled, into: output, model: model, options: modelValidation.validation) }
            // A source model (an Xcode 3 bundle above all) is rewritten in today's XML.
            let bundle = try ModelLoading.read(compiled)
            let path = try ModelBundleWriter.write(bundle, into: output)
            if bundle.isVersioned, bundle.currentVersionIsInferred, let current = bundle.currentVersionName {
                // Written without `.xccurrentversion`, so that compiling it again names none either.
                print("note: the model names no current version; inferred '\(current)' (the only or last version)")
            }
            print("decompiled \(path)")
        }
    }
}
