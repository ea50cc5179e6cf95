import Foundation
import GRDB
import ModelCompiler
import ModelExpression
import ModelMigration
import ModelSchema
import ModelStore
import Testing
import _ModelTestSupport

/// Custom mapping models of the corpus run by ``MigrationManager`` on the corpus stores that sit
/// at their source version (by hashes): the store ends with the destination version's hashes,
/// and the values the mapping defines are in its rows (renamed, transformed, policy-made).
@Suite(Corpus.required)
struct ManagerCorpusTests {
    typealias Support = MigrationTestSupport

    /// A Swift port of CoreDataPlus's `V2to3MakerPolicy`: after the default instance creation,
    /// the car's old `maker` string becomes a shared `Maker` object (looked up by name, inserted
    /// once) linked through `createdBy`.
    struct MakerPolicy: EntityMigrationPolicy {
        func createDestinationInstances(forSource source: MigrationObject, in mapping: EntityMapping, manager: MigrationContext) throws {
            try manager.createDefaultDestinationInstances(forSource: source, in: mapping)
            guard case .string(let name) = try source.value(forKey: "maker") else { return }
            guard let car = try manager.destinationInstances(forEntityMappingName: mapping.name, sourceInstances: [source]).first else {
                throw EvaluationError("no car was created")
            }
            let maker = try manager.destinationInstances(entity: "Maker", where: "name", equals: .string(name)).first
                ?? manager.insertDestinationInstance(entity: "Maker", values: ["name": .string(name)])
            try car.setObjects([maker], forKey: "createdBy")
        }
    }

    /// A Swift port of wibosco's `Post2ToPost3MigrationPolicy`: each post gets a new `Color`
    /// with a fresh identifier and the post's old `hexColor`.
    struct PostColorPolicy: EntityMigrationPolicy {
        func createDestinationInstances(forSource source: MigrationObject, in mapping: EntityMapping, manager: MigrationContext) throws {
            try manager.createDefaultDestinationInstances(forSource: source, in: mapping)
            let post = try #require(try manager.destinationInstances(forEntityMappingName: mapping.name, sourceInstances: [source]).first)
            let color = try manager.insertDestinationInstance(
                entity: "Color", values: ["colorID": .string(UUID().uuidString), "hex": try source.value(forKey: "hexColor")])
            try post.setObjects([color], forKey: "color")
        }
    }

    /// A Swift port of hwaxxer's `MHWBookToBookPolicy` at `modelVersion` 2 (the mapping's user
    /// info): the book's attributes copied by name, its `authorName` made a shared `Author`.
    struct BookAuthorPolicy: EntityMigrationPolicy {
        func createDestinationInstances(forSource source: MigrationObject, in mapping: EntityMapping, manager: MigrationContext) throws {
            guard mapping.userInfo?.first(where: { $0.key == "modelVersion" })?.value == "2",
                let entity = mapping.destinationEntityName, let sourceEntity = manager.sourceModel.entity(named: source.entityName),
                let destinationEntity = manager.destinationModel.entity(named: entity)
            else { return try manager.createDefaultDestinationInstances(forSource: source, in: mapping) }
            var values = [String: EvaluatedValue]()
            for attribute in destinationEntity.attributes where sourceEntity.attributes.contains(where: { $0.name == attribute.name }) {
                let value = try source.value(forKey: attribute.name)
                if !value.isNull { values[attribute.name] = value }
            }
            let book = try manager.insertDestinationInstance(entity: entity, values: values)
            let name = try source.value(forKey: "authorName")
            let author = try manager.destinationInstances(entity: "Author", where: "name", equals: name).first
                ?? manager.insertDestinationInstance(entity: "Author", values: ["name": name])
            try book.setObjects([author], forKey: "authors")
            try manager.associate(source: source, destination: book, mapping: mapping)
        }
    }

    /// Swift ports of LoopKit's `CachedCarbObjectv3EntityMigrationPolicy` and
    /// `DeletedCarbObjectv3EntityMigrationPolicy`; the provenance identifier HealthKit gives on
    /// a device comes from the manager's user info. `operation` is LoopKit's `Operation`
    /// (create 0, update 1, delete 2).
    struct CachedCarbPolicy: EntityMigrationPolicy {
        func createDestinationInstances(forSource source: MigrationObject, in mapping: EntityMapping, manager: MigrationContext) throws {
            try manager.createDefaultDestinationInstances(forSource: source, in: mapping)
            let carb = try #require(try manager.destinationInstances(forEntityMappingName: mapping.name, sourceInstances: [source]).first)
            if try carb.value(forKey: "createdByCurrentApp") == .bool(true) {
                try carb.setValue(.string(manager.userInfo["provenanceIdentifier"] ?? ""), forKey: "provenanceIdentifier")
                if try !carb.value(forKey: "syncIdentifier").isNull, let version = try carb.value(forKey: "syncVersion").number, version > 1 {
                    try carb.setValue(.integer(1), forKey: "operation")
                }
            }
            let external = try source.value(forKey: "externalID")
            if !external.isNull, try carb.value(forKey: "syncIdentifier").isNull {
                try carb.setValue(external, forKey: "syncIdentifier")
                try carb.setValue(.integer(1), forKey: "syncVersion")
            }
        }
    }

    struct DeletedCarbPolicy: EntityMigrationPolicy {
        func createDestinationInstances(forSource source: MigrationObject, in mapping: EntityMapping, manager: MigrationContext) throws {
            var values: [String: EvaluatedValue] = ["createdByCurrentApp": .bool(false), "operation": .integer(2)]
            for key in ["startDate", "uuid", "syncIdentifier", "syncVersion"] { values[key] = try source.value(forKey: key) }
            values["anchorKey"] = try source.value(forKey: "modificationCounter")
            let external = try source.value(forKey: "externalID")
            if !external.isNull, try source.value(forKey: "syncIdentifier").isNull {
                values["syncIdentifier"] = external
                values["syncVersion"] = .integer(1)
            }
            let carb = try manager.insertDestinationInstance(entity: try #require(mapping.destinationEntityName), values: values)
            try manager.associate(source: source, destination: carb, mapping: mapping)
        }
    }

    static func read(_ mapping: String) throws -> MappingModel {
        try #require(MappingCompilation.read(at: Corpus.path(mapping)).model, "mapping model \(mapping)")
    }

    @Test func coreDataPlusV2ToV3MakesSharedMakers() throws {
        let bundle = try Support.bundle(Corpus.path("\(CorpusStores.plus)/SampleModel/SampleModel.xcdatamodeld"))
        let mapping = try Self.read("\(CorpusStores.plus)/SampleModel/MappingModels/V2toV3.xcmappingmodel")
        try withTemporaryDirectory { folder in
            let store = try Support.copy(Corpus.path("\(CorpusStores.plus)/SampleModel/Fixtures/SampleModel_V2.sqlite"), into: folder)
            let before = try Self.rows(store, "SELECT Z_ENT, ZNUMBERPLATE, ZMAKER, ZMODEL FROM ZCAR ORDER BY ZNUMBERPLATE")
            let owners = try Self.rows(store, "SELECT c.ZNUMBERPLATE, p.ZFIRSTNAME FROM ZCAR c LEFT JOIN ZPERSON p ON p.Z_PK = c.ZOWNER ORDER BY 1")
            let persons = try Self.rows(store, "SELECT ZFIRSTNAME, ZLASTNAME FROM ZPERSON ORDER BY 1, 2")

            // Without the policy the run stops before touching anything.
            let unregistered = MigrationManager(bundle: bundle, mappingModel: mapping)
            #expect(throws: MigrationError.self) { try unregistered.migrate(storeAt: store) }
            #expect(try Self.rows(store, "SELECT Z_ENT, ZNUMBERPLATE, ZMAKER, ZMODEL FROM ZCAR ORDER BY ZNUMBERPLATE") == before)

            var registry = PolicyRegistry()
            registry.register(className: "V2to3MakerPolicy") { MakerPolicy() }
            let result = try MigrationManager(bundle: bundle, mappingModel: mapping, registry: registry).migrate(storeAt: store)
            #expect(result.outcome == .migrated)
            #expect(result.destination == "SampleModel3")
            let version = try #require(bundle.version(named: "SampleModel3"))
            #expect(try StoreMetadata.read(at: store).versionHashes == VersionHasher(version).entityHashes())
            // Every car once, whatever its entity (sub-entities are not fetched twice).
            let after = try Self.rows(store, "SELECT c.Z_ENT, c.ZNUMBERPLATE, m.ZNAME, c.ZMODEL FROM ZCAR c LEFT JOIN ZMAKER m ON m.Z_PK = c.ZCREATEDBY ORDER BY c.ZNUMBERPLATE")
            #expect(after == before)
            let makers = try Self.rows(store, "SELECT ZNAME FROM ZMAKER ORDER BY 1")
            let distinct = Set(before.compactMap { String.fromDatabaseValue($0[2]) })
            #expect(makers.count == distinct.count)
            #expect(try Self.rows(store, "SELECT c.ZNUMBERPLATE, p.ZFIRSTNAME FROM ZCAR c LEFT JOIN ZPERSON p ON p.Z_PK = c.ZOWNER ORDER BY 1") == owners)
            #expect(try Self.rows(store, "SELECT ZFIRSTNAME, ZLASTNAME FROM ZPERSON ORDER BY 1, 2") == persons)
            let backup = try #require(result.backupPath)
            #expect(try Self.rows(backup, "SELECT Z_ENT, ZNUMBERPLATE, ZMAKER, ZMODEL FROM ZCAR ORDER BY ZNUMBERPLATE") == before)
            let check = StoreCheck.run(storeAt: store, bundle: ModelBundle(name: "x", path: "", isVersioned: true, currentVersionName: version.name, versions: [version]))
            #expect(check.error == nil, "\(check.error?.description ?? "")")
        }
    }

    @Test func wiboscoPostsGetTheirColorEntities() throws {
        let root = "\(CorpusStores.wibosco)/CoreDataMigration-Example"
        let bundle = try Support.bundle(Corpus.path("\(root)/CoreData/Model/CoreDataMigration_Example.xcdatamodeld"))
        let mapping = try Self.read("\(root)/CoreData/Migration/Mappings/Migration2to3.xcmappingmodel")
        var registry = PolicyRegistry()
        registry.register(className: "Post2ToPost3MigrationPolicy") { PostColorPolicy() }
        try withTemporaryDirectory { folder in
            let store = try Support.copy(Corpus.path("\(CorpusStores.wibosco)/CoreDataMigration-ExampleTests/Resources/SQLite/CoreDataMigration_Example_2.sqlite"), into: folder)
            let before = try Self.rows(store, "SELECT ZPOSTID, ZHEXCOLOR FROM ZPOST ORDER BY 1")
            let result = try MigrationManager(bundle: bundle, mappingModel: mapping, registry: registry).migrate(storeAt: store)
            #expect(result.destination == "CoreDataMigration_Example 3")
            let version = try #require(bundle.version(named: result.destination))
            #expect(try StoreMetadata.read(at: store).versionHashes == VersionHasher(version).entityHashes())
            #expect(try Self.rows(store, "SELECT p.ZPOSTID, c.ZHEX FROM ZPOST p JOIN ZCOLOR c ON c.Z_PK = p.ZCOLOR ORDER BY 1") == before)
            #expect(try Self.rows(store, "SELECT COUNT(DISTINCT ZCOLORID) FROM ZCOLOR") == [[before.count.databaseValue]])
        }
    }

    @Test func hwaxxerBooksGetSharedAuthors() throws {
        let root = "hwaxxer__BookMigration/BookMigration"
        let bundle = try Support.bundle(Corpus.path("\(root)/Model.xcdatamodeld"))
        let mapping = try Self.read("\(root)/Model1_to_Model2.xcmappingmodel")
        var registry = PolicyRegistry()
        registry.register(className: "MHWBookToBookPolicy") { BookAuthorPolicy() }
        try withTemporaryDirectory { folder in
            let store = try Support.copy(Corpus.path("\(root)/Model1.sqlite"), into: folder)
            let before = try Self.rows(store, "SELECT b.ZTITLE, b.ZAUTHORNAME, u.ZUSERID FROM ZBOOK b LEFT JOIN ZUSER u ON u.Z_PK = b.ZUSER ORDER BY 1")
            let result = try MigrationManager(bundle: bundle, mappingModel: mapping, registry: registry).migrate(storeAt: store)
            let version = try #require(bundle.version(named: "Model2"))
            #expect(result.destination == "Model2")
            #expect(try StoreMetadata.read(at: store).versionHashes == VersionHasher(version).entityHashes())
            let layout = StoreLayout(version)
            let join = try #require(layout.joinTables.first { Set([$0.relationship, $0.inverseRelationship]) == ["authors", "books"] })
            let bookColumn = join.entity == "Book" ? join.sourceColumn : join.destinationColumn
            let authorColumn = join.entity == "Book" ? join.destinationColumn : join.sourceColumn
            let authors = try Self.rows(
                store, "SELECT b.ZTITLE, a.ZNAME FROM ZBOOK b JOIN \(join.table.name) j ON j.\(bookColumn) = b.Z_PK JOIN ZAUTHOR a ON a.Z_PK = j.\(authorColumn) ORDER BY 1")
            #expect(authors == before.map { [$0[0], $0[1]] })
            #expect(try Self.rows(store, "SELECT COUNT(*) FROM ZAUTHOR") == [[Set(before.map { $0[1] }).count.databaseValue]])
            #expect(try Self.rows(store, "SELECT COUNT(*) FROM ZUSER") == Self.rows(try #require(result.backupPath), "SELECT COUNT(*) FROM ZUSER"))
        }
    }

    @Test func loopKitCarbsKeepTheirSyncIdentity() throws {
        let root = "LoopKit__LoopKit"
        let bundle = try Support.bundle(Corpus.path("\(root)/LoopKit/Persistence/Model.xcdatamodeld"))
        let mapping = try Self.read("\(root)/LoopKit/Persistence/Modelv1v4.xcmappingmodel")
        var registry = PolicyRegistry()
        registry.register(className: "CachedCarbObjectv3EntityMigrationPolicy") { CachedCarbPolicy() }
        registry.register(className: "DeletedCarbObjectv3EntityMigrationPolicy") { DeletedCarbPolicy() }
        var options = MigrationManager.Options()
        options.userInfo = ["provenanceIdentifier": "com.loopkit.Loop"]
        try withTemporaryDirectory { folder in
            let store = try Support.copy(Corpus.path("\(root)/LoopKitHostedTests/TestCoreData/Model.sqlite.v1.original"), into: folder)
            let carbs = try Self.rows(store, "SELECT ZUUID, ZSYNCIDENTIFIER, ZSYNCVERSION, ZGRAMS, ZSTARTDATE, ZABSORPTIONTIME FROM ZCACHEDCARBOBJECT")
            let events = try Self.rows(store, "SELECT COUNT(*) FROM ZPUMPEVENT")
            let result = try MigrationManager(bundle: bundle, mappingModel: mapping, registry: registry).migrate(storeAt: store, options: options)
            #expect(result.destination == "Modelv4")
            let version = try #require(bundle.version(named: "Modelv4"))
            #expect(try StoreMetadata.read(at: store).versionHashes == VersionHasher(version).entityHashes())
            #expect(try Self.rows(store, "SELECT ZUUID, ZSYNCIDENTIFIER, ZSYNCVERSION, ZGRAMS, ZSTARTDATE, ZABSORPTIONTIME FROM ZCACHEDCARBOBJECT") == carbs)
            #expect(try Self.rows(store, "SELECT ZPROVENANCEIDENTIFIER, ZOPERATION FROM ZCACHEDCARBOBJECT") == [["com.loopkit.Loop".databaseValue, 0.databaseValue]])
            #expect(try Self.rows(store, "SELECT COUNT(*) FROM ZPUMPEVENT") == events)
        }
    }

    /// Every corpus store at a mapping model's source version (by hashes) whose mapping needs no
    /// policy migrates through it: destination hashes, and as many instances per mapped entity as
    /// the source had.
    @Test func everyPolicyFreeCorpusMappingRunsOnItsStores() throws {
        var migrated = [String]()
        let mappings = CorpusMappings.all.compactMap { path in MappingCompilation.read(at: Corpus.path(path)).model.map { (path, $0) } }
        for known in CorpusStores.known + CorpusStores.translationCatalogStores + [CorpusStores.recipes] {
            guard var bundle = try? Support.bundle(Corpus.path(known.model)), let version = bundle.version(named: known.version) else { continue }
            if known.model.contains("TranslationCatalog") { bundle = try Self.translationCatalog() }
            let hashes = VersionHasher(version).entityHashes()
            for (path, mapping) in mappings {
                guard MappingModel.recorded(mapping.sourceEntityHashes, areIn: hashes),
                    mapping.entityMappings.allSatisfy({ ($0.policyClassName ?? "").isEmpty })
                else { continue }
                try withTemporaryDirectory { folder in
                    let store = try Support.copy(Corpus.path(known.store), into: folder)
                    let result = try MigrationManager(bundle: bundle, mappingModel: mapping).migrate(storeAt: store)
                    #expect(result.outcome == .migrated, "\(path) on \(known.store)")
                    let destination = try #require(bundle.version(named: result.destination))
                    #expect(try StoreMetadata.read(at: store).versionHashes == VersionHasher(destination).entityHashes())
                    let backup = try #require(result.backupPath)
                    let layout = StoreLayout(version, framework: try StoreMetadata.read(at: backup).framework)
                    for (report, entityMapping) in zip(result.entityMappings, mapping.entityMappings)
                    where entityMapping.type != .add && entityMapping.sourceExpression?.predicate == SourceExpression.noFilter {
                        let name = try #require(report.sourceEntity)
                        let entity = try #require(layout.entity(named: name))
                        let count = try Self.rows(backup, "SELECT COUNT(*) FROM \(entity.table) WHERE Z_ENT = \(entity.number)")
                        #expect([[report.instancesCreated.databaseValue]] == count, "\(report.name) of \(path)")
                    }
                    migrated.append("\(mapping.name) on \((known.store as NSString).lastPathComponent)")
                }
            }
        }
        let expected = [
            "Migration1to2 on CoreDataMigration_Example_1.sqlite", "TestMigrationStore_1_2 on TestMigrationStore_version_1.sqlite",
            "Model_1_to_2 on test_multi_language_core_data.sqlite", "Model_2_to_3 on test_multi_language_core_data_v2.sqlite",
            "MappingModel on Recipes.sqlite",
        ]
        #expect(Set(expected).isSubset(of: migrated), "\(migrated)")
        print("migrated through mapping models: \(migrated)")
    }

    /// TranslationCatalog's three single-version bundles as one, each version named after its
    /// bundle: its mapping models lead from one bundle's version to the next one's.
    static func translationCatalog() throws -> ModelBundle {
        var versions = [ModelVersion]()
        for known in CorpusStores.translationCatalogStores {
            var version = try #require(try Support.bundle(Corpus.path(known.model)).versions.first)
            version.name = ((known.model as NSString).lastPathComponent as NSString).deletingPathExtension
            versions.append(version)
        }
        return ModelBundle(name: "CatalogModel", path: "", isVersioned: true, currentVersionName: versions.last?.name, versions: versions)
    }

    /// Rows of a query on a store, as arrays of database values.
    static func rows(_ path: String, _ sql: String) throws -> [[DatabaseValue]] {
        try DatabaseQueue(path: path, configuration: RetainedData.readOnly).read { db in
            try Row.fetchAll(db, sql: sql).map { Array($0.databaseValues) }
        }
    }
}
