import ModelMigration

/// A staged migration (`migrate --through … --mapping …`) as `migrate` prints it, in text or JSON.
struct StagedMigrationReport: Encodable {
    struct Stage: Encodable {
        var from: String
        var to: String
        var uses: StepMapping
        var risk: String
        /// A lightweight stage's step (changes, rows touched, drops, SQL).
        var step: MigrationReport.Step?
        /// A custom stage's entity mappings.
        var entityMappings: [EntityMappingReport]
    }

    var store: String
    var storeVersion: String
    var destination: String
    var outcome: String
    var risk: String
    var backup: String?
    var removedLeftovers: [String]
    var namedBackups: [String]
    var removedBackups: [String]
    var stages: [Stage]

    init(_ result: StagedMigrator.Result) {
        store = result.path
        storeVersion = result.storeVersion
        destination = result.destination
        outcome = result.outcome.rawValue
        risk = result.risk.rawValue
        backup = result.backupPath
        removedLeftovers = result.removedLeftovers
        namedBackups = result.namedBackups
        removedBackups = result.removedBackups
        stages = result.stages.map {
            Stage(
                from: $0.source, to: $0.destination, uses: $0.uses, risk: $0.risk.rawValue, step: $0.step.map(MigrationReport.Step.init),
                entityMappings: $0.entityMappings)
        }
    }

    /// The report as text on standard output; `showSQL` adds the lightweight stages' SQL.
    func printText(showSQL: Bool) {
        let count = stages.count == 1 ? "one stage" : "\(stages.count) stages"
        switch outcome {
        case "upToDate": print("\(store): already at '\(destination)'; nothing to do")
        case "planned": print("\(store): made by '\(storeVersion)'; plan to '\(destination)' in \(count)")
        case "migrated": print("\(store): migrated from '\(storeVersion)' to '\(destination)' in \(count)")
        case "refusedDataLoss": print("\(store): made by '\(storeVersion)'; not migrated: a stage drops data (use --allow-data-loss)")
        default: print("\(store): made by '\(storeVersion)'; '\(destination)' cannot be reached: a stage is impossible")
        }
        for (index, stage) in stages.enumerated() {
            let label = "stage \(index + 1)"
            if let step = stage.step {
                print("\(label) is inferred:")
                step.printText(label: label, showSQL: showSQL)
                continue
            }
            if case .mappingModel(let path) = stage.uses { print("\(label): \(stage.from) → \(stage.to)  [\(stage.risk)] through mapping model \(path)") }
            for mapping in stage.entityMappings { print(MappingMigrationReport.line(mapping)) }
        }
        if let backup { print("backup: \(backup)") }
        for file in removedLeftovers { print("removed, left by a killed run: \(file)") }
        for file in namedBackups { print("named the backup a killed migration left: \(file)") }
        for file in removedBackups { print("removed old backup: \(file)") }
        if outcome == "planned" { print("verdict: \(risk)") }
    }
}
