import ArgumentParser
import Foundation
import ModelSchema
import ModelStore

/// Why a command failed, in the one shape every command reports: a message a person
/// understands, a class and a code scripts match on, the path concerned and the exit status.
///
/// Codes are strings everywhere, so that one key has one type: a store's or Foundation's
/// `NSCocoaErrorDomain` number (`"516"`, `"134100"`) or a diagnostic code (`"S104"`).
struct CommandFailure: Error, CustomStringConvertible {
    var errorClass: String
    var code: String
    var message: String
    var path: String
    var advice: String?
    /// The model's diagnostics, when the failure is a model with errors.
    var diagnostics: [Diagnostic] = []
    var exitCode: Int32 = 1

    init(
        errorClass: String, code: String, message: String, path: String, advice: String? = nil,
        diagnostics: [Diagnostic] = [], exitCode: Int32 = 1
    ) {
        self.errorClass = errorClass
        self.code = code
        self.message = message
        self.path = path
        self.advice = advice
        self.diagnostics = diagnostics
        self.exitCode = exitCode
    }

    // MARK: - From the libraries' errors

    /// A model that has errors: its diagnostics, the first error's code.
    static func invalidModel(_ path: String, _ diagnostics: [Diagnostic]) -> CommandFailure {
        let errors = diagnostics.filter { $0.severity == .error }
        let count = errors.count
        return CommandFailure(
            errorClass: "invalidModel", code: errors.first?.code ?? "X013",
            message: "the model has \(count) error\(count == 1 ? "" : "s")", path: path,
            advice: "Fix the errors listed (modelc validate shows them all), then run the command again.",
            diagnostics: diagnostics)
    }

    /// A store failure, with its class, Core Data's code and advice.
    init(_ error: StoreError, exitCode: Int32 = 1) {
        self.init(
            errorClass: error.errorClass.rawValue, code: String(error.code), message: error.message, path: error.path,
            advice: error.advice, exitCode: exitCode)
    }

    /// A file-system failure reported by Foundation, in words instead of `NSCocoaErrorDomain Code=…`.
    init(fileError error: Error, path fallback: String) {
        let nsError = error as NSError
        let path = (nsError.userInfo[NSFilePathErrorKey] as? String)
            ?? (nsError.userInfo[NSURLErrorKey] as? URL)?.path ?? fallback
        let code = nsError.domain == NSCocoaErrorDomain ? nsError.code : CocoaError.Code.fileWriteUnknown.rawValue
        let (errorClass, message): (String, String) =
            switch CocoaError.Code(rawValue: code) {
            case .fileWriteFileExists: ("alreadyExists", "a file already exists at this path")
            case .fileReadNoSuchFile, .fileNoSuchFile: ("notFound", "no such file or folder")
            case .fileReadNoPermission: ("permissionDenied", "no permission to read this path")
            case .fileWriteNoPermission: ("permissionDenied", "no permission to write here")
            case .fileWriteVolumeReadOnly: ("permissionDenied", "the volume is read-only")
            case .fileWriteOutOfSpace: ("outOfSpace", "the disk is full")
            case .fileReadCorruptFile: ("corrupt", "the file is damaged or not in the expected format")
            case .fileReadUnknown: ("notRegularFile", "not a regular file (a FIFO, device or socket)")
            default: ("ioError", "cannot read or write this path")
            }
        self.init(errorClass: errorClass, code: String(code), message: message, path: path)
    }

    /// A usage error (exit 64): an option names something that is not there.
    static func usage(_ diagnostic: Diagnostic) -> CommandFailure {
        CommandFailure(
            errorClass: "usage", code: diagnostic.code, message: diagnostic.message, path: diagnostic.path,
            diagnostics: [diagnostic], exitCode: ExitCode.validationFailure.rawValue)
    }

    /// The text form, for a command that lets the failure reach ArgumentParser.
    var description: String {
        guard diagnostics.isEmpty else {
            return diagnostics.map { DiagnosticPrinter(handle: .standardError, usesColor: false).render($0) }.joined()
        }
        return "\(path): \(message) [\(errorClass), \(code)]"
    }

    // MARK: - Reporting

    /// Runs `body`; any failure is printed (JSON on standard output with `json`, text on
    /// standard error otherwise) and becomes the documented exit status.
    static func reporting(json: Bool, path: String, _ body: () throws -> Void) throws {
        do {
            try body()
        } catch let error as ExitCode {
            throw error
        } catch {
            let failure = CommandFailure(error, path: path)
            failure.print(json: json)
            throw ExitCode(failure.exitCode)
        }
    }

    /// Any error as a failure: ours as is, a store's by class, anything else as a file error.
    init(_ error: Error, path: String) {
        switch error {
        case let failure as CommandFailure: self = failure
        case let error as StoreError: self.init(error)
        case let error as NSError where error.domain == NSCocoaErrorDomain: self.init(fileError: error, path: path)
        default: self.init(errorClass: "failed", code: "1", message: "\(error)", path: path)
        }
    }

    /// Prints the failure: `{"error":{…},"diagnostics":[…]}` on standard output, or diagnostics
    /// and `path: error: message [class, code]` on standard error.
    func print(json: Bool) {
        if json {
            try? JSONOutput.print(JSONForm(self))
            return
        }
        if diagnostics.isEmpty {
            var text = "\(path): error: \(message) [\(errorClass), \(code)]\n"
            if let advice { text += "  advice: \(advice)\n" }
            FileHandle.standardError.write(Data(text.utf8))
        } else {
            DiagnosticPrinter.standardError.print(diagnostics)
            if errorClass == "invalidModel" {
                FileHandle.standardError.write(Data("\(path): error: \(message) [\(errorClass), \(code)]\n".utf8))
            }
        }
    }

    /// The JSON error object, the same for every command.
    struct JSONForm: Encodable {
        struct Body: Encodable {
            var `class`: String
            var code: String
            var message: String
            var path: String
            var advice: String?
        }

        var error: Body
        var diagnostics: [DiagnosticReport.Item]?

        init(_ failure: CommandFailure) {
            error = Body(
                class: failure.errorClass, code: failure.code, message: failure.message, path: failure.path,
                advice: failure.advice)
            diagnostics = failure.diagnostics.isEmpty ? nil : DiagnosticReport(diagnostics: failure.diagnostics).json.diagnostics
        }
    }
}
