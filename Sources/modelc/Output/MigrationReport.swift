import ModelMigration
import ModelStore

/// A migration as `migrate` prints it, in text or JSON.
struct MigrationReport: Encodable {
    struct Step: Encodable {
        var from: String
        var to: String
        var uses: StepMapping
        var risk: String
        var rowsTouched: Int
        var rewrittenTables: [String]
        var dropped: [DroppedValues]
        /// Rows whose entity number belongs to another table (a warning: they are kept).
        var foreignEntityRows: [ForeignEntityRows]
        var statements: [MigrationStatement]
        var mapping: MappingReport

        /// Prints the step: its changes, rows touched, drops, warnings and (with `showSQL`) its SQL.
        func printText(label: String, showSQL: Bool) {
            print("\(label): \(from) → \(to)  [\(risk)]")
            for entity in mapping.entities where entity.kind != "copy" {
                let name = entity.destination ?? entity.source ?? "?"
                let changes = entity.properties.filter { $0.kind != "copy" }.map { property in
                    "\(property.kind) \(property.destination ?? property.source ?? "?")" + (property.change.map { " (\($0))" } ?? "")
                }
                print("  \(entity.kind) \(name)" + (changes.isEmpty ? "" : ": " + changes.joined(separator: ", ")))
            }
            print("  rows touched: \(rowsTouched)" + (rewrittenTables.isEmpty ? "" : "; rewrites \(rewrittenTables.joined(separator: ", "))"))
            let drops = dropped.filter { $0.count > 0 }
            if drops.isEmpty {
                print("  drops: nothing")
            } else {
                for drop in drops {
                    print("  drops: \(drop.count) \(drop.property.map { "values of '\($0)'" } ?? "rows") of '\(drop.entity)'")
                }
            }
            for rows in foreignEntityRows { print("  warning: \(rows.warning); kept") }
            if showSQL {
                print("  SQL:")
                for statement in statements { print("    \(statement.sql);") }
            }
        }
    }

    var store: String
    var storeVersion: String
    var destination: String
    var outcome: String
    var risk: String
    var backup: String?
    /// Stages that would work where the direct step does not, and the command that takes them.
    var suggestedThrough: [String]?
    var suggestedCommand: String?
    /// Files of killed runs removed from beside the store, and old backups removed (--keep-backups).
    var removedLeftovers: [String]
    var namedBackups: [String]
    var removedBackups: [String]
    var steps: [Step]

    /// The report of `result`; `mappings` are the `--mapping` places and `configuration` the
    /// `--configuration`, repeated in the suggested command.
    init(_ result: Migrator.Result, model: String, mappings: [String] = [], configuration: String? = nil) {
        store = result.path
        storeVersion = result.storeVersion
        destination = result.destination
        outcome = result.outcome.rawValue
        risk = result.risk.rawValue
        backup = result.backupPath
        removedLeftovers = result.removedLeftovers
        namedBackups = result.namedBackups
        removedBackups = result.removedBackups
        suggestedThrough = result.suggestedThrough
        suggestedCommand = result.suggestedThrough.map { stages in
            let through = stages.joined(separator: ",")
            let offered = mappings.map { " --mapping \(Self.shellQuoted($0))" }.joined()
            let scope = configuration.map { " --configuration \(Self.shellQuoted($0))" } ?? ""
            return "modelc migrate \(Self.shellQuoted(result.path)) --model \(Self.shellQuoted(model))\(offered)\(scope) --through \(Self.shellQuoted(through)) --dry-run"
        }
        steps = result.steps.map(Step.init)
    }

    func printText(showSQL: Bool) {
        switch outcome {
        case "upToDate":
            print("\(store): already at '\(destination)'; nothing to do")
        case "impossible":
            print("\(store): made by '\(storeVersion)'; '\(destination)' cannot be reached by lightweight migration")
        case "refusedDataLoss":
            print("\(store): made by '\(storeVersion)'; not migrated: the migration drops data (use --allow-data-loss)")
        case "planned":
            print("\(store): made by '\(storeVersion)'; plan to '\(destination)' in \(steps.count == 1 ? "one direct step" : "\(steps.count) stages")")
        default:
            print("\(store): migrated from '\(storeVersion)' to '\(destination)' in \(steps.count == 1 ? "one direct step" : "\(steps.count) stages")")
        }
        for (index, step) in steps.enumerated() { step.printText(label: "step \(index + 1)", showSQL: showSQL) }
        if let suggestedCommand {
            print("the direct step is impossible, but stages through \(suggestedThrough?.joined(separator: " → ") ?? "") work:")
            print("  \(suggestedCommand)")
        }
        if let backup { print("backup: \(backup)") }
        for file in removedLeftovers { print("removed, left by a killed run: \(file)") }
        for file in namedBackups { print("named the backup a killed migration left: \(file)") }
        for file in removedBackups { print("removed old backup: \(file)") }
        if outcome == "planned" { print("verdict: \(risk)") }
    }

    /// `text` as one shell word.
    static func shellQuoted(_ text: String) -> String {
        text.allSatisfy { $0.isLetter || $0.isNumber || "._-/,=".contains($0) } ? text : "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}

extension MigrationReport.Step {
    /// A step as planned or run.
    init(_ step: MigrationStep) {
        self.init(
            from: step.source, to: step.destination, uses: step.uses, risk: step.risk.rawValue, rowsTouched: step.rowsTouched,
            rewrittenTables: step.rewrittenTables, dropped: step.dropped, foreignEntityRows: step.foreignEntityRows,
            statements: step.statements, mapping: MappingReport(step.mapping))
    }
}
