import Foundation
import ModelCompiler
import ModelMigration
import ModelSchema
import ModelXML
import Testing
import _ModelTestSupport

/// The diagnostic codes are API: unique, well-formed and documented, each with its severity, in
/// `Documentation/Diagnostics.md`.
struct DiagnosticCatalogTests {
    static let catalog = ReadingDiagnostics.catalog + SchemaDiagnostics.catalog + MigrationDiagnostics.catalog
        + MappingDiagnostics.catalog

    @Test func everyCodeIsUnique() {
        let codes = Self.catalog.map(\.code)
        let repeated = Dictionary(grouping: codes) { $0 }.filter { $0.value.count > 1 }.keys.sorted()
        #expect(repeated == [])
    }

    @Test func codesAreXForReadingSForSchemaRulesMForMigrations() {
        #expect(ReadingDiagnostics.catalog.map(\.code) == (1...21).map { String(format: "X%03d", $0) })
        #expect(SchemaDiagnostics.catalog.map(\.code) == (101...129).map { "S\($0)" })
        #expect(MigrationDiagnostics.catalog.allSatisfy { $0.code.hasPrefix("M2") })
        #expect(MappingDiagnostics.catalog.allSatisfy { $0.code.hasPrefix("P3") })
    }

    @Test func everyCodeIsDocumentedWithItsSeverity() throws {
        let url = Corpus.packageRoot.appendingPathComponent("Documentation/Diagnostics.md")
        let text = try String(contentsOf: url, encoding: .utf8)
        // Table rows: | `S101` | error | meaning |
        var documented = [String: String]()
        for line in text.split(separator: "\n") where line.hasPrefix("| `") {
            let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count >= 3 else { continue }
            let code = cells[0].trimmingCharacters(in: CharacterSet(charactersIn: "`"))
            #expect(documented[code] == nil, "\(code) is documented twice")
            documented[code] = cells[1]
        }
        for descriptor in Self.catalog {
            #expect(documented[descriptor.code] == descriptor.severity.rawValue, "\(descriptor.code)")
        }
        // A retired code keeps its row, marked `—`, so that it is never given a new meaning.
        let retired = Set(documented.filter { $0.value == "—" }.keys)
        #expect(retired.isDisjoint(with: Self.catalog.map(\.code)))
        #expect(Set(documented.keys).subtracting(retired) == Set(Self.catalog.map(\.code)))
    }
}
