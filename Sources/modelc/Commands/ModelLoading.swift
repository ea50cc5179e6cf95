import ArgumentParser
import Foundation
import ModelArchive
import ModelCompiler
import ModelSchema
import ModelXML

/// Reading a model for a command that computes from it: a model with reading or validation
/// errors stops the command, as it stops `compile`, since hashes, stores and mappings computed
/// from a model Core Data would refuse mean nothing. The exception is S110, a check of momc
/// alone that Xcode's MOMC_SUPPRESS_INVERSE_TRANSIENT_ERROR lifts: the compiled model loads and
/// hashes the same either way, so it is a warning here, and none with the flag.
enum ModelLoading {
    /// The model at `path`, source or compiled (``ModelSources/isCompiled(_:)``); a source model is read and
    /// validated with `options`, its warnings printed on standard error; throws
    /// ``CommandFailure/invalidModel(_:_:)`` (exit 1) when it has an error.
    static func read(_ path: String, options: ModelValidator.Options = .init()) throws -> ModelBundle {
        if ModelSources.isCompiled(path) { return try readCompiled(path) }
        let result = ModelSources.reader.read(at: path)
        var diagnostics = result.diagnostics
        if let bundle = result.bundle, !diagnostics.contains(where: { $0.severity == .error }) {
            diagnostics += ModelValidator(options: options).validate(bundle).map(buildCheckAsWarning)
        }
        guard let bundle = result.bundle, !diagnostics.contains(where: { $0.severity == .error }) else {
            throw CommandFailure.invalidModel(path, diagnostics)
        }
        DiagnosticPrinter.standardError.print(diagnostics)
        return bundle
    }

    /// S110 as a warning that says how Xcode builds the model; any other diagnostic as it is.
    private static func buildCheckAsWarning(_ diagnostic: Diagnostic) -> Diagnostic {
        guard diagnostic.code == "S110", diagnostic.severity == .error else { return diagnostic }
        var warning = diagnostic.noting(
            "Xcode builds this model only with MOMC_SUPPRESS_INVERSE_TRANSIENT_ERROR; pass --suppress-inverse-transient-error to say so")
        warning.severity = .warning
        return warning
    }

    /// The compiled model at `path`; a file that cannot be read or decoded is an `X001` failure
    /// (class `unreadableModel`, exit 1) with the reason in words.
    private static func readCompiled(_ path: String) throws -> ModelBundle {
        do {
            return try CompiledModelReader.read(at: path)
        } catch {
            let reason = error is CocoaError
                ? CommandFailure(fileError: error, path: path).message : "\(error)"
            let diagnostic = Diagnostic(
                severity: .error, code: "X001", message: "cannot read compiled model: \(reason)", path: path)
            throw CommandFailure(
                errorClass: "unreadableModel", code: "X001", message: diagnostic.message, path: path,
                diagnostics: [diagnostic])
        }
    }

    /// The version named `name`, or the current version when `name` is nil; an unknown name is
    /// a usage error (exit 64, `X015`) that lists the versions there are.
    static func version(_ name: String?, of bundle: ModelBundle) throws -> ModelVersion {
        if let name {
            guard let version = bundle.version(named: name) else {
                throw CommandFailure.usage(
                    Diagnostic.unknownVersion(name, available: bundle.versions.map(\.name)).inFile(bundle.path))
            }
            return version
        }
        guard let current = bundle.currentVersion else {
            throw CommandFailure.invalidModel(bundle.path, [Diagnostic.emptyBundle().inFile(bundle.path)])
        }
        return current
    }
}
