import Foundation
import GRDB
import Testing
import _ModelTestSupport

/// `modelc store create --configuration`, `store check --configuration` and `migrate
/// --configuration` on CoreStore's test model, whose configurations Config1 and Config2 hold one
/// entity each (for `migrate`, with a second version written from it: ``ConfigurationModels``).
struct StoreConfigurationCommandTests {
    static let model = "JohnEstropia__CoreStore/CoreStoreTests/Model.xcdatamodeld"

    @Test(Corpus.required) func aStoreCreatedForAConfigurationChecksCleanForThatConfigurationOnly() throws {
        try withTemporaryDirectory { folder in
            let model = Corpus.path(Self.model)
            let path = folder.appendingPathComponent("Config2.sqlite").path
            #expect(try Modelc.run(["store", "create", "--model", model, "--configuration", "Config2", path]).status == 0)
            let clean = try Modelc.run(["store", "check", path, "--model", model, "--configuration", "Config2"])
            #expect(clean.status == 0)
            #expect(clean.standardOutput.contains("opens with the current version"))
            // Checked for every entity, Config1's table is missing.
            let whole = try Modelc.run(["store", "check", path, "--model", model, "--json"])
            #expect(whole.status == 2)
            #expect(whole.standardOutput.contains("\"incompatibleSchema\""))
            let unknown = folder.appendingPathComponent("Unknown.sqlite").path
            #expect(try Modelc.run(["store", "create", "--model", model, "--configuration", "Nothing", unknown]).status == 64)
            #expect(!FileManager.default.fileExists(atPath: unknown))
        }
    }

    /// The store of Config1 at the bundle's first version, with one TestEntity1AAA row.
    static func makeConfig1Store(_ path: String, model: String) throws {
        let create = try Modelc.run(["store", "create", "--model", model, "--model-version", "Model", "--configuration", "Config1", path])
        #expect(create.status == 0, "\(create.standardError)")
        try DatabaseQueue(path: path).write { db in
            try db.execute(sql: "INSERT INTO ZTESTENTITY1AAA (Z_PK, Z_ENT, Z_OPT, ZTESTSTRING) VALUES (1, 1, 1, 'kept')")
            try db.execute(sql: "UPDATE Z_PRIMARYKEY SET Z_MAX = 1 WHERE Z_NAME = 'TestEntity1AAA'")
        }
    }

    static func rows(_ path: String, _ sql: String) throws -> [String] {
        try DatabaseQueue(path: path).read { db in try String.fetchAll(db, sql: sql) }
    }

    @Test(Corpus.required) func migrateMigratesAConfigurationStoreToItsConfigurationsTablesOnly() throws {
        try withTemporaryDirectory { folder in
            let model = try ConfigurationModels.write(into: folder, addingAttributeTo: "TestEntity1AAA").path
            let path = folder.appendingPathComponent("Config1.sqlite").path
            try Self.makeConfig1Store(path, model: model)
            let before = try #require(FileManager.default.contents(atPath: path))

            let plan = try Modelc.run(["migrate", path, "--model", model, "--configuration", "Config1", "--dry-run", "--json"])
            #expect(plan.status == 0, "\(plan.standardOutput) \(plan.standardError)")
            let report = try plan.json()
            #expect(report["outcome"] as? String == "planned")
            let steps = try #require(report["steps"] as? [[String: Any]])
            let sql = steps.flatMap { ($0["statements"] as? [[String: Any]] ?? []).compactMap { $0["sql"] as? String } }
            #expect(sql.contains("ALTER TABLE ZTESTENTITY1AAA ADD COLUMN ZADDED VARCHAR"))
            #expect(!sql.contains { $0.contains("ZTESTENTITY2") }, "\(sql)")
            #expect(FileManager.default.contents(atPath: path) == before, "a dry run changes nothing")

            let run = try Modelc.run(["migrate", path, "--model", model, "--configuration", "Config1", "--no-backup"])
            #expect(run.status == 0, "\(run.standardOutput) \(run.standardError)")
            #expect(try Self.rows(path, "SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'ZTEST%' ORDER BY name") == ["ZTESTENTITY1AAA"])
            #expect(try Self.rows(path, "SELECT ZTESTSTRING || ':' || IFNULL(ZADDED, '-') FROM ZTESTENTITY1AAA") == ["kept:-"])
            let check = try Modelc.run(["store", "check", path, "--model", model, "--configuration", "Config1"])
            #expect(check.status == 0, "\(check.standardOutput) \(check.standardError)")
            let again = try Modelc.run(["migrate", path, "--model", model, "--configuration", "Config1", "--json"])
            #expect(try again.json()["outcome"] as? String == "upToDate")
        }
    }

    @Test(Corpus.required) func migrateWithAnUnknownConfigurationIsAUsageErrorAndChangesNothing() throws {
        try withTemporaryDirectory { folder in
            let model = try ConfigurationModels.write(into: folder, addingAttributeTo: "TestEntity1AAA").path
            let path = folder.appendingPathComponent("Config1.sqlite").path
            try Self.makeConfig1Store(path, model: model)
            let before = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
            let bytes = try #require(FileManager.default.contents(atPath: path))
            for dryRun in [[], ["--dry-run"]] {
                let run = try Modelc.run(["migrate", path, "--model", model, "--configuration", "Nothing", "--json"] + dryRun)
                #expect(run.status == 64, "\(run.standardOutput) \(run.standardError)")
                let error = try #require(try run.json()["error"] as? [String: Any])
                #expect(error["code"] as? String == "X021")
                #expect((error["message"] as? String)?.contains("'Config1', 'Config2'") == true)
            }
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == before)
            #expect(FileManager.default.contents(atPath: path) == bytes)
        }
    }

    @Test func migrateHelpDocumentsTheConfigurationOption() throws {
        let help = try Modelc.run(["migrate", "--help"])
        #expect(help.status == 0)
        #expect(help.standardOutput.contains("--configuration <configuration>"))
    }
}
