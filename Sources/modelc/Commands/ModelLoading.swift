import ArgumentParser
import ModelSchema
import ModelXML

/// Reading a model for a command that needs it whole: reading errors stop the command.
enum ModelLoading {
    /// The model at `path`; prints its reading diagnostics, and exits 1 when any is an error.
    static func read(_ path: String) throws -> ModelBundle {
        let result = ModelReader().read(at: path)
        DiagnosticPrinter.standardError.print(result.diagnostics)
        guard let bundle = result.bundle, !result.diagnostics.contains(where: { $0.severity == .error }) else {
            throw ExitCode.failure
        }
        return bundle
    }
}
