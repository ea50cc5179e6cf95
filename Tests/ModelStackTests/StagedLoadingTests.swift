import Foundation
import GRDB
import ModelCompiler
import ModelMigration
import ModelStack
import ModelStore
import Testing
import _ModelTestSupport

/// A container with a staged migration plan loads wibosco's v1 store as its app would: the
/// plan's stages (v2 through `Migration1to2`, v3 through `Migration2to3` with the policy), then a
/// last inferred stage to the current v4, in one atomic chain, the hooks called around each.
@Suite(Corpus.required)
struct StagedLoadingTests {
    typealias Support = StackTestSupport

    static let root = Corpus.path("\(CorpusStores.wibosco)/CoreDataMigration-Example")
    static let stores = Corpus.path("\(CorpusStores.wibosco)/CoreDataMigration-ExampleTests/Resources/SQLite")

    @Test func theContainerRunsThePlanThenTheLastStage() async throws {
        let folder = try Support.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try copyStore("\(Self.stores)/CoreDataMigration_Example_1.sqlite", into: folder)
        let reference = try copyStore("\(Self.stores)/CoreDataMigration_Example_WAL.sqlite", into: folder, as: "Reference.sqlite")
        let posts = try Self.rows(store, "SELECT ZPOSTID, ZDATE, ZCOLOR FROM ZPOST ORDER BY Z_PK")

        let models = MappingModelFinder.readAll(in: ["\(Self.root)/CoreData/Migration/Mappings"]).models
        var policies = PolicyRegistry()
        policies.register(className: "Post2ToPost3MigrationPolicy") { MappingModelLoadingTests.PostColorPolicy() }
        var plan = StagedMigrationPlan.chain(through: ["CoreDataMigration_Example 2"], to: "CoreDataMigration_Example 3", mappingModels: models, policies: policies)
        let log = Log()
        for index in plan.stages.indices {
            plan.stages[index].willMigrate = { log.append("will \($0.destination)") }
            plan.stages[index].didMigrate = { log.append("did \($0.destination)") }
        }
        let container = try PersistentContainer(name: "Posts", model: URL(fileURLWithPath: "\(Self.root)/CoreData/Model/CoreDataMigration_Example.xcdatamodeld"))
        container.persistentStoreDescriptions = [StoreDescription(url: URL(fileURLWithPath: store))]
        container.stagedMigrationPlan = plan
        let reports = try await container.loadPersistentStores()
        #expect(reports[0].migratedFrom == "CoreDataMigration_Example")
        #expect(reports[0].backupPath != nil)
        try container.loadedStores.forEach { try $0.database.close() }
        #expect(try StoreMetadata.read(at: store).versionHashes == StoreMetadata.read(at: reference).versionHashes, "Core Data's v4 hashes")
        #expect(try Self.rows(store, "SELECT p.ZPOSTID, p.ZDATE, c.ZHEX FROM ZPOST p JOIN ZCOLOR c ON c.Z_PK = p.ZCOLOR ORDER BY p.Z_PK") == posts)
        #expect(log.entries == ["will CoreDataMigration_Example 2", "did CoreDataMigration_Example 2", "will CoreDataMigration_Example 3", "did CoreDataMigration_Example 3"])
    }

    static func rows(_ path: String, _ sql: String) throws -> [[DatabaseValue]] {
        try DatabaseQueue(path: path).read { db in try Row.fetchAll(db, sql: sql).map { Array($0.databaseValues) } }
    }

    /// The hooks' calls, in order.
    final class Log: @unchecked Sendable {
        private let lock = NSLock()
        private var list = [String]()

        func append(_ entry: String) { lock.withLock { list.append(entry) } }
        var entries: [String] { lock.withLock { list } }
    }
}
