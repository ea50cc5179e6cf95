import Foundation
import GRDB
import ModelMigration
import ModelSchema
import ModelStore
import Testing
import _ModelTestSupport

/// Rows whose `Z_ENT` names an entity stored in another table (a public app's test store has
/// one), made from a copy of CoreDataPlus's `SampleModel_V2.sqlite` by changing one row's
/// number: a lightweight migration keeps every row naming the entity it named, as Core Data's
/// own `Z_PRIMARYKEY` numbers it before and after.
@Suite(Corpus.required)
struct ForeignEntityNumberTests {
    typealias Support = MigrationTestSupport

    static let root = "alemar11__CoreDataPlus/Tests/Resources/SampleModel"

    /// SampleModel2 → SampleModel3 renumbers Person (Maker comes before it) and rewrites both
    /// tables: a Person row carrying Car's number and a Car row carrying Person's keep them.
    @Test func foreignEntityNumbersNameTheSameEntityAfterAMigration() throws {
        try withTemporaryDirectory { folder in
            let bundle = try Support.bundle(Corpus.path("\(Self.root)/SampleModel.xcdatamodeld"))
            let store = try Support.copy(Corpus.path("\(Self.root)/Fixtures/SampleModel_V2.sqlite"), into: folder)
            let (person, car) = try Self.makeForeignRows(store)
            let before = try Self.entitiesOfRows(store)
            #expect(before["ZPERSON", default: [:]][person] == "Car")
            #expect(before["ZCAR", default: [:]][car] == "Person")

            var options = Migrator.Options()
            options.destination = "SampleModel3"
            options.allowsDataLoss = true  // Car's 'maker' string goes
            let result = try Migrator.migrate(storeAt: store, bundle: bundle, options: options)
            #expect(result.outcome == .migrated)
            // SampleModel3 renames ExpensiveSportCar to LuxuryCar (its renaming identifier).
            let renamed = before.mapValues { $0.mapValues { $0 == "ExpensiveSportCar" ? "LuxuryCar" : $0 } }
            #expect(try Self.entitiesOfRows(store) == renamed, "every row names the entity it named")
        }
    }

    /// The dry run and `store check` report each table's foreign rows as a warning with the
    /// count, the table and the number.
    @Test func foreignEntityNumbersAreReported() throws {
        try withTemporaryDirectory { folder in
            let model = Corpus.path("\(Self.root)/SampleModel.xcdatamodeld")
            let bundle = try Support.bundle(model)
            let store = try Support.copy(Corpus.path("\(Self.root)/Fixtures/SampleModel_V2.sqlite"), into: folder)
            _ = try Self.makeForeignRows(store)
            let numbers = try DatabaseQueue(path: store).read { db in
                try Dictionary(uniqueKeysWithValues: Row.fetchAll(db, sql: "SELECT Z_NAME, Z_ENT FROM Z_PRIMARYKEY").map { ($0[0] as String, $0[1] as Int) })
            }
            let expected = [
                ForeignEntityRows(table: "ZCAR", entityNumber: try #require(numbers["Person"]), entity: "Person", count: 1),
                ForeignEntityRows(table: "ZPERSON", entityNumber: try #require(numbers["Car"]), entity: "Car", count: 1),
            ]
            var options = Migrator.Options()
            options.destination = "SampleModel3"
            options.dryRun = true
            let plan = try Migrator.migrate(storeAt: store, bundle: bundle, options: options)
            #expect(plan.steps.first?.foreignEntityRows == expected)

            let dryRun = try Modelc.run(["migrate", store, "--model", model, "--to", "SampleModel3", "--dry-run"])
            #expect(dryRun.standardOutput.contains("warning: 1 row of ZPERSON carries entity number \(numbers["Car"]!) ('Car'"), "\(dryRun.standardOutput)")
            let check = try Modelc.run(["store", "check", store, "--model", model, "--json"])
            let warnings = try #require(try check.json()["warnings"] as? [[String: Any]])
            #expect(warnings.map { "\($0["table"]!) \($0["entityNumber"]!) \($0["count"]!)" } == expected.map { "\($0.table) \($0.entityNumber) \($0.count)" })
            let text = try Modelc.run(["store", "check", store, "--model", model])
            #expect(text.standardError.contains("warning: 1 row of ZCAR carries entity number \(numbers["Person"]!)"), "\(text.standardError)")
        }
    }

    /// Gives the first Person row Car's number and the first Car row Person's, as Core Data's
    /// `Z_PRIMARYKEY` numbers them; returns their keys.
    static func makeForeignRows(_ store: String) throws -> (person: Int64, car: Int64) {
        try DatabaseQueue(path: store).write { db in
            let number = { (name: String) in try Int.fetchOne(db, sql: "SELECT Z_ENT FROM Z_PRIMARYKEY WHERE Z_NAME = ?", arguments: [name]) }
            let person = try #require(try Int64.fetchOne(db, sql: "SELECT MIN(Z_PK) FROM ZPERSON"))
            let car = try #require(try Int64.fetchOne(db, sql: "SELECT MIN(Z_PK) FROM ZCAR"))
            try db.execute(sql: "UPDATE ZPERSON SET Z_ENT = ? WHERE Z_PK = ?", arguments: [try number("Car"), person])
            try db.execute(sql: "UPDATE ZCAR SET Z_ENT = ? WHERE Z_PK = ?", arguments: [try number("Person"), car])
            return (person, car)
        }
    }

    /// Table → row key → the name `Z_PRIMARYKEY` gives the row's `Z_ENT` ("none" when it names
    /// no entity).
    static func entitiesOfRows(_ store: String) throws -> [String: [Int64: String]] {
        try DatabaseQueue(path: store).read { db in
            var result = [String: [Int64: String]]()
            for table in ["ZCAR", "ZPERSON"] {
                let rows = try Row.fetchAll(
                    db, sql: "SELECT t.Z_PK, k.Z_NAME FROM \(table) t LEFT JOIN Z_PRIMARYKEY k ON k.Z_ENT = t.Z_ENT")
                result[table] = Dictionary(uniqueKeysWithValues: rows.map { ($0[0] as Int64, $0[1] as String? ?? "none") })
            }
            return result
        }
    }
}
