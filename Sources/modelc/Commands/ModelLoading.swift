import ArgumentParser
import Foundation
import ModelArchive
import ModelCompiler
import ModelSchema
import ModelXML

/// Reading a model for a command that needs it whole: reading errors stop the command.
enum ModelLoading {
    /// The model at `path`, source or compiled (``isCompiled(_:)``); prints its reading
    /// diagnostics, and exits 1 when any is an error.
    static func read(_ path: String) throws -> ModelBundle {
        if isCompiled(path) { return try readCompiled(path) }
        let result = ModelSources.reader.read(at: path)
        DiagnosticPrinter.standardError.print(result.diagnostics)
        guard let bundle = result.bundle, !result.diagnostics.contains(where: { $0.severity == .error }) else {
            throw ExitCode.failure
        }
        return bundle
    }

    /// The compiled model at `path`; an unreadable one is reported (X001) and exits 1.
    private static func readCompiled(_ path: String) throws -> ModelBundle {
        do {
            return try CompiledModelReader.read(at: path)
        } catch {
            DiagnosticPrinter.standardError.print([
                Diagnostic(severity: .error, code: "X001", message: "cannot read compiled model: \(error)", path: path)
            ])
            throw ExitCode.failure
        }
    }

    /// Whether `path` is a compiled model (`.momd`, `.mom`, an app bundle, or a folder holding a
    /// `VersionInfo.plist`, as `*.momd_precompiled` copies are) rather than a source model.
    static func isCompiled(_ path: String) -> Bool {
        let trimmed = path.hasSuffix("/") ? String(path.dropLast()) : path
        return [".momd", ".mom", ".app"].contains { trimmed.hasSuffix($0) }
            || FileManager.default.fileExists(atPath: "\(trimmed)/VersionInfo.plist")
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
