import Foundation
import ModelSchema

/// Renders diagnostics in the compiler format Xcode and editors parse, in colour on a terminal.
struct DiagnosticPrinter {
    var handle: FileHandle
    var usesColor: Bool

    static var standardError: DiagnosticPrinter {
        let colors = isatty(STDERR_FILENO) == 1 && ProcessInfo.processInfo.environment["NO_COLOR"] == nil
        return DiagnosticPrinter(handle: .standardError, usesColor: colors)
    }

    func print(_ diagnostics: [Diagnostic]) {
        guard !diagnostics.isEmpty else { return }
        write(diagnostics.map(render).joined())
    }

    func printSummary(_ report: DiagnosticReport, models: Int) {
        let noun = models == 1 ? "model" : "models"
        write("\(report.errorCount) error\(report.errorCount == 1 ? "" : "s"), \(report.warningCount) warning\(report.warningCount == 1 ? "" : "s") in \(models) \(noun)\n")
    }

    func render(_ diagnostic: Diagnostic) -> String {
        var text = line(
            path: diagnostic.path, location: diagnostic.location, severity: diagnostic.severity,
            message: "\(diagnostic.message) [\(diagnostic.code)]")
        for note in diagnostic.notes {
            text += line(path: diagnostic.path, location: note.location, severity: .note, message: note.message)
        }
        return text
    }

    private func line(path: String, location: SourceLocation, severity: Diagnostic.Severity, message: String) -> String {
        let position = location.isKnown ? "\(path):\(location.line):\(location.column):" : "\(path):"
        let label = "\(severity.rawValue):"
        guard usesColor else { return "\(position) \(label) \(message)\n" }
        let color = switch severity {
        case .error: "\u{1B}[1;31m"
        case .warning: "\u{1B}[1;35m"
        case .note: "\u{1B}[1;30m"
        }
        return "\u{1B}[1m\(position)\u{1B}[0m \(color)\(label)\u{1B}[0m \u{1B}[1m\(message)\u{1B}[0m\n"
    }

    private func write(_ text: String) {
        handle.write(Data(text.utf8))
    }
}
