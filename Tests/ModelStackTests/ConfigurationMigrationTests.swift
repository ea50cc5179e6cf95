import Foundation
import GRDB
import ModelArchive
import ModelMigration
import ModelSchema
import ModelStack
import ModelStore
import Testing
import _ModelTestSupport

/// A store added for a configuration is migrated as a store of that configuration when its
/// configuration's entities changed: its tables stay the configuration's, its metadata the whole
/// model's hashes. On CoreStore's model (Config1: TestEntity1AAA, Config2: TestEntity2) with a
/// second version written from it (``ConfigurationModels``).
@Suite(Corpus.required)
struct ConfigurationMigrationTests {
    /// The entity tables of the store at `url` (not Core Data's `Z_` ones), by name.
    static let tables = "SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'Z%' AND name NOT LIKE 'Z\\_%' ESCAPE '\\' ORDER BY name"

    /// A container for the bundle at `model` loading the store of `configuration` at `store`.
    static func container(_ model: URL, store: URL, configuration: String, _ configure: (inout StoreDescription) -> Void = { _ in }) throws -> PersistentContainer {
        let container = try PersistentContainer(name: "Test", model: model)
        var description = StoreDescription(url: store)
        description.configuration = configuration
        configure(&description)
        container.persistentStoreDescriptions = [description]
        return container
    }

    /// Creates the store of Config1 at the bundle's first version with two TestEntity1AAA rows,
    /// the second pointing at the first through `testToOne`.
    static func makeConfig1Store(at store: URL, of bundle: ModelBundle) throws {
        try StoreCreator.create(at: store.path, version: try #require(bundle.version(named: "Model")), configuration: "Config1")
        try DatabaseQueue(path: store.path).write { db in
            try db.execute(sql: "INSERT INTO ZTESTENTITY1AAA (Z_PK, Z_ENT, Z_OPT, ZTESTSTRING) VALUES (1, 1, 1, 'first')")
            try db.execute(sql: "INSERT INTO ZTESTENTITY1AAA (Z_PK, Z_ENT, Z_OPT, ZTESTSTRING, ZTESTTOONE) VALUES (2, 1, 1, 'second', 1)")
            try db.execute(sql: "UPDATE Z_PRIMARYKEY SET Z_MAX = 2 WHERE Z_NAME = 'TestEntity1AAA'")
        }
    }

    static func rows(_ url: URL, _ sql: String) throws -> [String] {
        try DatabaseQueue(path: url.path).read { db in try String.fetchAll(db, sql: sql) }
    }

    /// Checks the migrated store of Config1 at `store`: its table only, with the new column, the
    /// rows kept, Config1's `Z_PRIMARYKEY` row only, the whole current version's hashes, and clean
    /// for Config1.
    static func expectMigratedConfig1Store(_ store: URL, bundle: ModelBundle) throws {
        #expect(try rows(store, tables) == ["ZTESTENTITY1AAA"])
        #expect(try rows(store, "SELECT name FROM pragma_table_info('ZTESTENTITY1AAA') WHERE name = 'ZADDED'") == ["ZADDED"])
        #expect(try rows(store, "SELECT ZTESTSTRING || ':' || IFNULL(ZTESTTOONE, '-') FROM ZTESTENTITY1AAA ORDER BY Z_PK") == ["first:-", "second:1"])
        #expect(try rows(store, "SELECT Z_NAME || ':' || Z_ENT || ':' || Z_MAX FROM Z_PRIMARYKEY") == ["TestEntity1AAA:1:2"])
        let current = try #require(bundle.currentVersion)
        #expect(try StoreMetadata.read(at: store.path).versionHashes == VersionHasher(current).entityHashes())
        let check = StoreCheck.run(storeAt: store.path, bundle: bundle, configuration: "Config1")
        #expect(check.error == nil, "\(check.error?.description ?? "")")
    }

    @Test func aConfigurationStoreBehindIsMigratedWithItsConfigurationsTablesOnly() async throws {
        let folder = try StackTestSupport.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let model = try ConfigurationModels.write(into: folder, addingAttributeTo: "TestEntity1AAA")
        let store = folder.appendingPathComponent("Config1.sqlite")
        let container = try Self.container(model, store: store, configuration: "Config1")
        try Self.makeConfig1Store(at: store, of: container.model)
        let reports = try await container.loadPersistentStores()
        #expect(reports.map(\.migratedFrom) == ["Model"])
        try container.loadedStores.forEach { try $0.database.close() }
        try Self.expectMigratedConfig1Store(store, bundle: container.model)
    }

    @Test func aChangeToAnotherConfigurationsEntityDoesNotMigrateTheStore() async throws {
        let folder = try StackTestSupport.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let model = try ConfigurationModels.write(into: folder, addingAttributeTo: "TestEntity2")
        let store = folder.appendingPathComponent("Config1.sqlite")
        let container = try Self.container(model, store: store, configuration: "Config1")
        try Self.makeConfig1Store(at: store, of: container.model)
        let hashes = try StoreMetadata.read(at: store.path).versionHashes
        let reports = try await container.loadPersistentStores()
        #expect(reports.map(\.migratedFrom) == [nil])
        #expect(reports.map(\.backupPath) == [nil])
        try container.loadedStores.forEach { try $0.database.close() }
        #expect(try StoreMetadata.read(at: store.path).versionHashes == hashes, "the first version's hashes, as it was made")
        #expect(try Self.rows(store, Self.tables) == ["ZTESTENTITY1AAA"])
    }

    @Test func aConfigurationStoreIsMigratedThroughAMappingModelOfTheWholeModel() async throws {
        let folder = try StackTestSupport.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let model = try ConfigurationModels.write(into: folder, addingAttributeTo: "TestEntity1AAA")
        let store = folder.appendingPathComponent("Config1.sqlite")
        let mappings = folder.appendingPathComponent("Mappings")
        try FileManager.default.createDirectory(at: mappings, withIntermediateDirectories: true)
        let container = try Self.container(model, store: store, configuration: "Config1") { description in
            description.shouldInferMappingModelAutomatically = false
            description.mappingModelLocations = [mappings]
        }
        let bundle = container.model
        try Data(try MappingModelArchiver.archive(try Self.mappingModel(bundle))).write(to: mappings.appendingPathComponent("ModelToModel2.cdm"))
        try Self.makeConfig1Store(at: store, of: bundle)
        let reports = try await container.loadPersistentStores()
        #expect(reports.map(\.migratedFrom) == ["Model"])
        #expect(reports[0].mappingModel?.hasSuffix("ModelToModel2.cdm") == true)
        try container.loadedStores.forEach { try $0.database.close() }
        try Self.expectMigratedConfig1Store(store, bundle: bundle)
    }

    @Test func aConfigurationStoreIsMigratedThroughAStagedPlan() async throws {
        let folder = try StackTestSupport.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let model = try ConfigurationModels.write(into: folder, addingAttributeTo: "TestEntity1AAA")
        let store = folder.appendingPathComponent("Config1.sqlite")
        let container = try Self.container(model, store: store, configuration: "Config1")
        container.stagedMigrationPlan = StagedMigrationPlan.chain(through: [], to: "Model 2", mappingModels: [])
        try Self.makeConfig1Store(at: store, of: container.model)
        let reports = try await container.loadPersistentStores()
        #expect(reports.map(\.migratedFrom) == ["Model"])
        try container.loadedStores.forEach { try $0.database.close() }
        try Self.expectMigratedConfig1Store(store, bundle: container.model)
    }

    /// A mapping model of the whole model, as Xcode makes one between the two versions: both
    /// entities mapped, the changed one as a transform.
    static func mappingModel(_ bundle: ModelBundle) throws -> MappingModel {
        let source = VersionHasher(try #require(bundle.version(named: "Model"))).entityHashes()
        let destination = VersionHasher(try #require(bundle.version(named: "Model 2"))).entityHashes()
        let attributes = ["testBoolean", "testData", "testDate", "testDecimal", "testEntityID", "testNil", "testNumber", "testString"]
        func mapping(_ entity: String, _ type: EntityMappingType, relationships: [String]) -> EntityMapping {
            EntityMapping(
                name: "\(entity)To\(entity)", type: type, sourceEntityName: entity, destinationEntityName: entity,
                sourceEntityVersionHash: source[entity], destinationEntityVersionHash: destination[entity],
                sourceExpression: SourceExpression(entityName: entity),
                attributeMappings: attributes.map { PropertyMapping(name: $0, valueExpression: "$source.\($0)") },
                relationshipMappings: relationships.map { name in
                    PropertyMapping(
                        name: name,
                        valueExpression: #"FUNCTION($manager, "destinationInstancesForEntityMappingNamed:sourceInstances:", "\#(entity)To\#(entity)", $source.\#(name))"#)
                })
        }
        return MappingModel(
            name: "ModelToModel2", path: "ModelToModel2.cdm",
            entityMappings: [
                mapping("TestEntity1AAA", .transform, relationships: ["testToManyUnordered", "testToOne"]),
                mapping("TestEntity2", .copy, relationships: ["testToManyOrdered", "testToOne"]),
            ])
    }
}
