import ArgumentParser
import Foundation
import ModelArchive
import ModelCompiler
import ModelSchema
import ModelXML

/// Reading a model for a command that needs it whole: reading errors stop the command.
enum ModelLoading {
    /// The model at `path`, source or compiled (``ModelSources/isCompiled(_:)``); prints its reading
    /// diagnostics, and exits 1 when any is an error.
    static func read(_ path: String) throws -> ModelBundle {
        let result = ModelSources.read(anyAt: path)
        DiagnosticPrinter.standardError.print(result.diagnostics)
        guard let bundle = result.bundle, !result.diagnostics.contains(where: { $0.severity == .error }) else {
            throw ExitCode.failure
        }
        return bundle
    }

    /// The version named `name`, or the current version when `name` is nil; an unknown name
    /// is reported with the available ones and exits 1.
    static func version(_ name: String?, of bundle: ModelBundle) throws -> ModelVersion {
        if let name {
            guard let version = bundle.version(named: name) else {
                DiagnosticPrinter.standardError.print([
                    Diagnostic.unknownVersion(name, available: bundle.versions.map(\.name)).inFile(bundle.path)
                ])
                throw ExitCode.failure
            }
            return version
        }
        guard let current = bundle.currentVersion else { throw ExitCode.failure }
        return current
    }
}
