import Foundation
import ModelArchive
import ModelSchema

/// Reading a compiled model (`.momd`, `.mom`) for `inspect` and `decompile`.
enum CompiledModelLoading {
    /// The compiled model at `path`; a file that cannot be read or decoded is an `X001` failure
    /// (exit 1) with the reason in words.
    static func read(_ path: String) throws -> ModelBundle {
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
}
