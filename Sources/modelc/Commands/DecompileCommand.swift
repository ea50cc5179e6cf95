import ArgumentParser
import ModelArchive
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

    @Flag(help: "Print errors as JSON on standard output.")
    var json = false

    func run() throws {
        try CommandFailure.reporting(json: json, path: output) {
            let bundle = try CompiledModelLoading.read(compiled)
            let path = try ModelBundleWriter.write(bundle, into: output)
            print("decompiled \(path)")
        }
    }
}
