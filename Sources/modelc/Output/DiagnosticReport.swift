import ModelSchema

/// Diagnostics with their counts, and the JSON shape `--json` prints.
struct DiagnosticReport {
    var diagnostics: [Diagnostic]

    var errorCount: Int { diagnostics.filter { $0.severity == .error }.count }
    var warningCount: Int { diagnostics.filter { $0.severity == .warning }.count }

    struct JSON: Encodable {
        var diagnostics: [Item]
        var errorCount: Int
        var warningCount: Int
    }

    struct Item: Encodable {
        var path: String
        var line: Int?
        var column: Int?
        var severity: String
        var code: String
        var message: String
        var notes: [Note]
    }

    struct Note: Encodable {
        var line: Int?
        var column: Int?
        var message: String
    }

    var json: JSON {
        JSON(
            diagnostics: diagnostics.map { d in
                Item(
                    path: d.path, line: d.location.isKnown ? d.location.line : nil,
                    column: d.location.isKnown ? d.location.column : nil, severity: d.severity.rawValue,
                    code: d.code, message: d.message,
                    notes: d.notes.map { n in
                        Note(
                            line: n.location.isKnown ? n.location.line : nil,
                            column: n.location.isKnown ? n.location.column : nil, message: n.message)
                    })
            },
            errorCount: errorCount, warningCount: warningCount)
    }
}
