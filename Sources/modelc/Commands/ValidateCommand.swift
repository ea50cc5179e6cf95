import ArgumentParser
import ModelCompiler
import ModelSchema
import ModelXML

/// `modelc validate`: every problem of every model, Xcode-style or as JSON.
struct ValidateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Check models for the problems Xcode's model editor reports.",
        discussion: """
            Reads each PATH (a .xcdatamodeld bundle, a .xcdatamodel folder or a contents file), \
            checks every version and prints all problems, one per line, as \
            path:line:column: severity: message [CODE] on standard error. With --json, prints \
            one JSON object on standard output instead.

            Exits 0 when no model has an error (warnings allowed) and 1 otherwise.
            """
    )

    @Argument(help: "The models to check.", completion: .file())
    var paths: [String]

    @Flag(help: "Print the diagnostics as JSON on standard output.")
    var json = false

    @OptionGroup var modelValidation: ModelValidationOptions

    func run() throws {
        var diagnostics = [Diagnostic]()
        for path in paths {
            let result = ModelSources.reader.read(at: path)
            diagnostics += result.diagnostics
            if let bundle = result.bundle {
                diagnostics += ModelValidator(options: modelValidation.validation)
                    .validate(bundle)
            }
        }
        let report = DiagnosticReport(diagnostics: diagnostics)
        if json {
            try JSONOutput.print(report.json)
        } else {
            DiagnosticPrinter.standardError.print(diagnostics)
            DiagnosticPrinter.standardError.printSummary(report, models: paths.count)
        }
        if report.errorCount > 0 { throw ExitCode.failure }
    }
}
