import Foundation
import ModelMigration

/// A migration through a custom mapping model as `migrate` prints it, in text or JSON: the
/// same top-level keys as the inferred path's report, one step whose `uses` names the mapping
/// model and why, and what each entity mapping did.
struct MappingMigrationReport: Encodable {
    struct Uses: Encodable {
        struct MappingModelUse: Encodable {
            var path: String
            var reason: String
        }
        var mappingModel: MappingModelUse
    }

    struct Step: Encodable {
        var from: String
        var to: String
        var uses: Uses
        var candidates: [String]
        var entityMappings: [EntityMappingReport]
    }

    var store: String
    var storeVersion: String
    var destination: String
    var outcome: String
    var backup: String?
    var removedLeftovers: [String]
    var namedBackups: [String]
    var removedBackups: [String]
    var steps: [Step]

    init(_ result: MigrationManager.Result, reason: String, candidates: [String]) {
        store = result.path
        storeVersion = result.storeVersion
        destination = result.destination
        outcome = result.outcome.rawValue
        backup = result.backupPath
        removedLeftovers = result.removedLeftovers
        namedBackups = result.namedBackups
        removedBackups = result.removedBackups
        steps = [
            Step(
                from: result.storeVersion, to: result.destination,
                uses: Uses(mappingModel: .init(path: result.mappingModel, reason: reason)), candidates: candidates,
                entityMappings: result.entityMappings)
        ]
    }

    /// One entity mapping's line: what it created, linked, dropped and found invalid.
    static func line(_ mapping: EntityMappingReport) -> String {
        let source = mapping.sourceEntity ?? "-", target = mapping.destinationEntity ?? "-"
        return "  \(mapping.type.lowercased()) \(mapping.name) (\(source) → \(target)): \(mapping.instancesCreated) created, "
            + "\(mapping.relationshipsSet) links set, \(mapping.valuesDropped) values dropped, \(mapping.validationFailures) validation failures"
    }

    /// The report as text on standard output.
    func printText() {
        var lines = ["\(store): \(storeVersion) → \(destination): \(outcome)"]
        for step in steps {
            lines.append("step \(step.from) → \(step.to) uses mapping model \(step.uses.mappingModel.path) (\(step.uses.mappingModel.reason))")
            lines += step.entityMappings.map(Self.line)
        }
        if let backup { lines.append("backup: \(backup)") }
        for file in removedLeftovers { lines.append("removed a killed run's file: \(file)") }
        for file in namedBackups { lines.append("named the backup a killed migration left: \(file)") }
        for file in removedBackups { lines.append("removed old backup: \(file)") }
        print(lines.joined(separator: "\n"))
    }
}
