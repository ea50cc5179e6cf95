import Foundation
import GRDB
import ModelSchema
import ModelStore
import ModelXML
import Testing
import _ModelTestSupport

/// `modelc migrate --through … --mapping …` as a user runs it on corpus stores: stages through
/// the project's own mapping models (ebf's `TestMigrationStore_1_2` and `_2_3`, policy-free), the
/// plan that names the stages when the direct step is impossible (wibosco), and a stage whose
/// mapping model needs a policy nobody registered.
@Suite(.serialized, Corpus.required)
struct MigrateStagesCommandTests {
    static let ebf = "ebf__CTDataStoreManager/CTDataStoreManager/CTDataStoreManagerTests/CoreDataTests/MigrationTest"
    static let wibosco = "\(CorpusStores.wibosco)/CoreDataMigration-Example"
    static let wiboscoModel = Corpus.path("\(wibosco)/CoreData/Model/CoreDataMigration_Example.xcdatamodeld")
    static let wiboscoMappings = Corpus.path("\(wibosco)/CoreData/Migration/Mappings")

    static func wiboscoStore(into folder: URL) throws -> String {
        try copyStore(Corpus.path("\(CorpusStores.wibosco)/CoreDataMigration-ExampleTests/Resources/SQLite/CoreDataMigration_Example_1.sqlite"), into: folder)
    }

    /// ebf's version-1 store goes to version 3 in two stages, each through its mapping model:
    /// the dry run names them and changes nothing; the run ends with version 3's hashes, every
    /// row's key and date as Core Data wrote them, and the original as the one backup.
    @Test func stagesRunThroughTheMatchingMappingModels() throws {
        try withTemporaryDirectory { folder in
            let store = try copyStore(Corpus.path("\(Self.ebf)/TestMigrationStore_version_1.sqlite"), into: folder)
            let model = Corpus.path("\(Self.ebf)/TestMigrationStore.xcdatamodeld")
            let before = try #require(FileManager.default.contents(atPath: store))
            let rows = try Self.rows(store)
            let arguments = ["migrate", store, "--model", model, "--mapping", Corpus.path(Self.ebf), "--through", "TestMigrationStore 2", "--json"]
            let planned = try Modelc.run(arguments + ["--dry-run"])
            #expect(planned.status == 0, "\(planned.standardError)")
            #expect(FileManager.default.contents(atPath: store) == before)
            #expect(try Self.mappingModels(planned) == ["TestMigrationStore_1_2.xcmappingmodel", "TestMigrationStore_2_3.xcmappingmodel"])
            #expect(try planned.json()["outcome"] as? String == "planned")

            let run = try Modelc.run(arguments)
            #expect(run.status == 0, "\(run.standardError)")
            let report = try run.json()
            #expect(report["outcome"] as? String == "migrated")
            #expect(try Self.mappingModels(run) == ["TestMigrationStore_1_2.xcmappingmodel", "TestMigrationStore_2_3.xcmappingmodel"])
            let bundle = try #require(ModelReader().read(at: model).bundle)
            let version = try #require(bundle.version(named: "TestMigrationStore 3"))
            #expect(try StoreMetadata.read(at: store).versionHashes == VersionHasher(version).entityHashes())
            #expect(try Self.rows(store) == rows)
            let backup = try #require(report["backup"] as? String)
            #expect(FileManager.default.contents(atPath: backup) == before, "the original store is the backup")
            let beside = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
            #expect(beside == [URL(fileURLWithPath: backup).lastPathComponent, URL(fileURLWithPath: store).lastPathComponent].sorted())
        }
    }

    /// wibosco's version-1 store cannot go to version 4 in one step, but can through versions 2
    /// and 3 with its mapping models: the plan says so and prints the `--through` to use.
    @Test func anImpossibleDirectStepNamesTheStagesThatWork() throws {
        try withTemporaryDirectory { folder in
            let store = try Self.wiboscoStore(into: folder)
            let run = try Modelc.run(["migrate", store, "--model", Self.wiboscoModel, "--mapping", Self.wiboscoMappings, "--dry-run", "--json"])
            #expect(run.status == 2, "\(run.standardError)")
            let report = try run.json()
            #expect(report["outcome"] as? String == "impossible")
            #expect(report["suggestedThrough"] as? [String] == ["CoreDataMigration_Example 2", "CoreDataMigration_Example 3"])
            let command = try #require(report["suggestedCommand"] as? String)
            #expect(command.contains("--mapping") && command.contains("--through 'CoreDataMigration_Example 2,CoreDataMigration_Example 3'"), "\(command)")
            let text = try Modelc.run(["migrate", store, "--model", Self.wiboscoModel, "--mapping", Self.wiboscoMappings, "--dry-run"])
            #expect(text.standardOutput.contains("stages through CoreDataMigration_Example 2 → CoreDataMigration_Example 3 work"), "\(text.standardOutput)")
        }
    }

    /// The stages the plan names need wibosco's policy for v2 → v3: the command stops before
    /// touching anything, names the class, and exits 2.
    @Test func aStageThatNeedsAPolicyStopsWithExitTwo() throws {
        try withTemporaryDirectory { folder in
            let store = try Self.wiboscoStore(into: folder)
            let before = try #require(FileManager.default.contents(atPath: store))
            let run = try Modelc.run([
                "migrate", store, "--model", Self.wiboscoModel, "--mapping", Self.wiboscoMappings, "--through",
                "CoreDataMigration_Example 2,CoreDataMigration_Example 3",
            ])
            #expect(run.status == 2, "\(run.standardError)")
            #expect(run.standardError.contains("Post2ToPost3MigrationPolicy") && run.standardError.contains("[missingPolicy, 134110]"), "\(run.standardError)")
            #expect(FileManager.default.contents(atPath: store) == before)
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == [URL(fileURLWithPath: store).lastPathComponent])
        }
    }

    // MARK: - Reading

    /// The file names of the mapping models the stages of a JSON report used.
    static func mappingModels(_ run: Modelc.Run) throws -> [String] {
        let stages = try #require(try run.json()["stages"] as? [[String: Any]])
        return stages.compactMap { stage in
            ((stage["uses"] as? [String: Any])?["mappingModel"] as? [String: Any])?["path"] as? String
        }.map { URL(fileURLWithPath: $0).lastPathComponent }
    }

    /// Every row of the store's entity, as key and date.
    static func rows(_ store: String) throws -> [[DatabaseValue]] {
        var configuration = Configuration()
        configuration.readonly = true
        return try DatabaseQueue(path: store, configuration: configuration).read { db in
            try Row.fetchAll(db, sql: "SELECT Z_PK, ZDATE FROM ZENTITY ORDER BY Z_PK").map { Array($0.databaseValues) }
        }
    }
}
