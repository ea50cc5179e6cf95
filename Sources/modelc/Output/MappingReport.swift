import ModelMigration
import ModelSchema

/// An inferred mapping as `diff` prints it, in text or JSON.
struct MappingReport: Encodable {
    struct Entity: Encodable {
        var kind: String
        var source: String?
        var destination: String?
        var properties: [Property]
    }

    struct Property: Encodable {
        var kind: String
        var source: String?
        var destination: String?
        var relationship: Bool
        var change: String?
        var dropsData: Bool
    }

    var from: String
    var to: String
    var possible: Bool
    var dropsData: Bool
    var entities: [Entity]
    var diagnostics: [DiagnosticReport.Item]
    var errorCount: Int
    var warningCount: Int

    init(_ mapping: InferredMapping) {
        from = mapping.sourceVersion
        to = mapping.destinationVersion
        possible = mapping.isPossible
        dropsData = mapping.dropsData
        entities = mapping.entities.map { entity in
            Entity(
                kind: entity.kind.rawValue, source: entity.source, destination: entity.destination,
                properties: entity.properties.map {
                    Property(
                        kind: $0.kind.rawValue, source: $0.source, destination: $0.destination,
                        relationship: $0.isRelationship, change: $0.change, dropsData: $0.dropsData)
                })
        }
        let report = DiagnosticReport(diagnostics: mapping.diagnostics).json
        diagnostics = report.diagnostics
        errorCount = report.errorCount
        warningCount = report.warningCount
    }

    func printText() {
        print("\(from) → \(to): " + (possible ? "a lightweight migration can be inferred" : "no lightweight migration can be inferred (\(errorCount.counting("reason")))"))
        for entity in entities {
            let name =
                switch (entity.source, entity.destination) {
                case (let s?, let d?) where s != d: "\(d) (from \(s))"
                case (_, let d?): d
                case (let s?, nil): s
                default: "?"
                }
            print("  \(entity.kind.padding(toLength: 9, withPad: " ", startingAt: 0)) \(name)")
            guard entity.kind == "transform" else { continue }
            for property in entity.properties where property.kind != "copy" {
                let label = property.destination ?? property.source ?? "?"
                let note = [property.change, property.dropsData ? "drops data" : nil].compactMap { $0 }.joined(separator: "; ")
                print("      \(property.kind.padding(toLength: 9, withPad: " ", startingAt: 0)) \(label)\(note.isEmpty ? "" : "  (\(note))")")
            }
        }
        print("drops data: \(dropsData ? "yes" : "no")")
    }
}
