import Foundation
import GRDB
import ModelMigration
import ModelSchema
import ModelStack
import ModelStore
import Testing
import _ModelTestSupport

/// The container migrates through a mapping model found in its description's locations, with
/// the policies registered on it, as Core Data prefers a mapping model it finds over inference.
struct MappingModelLoadingTests {
    typealias Support = StackTestSupport

    static let root = Corpus.path("\(CorpusStores.wibosco)/CoreDataMigration-Example")
    static let store = Corpus.path("\(CorpusStores.wibosco)/CoreDataMigration-ExampleTests/Resources/SQLite/CoreDataMigration_Example_2.sqlite")

    /// wibosco's `Post2ToPost3MigrationPolicy`: each post gets a `Color` holding its old `hexColor`.
    struct PostColorPolicy: EntityMigrationPolicy {
        func createDestinationInstances(forSource source: MigrationObject, in mapping: EntityMapping, manager: MigrationContext) throws {
            try manager.createDefaultDestinationInstances(forSource: source, in: mapping)
            guard let post = try manager.destinationInstances(forEntityMappingName: mapping.name, sourceInstances: [source]).first else { return }
            let color = try manager.insertDestinationInstance(
                entity: "Color", values: ["colorID": .string(UUID().uuidString), "hex": try source.value(forKey: "hexColor")])
            try post.setObjects([color], forKey: "color")
        }
    }

    /// wibosco's bundle with `CoreDataMigration_Example 3` current, the destination of its
    /// `Migration2to3` mapping model.
    static func bundle(in folder: URL) throws -> URL {
        let bundle = folder.appendingPathComponent("Model.xcdatamodeld")
        try FileManager.default.copyItem(atPath: "\(root)/CoreData/Model/CoreDataMigration_Example.xcdatamodeld", toPath: bundle.path)
        try ModelFiles.xccurrentversion("CoreDataMigration_Example 3").write(
            to: bundle.appendingPathComponent(".xccurrentversion"), atomically: true, encoding: .utf8)
        return bundle
    }

    static func container(_ folder: URL, inference: Bool, locations: [URL]) throws -> (PersistentContainer, String) {
        let store = try copyStore(Self.store, into: folder)
        let container = try PersistentContainer(name: "Posts", model: try bundle(in: folder))
        var description = StoreDescription(url: URL(fileURLWithPath: store))
        description.shouldInferMappingModelAutomatically = inference
        description.mappingModelLocations = locations
        container.persistentStoreDescriptions = [description]
        var policies = PolicyRegistry()
        policies.register(className: "Post2ToPost3MigrationPolicy") { PostColorPolicy() }
        container.migrationPolicies = policies
        return (container, store)
    }

    @Test(Corpus.required)
    func aMappingModelInTheLocationsIsUsedWithTheRegisteredPolicy() async throws {
        let folder = try Support.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (container, _) = try Self.container(
            folder, inference: false, locations: [URL(fileURLWithPath: "\(Self.root)/CoreData/Migration/Mappings")])
        let reports = try await container.loadPersistentStores()
        #expect(reports[0].migratedFrom == "CoreDataMigration_Example 2")
        #expect(reports[0].mappingModel?.hasSuffix("Migration2to3.xcmappingmodel") == true)
        let database = try #require(container.database)
        let (posts, colors) = try await database.read { db in
            (try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM ZPOST") ?? 0,
             try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM ZPOST p JOIN ZCOLOR c ON c.Z_PK = p.ZCOLOR") ?? -1)
        }
        #expect(posts > 0 && colors == posts)
    }

    /// `backsUpBeforeMigration` applies to a migration through a mapping model as to an inferred one.
    @Test(Corpus.required, arguments: [true, false])
    func theDescriptionSaysWhetherAMappedMigrationKeepsABackup(_ backsUp: Bool) async throws {
        let folder = try Support.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (container, _) = try Self.container(
            folder, inference: false, locations: [URL(fileURLWithPath: "\(Self.root)/CoreData/Migration/Mappings")])
        container.persistentStoreDescriptions[0].backsUpBeforeMigration = backsUp
        let reports = try await container.loadPersistentStores()
        #expect(reports[0].mappingModel != nil)
        #expect((reports[0].backupPath != nil) == backsUp)
        let backups = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.contains(".pre-") }
        #expect(backups.count == (backsUp ? 1 : 0), "\(backups)")
    }

    @Test(Corpus.required)
    func withInferenceOffAndNoFittingMappingModelTheStoreIsUntouched134140() async throws {
        let folder = try Support.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        // Migration1to2 is for another pair of versions: it does not fit.
        let (container, store) = try Self.container(
            folder, inference: false,
            locations: [URL(fileURLWithPath: "\(Self.root)/CoreData/Migration/Mappings/Migration1to2.xcmappingmodel")])
        let before = try Data(contentsOf: URL(fileURLWithPath: store))
        let error = await #expect(throws: PersistentStoreLoadError.self) { try await container.loadPersistentStores() }
        #expect(error?.kind == .missingMappingModel && error?.code == 134140)
        #expect(try Data(contentsOf: URL(fileURLWithPath: store)) == before)
    }
}
