import ArgumentParser
import ModelMigration
import ModelSchema

/// `modelc diff`: the lightweight migration Core Data would infer between two versions.
struct DiffCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "diff",
        abstract: "Show the migration Core Data would infer between two versions of a model.",
        discussion: """
            Entities and properties are matched by identity (renaming identifier, else name, \
            on both sides) and by name, as Core Data's inference does. Each destination entity is a copy (same \
            version hash), a transform or an add; each source entity without a match is a \
            remove. Property mappings say what changes and which drop data.

            When the migration cannot be inferred, every reason is reported with its place in \
            the model (M201–M204), not only the first. A removed and an added property or \
            entity that look alike are reported as a possible rename (M210) with the \
            renaming-identifier fix-it.
            With --mapping, a custom mapping model whose entity hashes match the step as Core \
            Data matches them (each side's recorded hashes a subset of the version's) is shown \
            instead, as `inspect` shows it.

            JSON form: {"from", "to", "possible", "dropsData", "entities": [{"kind", "source", \
            "destination", "properties": [{"kind", "source", "destination", "relationship", \
            "change", "dropsData"}]}], "diagnostics": [...], "errorCount", "warningCount"}.

            EXIT STATUS
              0   the migration can be inferred
              2   it cannot
              1   the model could not be read or has errors
              64  a version named is not in the bundle
            """
    )

    @Argument(help: "A .xcdatamodeld bundle.", completion: .file())
    var model: String

    @Option(help: "The source version.")
    var from: String

    @Option(help: "The destination version (default: the current version).")
    var to: String?

    @OptionGroup var modelValidation: ModelValidationOptions

    @Flag(help: "Print JSON on standard output.")
    var json = false

    @Option(name: .customLong("mapping"), help: "A .xcmappingmodel, a .cdm or a folder searched for both (repeatable): a mapping model whose hashes match the step is shown instead of the inferred mapping.")
    var mappings: [String] = []

    func run() throws {
        try CommandFailure.reporting(json: json, path: model) {
            let bundle = try ModelLoading.read(model, options: modelValidation.validation)
            let source = try ModelLoading.version(from, of: bundle)
            let destination = try ModelLoading.version(to, of: bundle)
            if try MappingCommands.showMapping(in: mappings, from: source, to: destination, json: json) { return }
            let mapping = MappingInference.infer(from: source, to: destination)
            if json {
                try JSONOutput.print(MappingReport(mapping))
            } else {
                DiagnosticPrinter.standardError.print(mapping.diagnostics)
                MappingReport(mapping).printText()
            }
            if !mapping.isPossible { throw ExitCode(2) }
        }
    }
}
