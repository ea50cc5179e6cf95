import ModelSchema

/// What `compile` wrote and what it noticed on the way: one line per product, or the JSON
/// object `--json` prints.
struct CompileReport {
    /// The products written (`DIR/Name.momd`, `DIR/Name.mom`, `DIR/Name.cdm`).
    var written: [String]
    /// Warnings (a compile with errors writes nothing and fails instead).
    var diagnostics: [Diagnostic]

    struct JSON: Encodable {
        var written: [String]
        var diagnostics: [DiagnosticReport.Item]
        var errorCount: Int
        var warningCount: Int
    }

    var json: JSON {
        let report = DiagnosticReport(diagnostics: diagnostics).json
        return JSON(written: written, diagnostics: report.diagnostics, errorCount: report.errorCount, warningCount: report.warningCount)
    }

    var text: String {
        written.map { "compiled \($0)" }.joined(separator: "\n")
    }
}
