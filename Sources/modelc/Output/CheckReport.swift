import ModelMigration
import ModelSchema

/// What `check` prints: a verdict per version, the lock file's findings, in text, JSON or
/// GitHub Actions annotations.
struct CheckReport {
    var current: String
    var verdicts: [ReleaseCheck.Verdict]
    var lock: [Diagnostic]

    /// Whether the gate passes: every version safe, no shipped version edited.
    var passes: Bool { lock.isEmpty && verdicts.allSatisfy { $0.risk == .safe } }

    struct JSON: Encodable {
        struct Version: Encodable {
            var version: String
            var risk: String
            var diagnostics: [DiagnosticReport.Item]
        }

        var current: String
        var versions: [Version]
        var lock: [DiagnosticReport.Item]
        var errorCount: Int
        var warningCount: Int
    }

    /// The JSON form `--json` prints.
    var json: JSON {
        let all = DiagnosticReport(diagnostics: lock + verdicts.flatMap(\.diagnostics))
        return JSON(
            current: current,
            versions: verdicts.map { JSON.Version(version: $0.version, risk: $0.risk.rawValue, diagnostics: DiagnosticReport(diagnostics: $0.diagnostics).json.diagnostics) },
            lock: DiagnosticReport(diagnostics: lock).json.diagnostics, errorCount: all.errorCount, warningCount: all.warningCount)
    }

    /// One line per version with its verdict, then whether the gate passed.
    func printText() {
        for verdict in verdicts {
            let note = verdict.version == current ? " (current)" : ""
            print("\(verdict.version)\(note) → \(current): \(verdict.risk.rawValue)")
        }
        if !lock.isEmpty { print("\(lock.count) shipped version change\(lock.count == 1 ? "" : "s") (see above)") }
        print(passes ? "check passed" : "check failed")
    }

    /// One `::error` or `::warning` line per diagnostic, then a notice per verdict.
    func printAnnotations() {
        for diagnostic in lock + verdicts.flatMap(\.diagnostics) where diagnostic.severity != .note {
            var properties = ["file=\(Self.escapedProperty(diagnostic.path))"]
            if diagnostic.location.isKnown {
                properties += ["line=\(diagnostic.location.line)", "col=\(diagnostic.location.column)"]
            }
            let fixIts = diagnostic.notes.map { "\n" + $0.message }.joined()
            print("::\(diagnostic.severity.rawValue) \(properties.joined(separator: ","))::\(Self.escapedData("\(diagnostic.message) [\(diagnostic.code)]\(fixIts)"))")
        }
        for verdict in verdicts {
            print("::notice::\(Self.escapedData("\(verdict.version) → \(current): \(verdict.risk.rawValue)"))")
        }
    }

    /// GitHub's escaping of an annotation's message.
    static func escapedData(_ text: String) -> String {
        text.replacingOccurrences(of: "%", with: "%25").replacingOccurrences(of: "\r", with: "%0D").replacingOccurrences(of: "\n", with: "%0A")
    }

    /// GitHub's escaping of an annotation's property value.
    static func escapedProperty(_ text: String) -> String {
        escapedData(text).replacingOccurrences(of: ":", with: "%3A").replacingOccurrences(of: ",", with: "%2C")
    }
}
