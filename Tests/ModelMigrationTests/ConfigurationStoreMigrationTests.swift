import Foundation
import GRDB
import ModelMigration
import ModelSchema
import ModelStore
import Testing
import _ModelTestSupport

/// The migrators run on a store of one configuration (`Options.configuration`): the layouts and
/// the inferred mapping are the configuration's, the metadata the whole model's. On CoreStore's
/// model (Config1: TestEntity1AAA, Config2: TestEntity2) with a second version written from it
/// (``ConfigurationModels``).
@Suite(Corpus.required)
struct ConfigurationStoreMigrationTests {
    static let tables = "SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'ZTEST%' ORDER BY name"

    /// The bundle written into `folder`, and the store of Config1 at its first version with one row.
    static func config1Store(in folder: URL, addingAttributeTo entity: String, requiredAttributeTo required: String? = nil) throws -> (ModelBundle, String) {
        try config1Store(in: folder, model: try ConfigurationModels.write(into: folder, addingAttributeTo: entity, requiredAttributeTo: required))
    }

    /// The bundle at `model`, and the store of Config1 at its first version with one row.
    static func config1Store(in folder: URL, model: URL) throws -> (ModelBundle, String) {
        let bundle = try MigrationTestSupport.bundle(model.path)
        let path = folder.appendingPathComponent("Config1.sqlite").path
        try StoreCreator.create(at: path, version: try #require(bundle.version(named: "Model")), configuration: "Config1")
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in
            try db.execute(sql: "INSERT INTO ZTESTENTITY1AAA (Z_PK, Z_ENT, Z_OPT, ZTESTSTRING) VALUES (1, 1, 1, 'kept')")
            try db.execute(sql: "UPDATE Z_PRIMARYKEY SET Z_MAX = 1 WHERE Z_NAME = 'TestEntity1AAA'")
        }
        // Everything in the store file itself, so that "unchanged" can compare its bytes.
        _ = try queue.writeWithoutTransaction { try $0.checkpoint(.truncate) }
        try queue.close()
        return (bundle, path)
    }

    static func rows(_ path: String, _ sql: String) throws -> [String] {
        try DatabaseQueue(path: path).read { db in try String.fetchAll(db, sql: sql) }
    }

    /// What the store holds: its schema, rows and metadata hashes.
    static func contents(_ path: String) throws -> [String] {
        let schema = try MigrationTestSupport.schemaSet(path)
        let rows = try rows(path, "SELECT Z_PK || ':' || ZTESTSTRING FROM ZTESTENTITY1AAA ORDER BY Z_PK")
            + rows(path, "SELECT Z_NAME || ':' || Z_ENT || ':' || Z_MAX FROM Z_PRIMARYKEY ORDER BY Z_ENT")
        let hashes = try StoreMetadata.read(at: path).versionHashes.map { "\($0.key) \($0.value)" }.sorted()
        return schema.tables.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value.sorted())" } + schema.indexes.values.sorted() + rows + hashes
    }

    static func options(_ configuration: String?, dryRun: Bool = false) -> Migrator.Options {
        var options = Migrator.Options()
        options.configuration = configuration
        options.dryRun = dryRun
        options.makesBackup = false
        return options
    }

    @Test func theStepOfAConfigurationStoreChangesOnlyItsConfigurationsTables() throws {
        try withTemporaryDirectory { folder in
            let (bundle, path) = try Self.config1Store(in: folder, addingAttributeTo: "TestEntity1AAA")
            let plan = try Migrator.migrate(storeAt: path, bundle: bundle, options: Self.options("Config1", dryRun: true))
            #expect(plan.outcome == .planned)
            let sql = plan.steps.flatMap(\.statements).map(\.sql)
            #expect(sql.contains("ALTER TABLE ZTESTENTITY1AAA ADD COLUMN ZADDED VARCHAR"))
            #expect(!sql.contains { $0.contains("ZTESTENTITY2") }, "\(sql)")
            #expect(plan.steps.flatMap(\.mapping.entities).compactMap(\.destination) == ["TestEntity1AAA"])

            let result = try Migrator.migrate(storeAt: path, bundle: bundle, options: Self.options("Config1"))
            #expect(result.outcome == .migrated)
            #expect(try Self.rows(path, Self.tables) == ["ZTESTENTITY1AAA"])
            #expect(try Self.rows(path, "SELECT ZTESTSTRING FROM ZTESTENTITY1AAA WHERE ZADDED IS NULL") == ["kept"])
            #expect(try StoreMetadata.read(at: path).versionHashes == VersionHasher(try #require(bundle.currentVersion)).entityHashes())
            #expect(StoreCheck.run(storeAt: path, bundle: bundle, configuration: "Config1").error == nil)
        }
    }

    /// A change another configuration's entity cannot be inferred for (a required attribute
    /// without a default, on rows that store may hold) does not stop this store's migration.
    @Test func whatAnotherConfigurationsEntityCannotInferDoesNotStopTheStep() throws {
        try withTemporaryDirectory { folder in
            let (bundle, path) = try Self.config1Store(in: folder, addingAttributeTo: "TestEntity1AAA", requiredAttributeTo: "TestEntity2")
            let result = try Migrator.migrate(storeAt: path, bundle: bundle, options: Self.options("Config1"))
            #expect(result.outcome == .migrated, "\(result.steps.flatMap(\.mapping.diagnostics))")
            #expect(StoreCheck.run(storeAt: path, bundle: bundle, configuration: "Config1").error == nil)
        }
    }

    @Test func aStoreWhoseConfigurationDidNotChangeIsUpToDateAndUntouched() throws {
        try withTemporaryDirectory { folder in
            let (bundle, path) = try Self.config1Store(in: folder, addingAttributeTo: "TestEntity2")
            let before = try #require(FileManager.default.contents(atPath: path))
            let result = try Migrator.migrate(storeAt: path, bundle: bundle, options: Self.options("Config1"))
            #expect(result.outcome == .upToDate)
            #expect(result.steps.isEmpty)
            #expect(FileManager.default.contents(atPath: path) == before)
        }
    }

    /// Instances the mapping would put into an entity of another configuration have no table in
    /// the new store: the run stops before creating anything, rather than dropping them.
    @Test func theManagerRefusesToMoveInstancesIntoAnotherConfigurationsEntity() throws {
        try withTemporaryDirectory { folder in
            let (bundle, path) = try Self.config1Store(in: folder, addingAttributeTo: "TestEntity1AAA")
            // The manager's lock takes the store out of WAL mode and back, which rewrites its header.
            let before = try Self.contents(path)
            let source = VersionHasher(try #require(bundle.version(named: "Model"))).entityHashes()
            let destination = VersionHasher(try #require(bundle.version(named: "Model 2"))).entityHashes()
            let moving = EntityMapping(
                name: "TestEntity1AAAToTestEntity2", type: .transform, sourceEntityName: "TestEntity1AAA", destinationEntityName: "TestEntity2",
                sourceEntityVersionHash: source["TestEntity1AAA"], destinationEntityVersionHash: destination["TestEntity2"],
                sourceExpression: SourceExpression(entityName: "TestEntity1AAA"),
                attributeMappings: [PropertyMapping(name: "testString", valueExpression: "$source.testString")])
            var options = MigrationManager.Options()
            options.configuration = "Config1"
            options.makesBackup = false
            let manager = MigrationManager(bundle: bundle, mappingModel: MappingModel(name: "M", path: "M.cdm", entityMappings: [moving]))
            #expect(throws: MigrationError.self) { try manager.migrate(storeAt: path, options: options) }
            #expect(try Self.contents(path) == before)
        }
    }

    /// A new entity of Config2 that sorts first renumbers Config1's entity in the whole model
    /// (entity numbers are the model's): its hashes are the same, but its rows and its
    /// `Z_PRIMARYKEY` row take the new number, as a store created for the destination has it.
    @Test func anEntityRenumberedByAnotherConfigurationsNewEntityIsRenumbered() throws {
        try withTemporaryDirectory { folder in
            let model = try ConfigurationModels.write(into: folder, versions: [[.entity("AAAEntity", in: "Config2")]])
            let (bundle, path) = try Self.config1Store(in: folder, model: model)
            let result = try Migrator.migrate(storeAt: path, bundle: bundle, options: Self.options("Config1"))
            #expect(result.outcome == .migrated)
            #expect(try Self.rows(path, "SELECT Z_NAME || ':' || Z_ENT FROM Z_PRIMARYKEY") == ["TestEntity1AAA:2"])
            #expect(try Self.rows(path, "SELECT ZTESTSTRING || ':' || Z_ENT FROM ZTESTENTITY1AAA") == ["kept:2"])
            #expect(try Self.rows(path, Self.tables) == ["ZTESTENTITY1AAA"])
            #expect(StoreCheck.run(storeAt: path, bundle: bundle, configuration: "Config1").error == nil)
        }
    }

    /// Stages through three versions, one of which changes only Config2's entity: that stage
    /// changes nothing in the store, and the chain still ends at the last version's metadata,
    /// whichever stage it is.
    @Test(arguments: [["TestEntity2", "TestEntity1AAA"], ["TestEntity1AAA", "TestEntity2"]])
    func stagesThatLeaveTheConfigurationAsItWasStillEndAtTheLastVersion(_ changed: [String]) throws {
        try withTemporaryDirectory { folder in
            let model = try ConfigurationModels.write(
                into: folder, versions: changed.enumerated().map { [.attribute("added\($0.offset)", to: $0.element)] })
            let (bundle, path) = try Self.config1Store(in: folder, model: model)
            var options = StagedMigrator.Options()
            options.configuration = "Config1"
            options.makesBackup = false
            let plan = StagedMigrationPlan.chain(through: ["Model 2"], to: "Model 3", mappingModels: [])
            let result = try StagedMigrator.migrate(storeAt: path, bundle: bundle, plan: plan, options: options)
            #expect(result.outcome == .migrated)
            #expect(try Self.rows(path, Self.tables) == ["ZTESTENTITY1AAA"])
            let column = "ZADDED\(try #require(changed.firstIndex(of: "TestEntity1AAA")))"
            #expect(try Self.rows(path, "SELECT ZTESTSTRING FROM ZTESTENTITY1AAA WHERE \(column) IS NULL") == ["kept"])
            #expect(try StoreMetadata.read(at: path).versionHashes == VersionHasher(try #require(bundle.currentVersion)).entityHashes())
            #expect(StoreCheck.run(storeAt: path, bundle: bundle, configuration: "Config1").error == nil)
        }
    }

    @Test func anUnknownConfigurationIsRefusedBeforeAnythingIsTouched() throws {
        try withTemporaryDirectory { folder in
            let (bundle, path) = try Self.config1Store(in: folder, addingAttributeTo: "TestEntity1AAA")
            let before = try #require(FileManager.default.contents(atPath: path))
            let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
            var options = Self.options("Nothing")
            options.makesBackup = true
            #expect(throws: MigrationError.self) { try Migrator.migrate(storeAt: path, bundle: bundle, options: options) }
            do {
                _ = try Migrator.migrate(storeAt: path, bundle: bundle, options: options)
            } catch let error as MigrationError {
                #expect(error.errorClass == .store(.incompatibleSchema))
                #expect(error.code == 134020)
            }
            var manager = MigrationManager.Options()
            manager.configuration = "Nothing"
            let mapping = MappingModel(name: "Empty", path: "Empty.cdm", entityMappings: [])
            #expect(throws: MigrationError.self) { try MigrationManager(bundle: bundle, mappingModel: mapping).migrate(storeAt: path, options: manager) }
            var staged = StagedMigrator.Options()
            staged.configuration = "Nothing"
            let plan = StagedMigrationPlan.chain(through: [], to: "Model 2", mappingModels: [])
            #expect(throws: MigrationError.self) { try StagedMigrator.migrate(storeAt: path, bundle: bundle, plan: plan, options: staged) }
            #expect(FileManager.default.contents(atPath: path) == before)
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == files)
        }
    }

    /// The manager runs every entity mapping of a mapping model made for the whole model; those
    /// of entities the store does not hold find no instances, as Core Data's fetch from a store
    /// without the entity finds none.
    @Test func theManagerMigratesAConfigurationStoreThroughAMappingModelOfTheWholeModel() throws {
        try withTemporaryDirectory { folder in
            let (bundle, path) = try Self.config1Store(in: folder, addingAttributeTo: "TestEntity1AAA")
            let source = VersionHasher(try #require(bundle.version(named: "Model"))).entityHashes()
            let destination = VersionHasher(try #require(bundle.version(named: "Model 2"))).entityHashes()
            let mappings = ["TestEntity1AAA", "TestEntity2"].map { entity in
                EntityMapping(
                    name: "\(entity)To\(entity)", type: entity == "TestEntity2" ? .copy : .transform, sourceEntityName: entity, destinationEntityName: entity,
                    sourceEntityVersionHash: source[entity], destinationEntityVersionHash: destination[entity],
                    sourceExpression: SourceExpression(entityName: entity),
                    attributeMappings: [PropertyMapping(name: "testString", valueExpression: "$source.testString")])
            }
            var options = MigrationManager.Options()
            options.configuration = "Config1"
            options.makesBackup = false
            let result = try MigrationManager(bundle: bundle, mappingModel: MappingModel(name: "M", path: "M.cdm", entityMappings: mappings))
                .migrate(storeAt: path, options: options)
            #expect(result.outcome == .migrated)
            #expect(result.entityMappings.map(\.instancesCreated) == [1, 0])
            #expect(try Self.rows(path, Self.tables) == ["ZTESTENTITY1AAA"])
            #expect(try Self.rows(path, "SELECT ZTESTSTRING FROM ZTESTENTITY1AAA") == ["kept"])
            #expect(StoreCheck.run(storeAt: path, bundle: bundle, configuration: "Config1").error == nil)
        }
    }
}
