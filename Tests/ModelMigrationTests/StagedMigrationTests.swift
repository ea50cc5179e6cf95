import Foundation
import GRDB
import ModelMigration
import ModelSchema
import ModelStore
import Testing
import _ModelTestSupport

/// Staged migrations through mapping models (``StagedMigrator``) on wibosco's stores, as its app
/// migrates them: v1 → v2 through `Migration1to2` (a custom value expression), v2 → v3 through
/// `Migration2to3` with a Swift port of `Post2ToPost3MigrationPolicy`, v3 → v4 inferred. The
/// expected hashes are those Core Data wrote in the corpus's v4 store (`_WAL.sqlite`); the
/// expected rows are the v1 and v2 stores' own.
@Suite(Corpus.required, .serialized)
struct StagedMigrationTests {
    typealias Support = MigrationTestSupport

    static let root = "\(CorpusStores.wibosco)/CoreDataMigration-Example"
    static let model = "\(root)/CoreData/Model/CoreDataMigration_Example.xcdatamodeld"
    static let mappings = "\(root)/CoreData/Migration/Mappings"
    static let stores = "\(CorpusStores.wibosco)/CoreDataMigration-ExampleTests/Resources/SQLite"
    static let v2 = "CoreDataMigration_Example 2", v3 = "CoreDataMigration_Example 3", v4 = "CoreDataMigration_Example 4"

    /// The plan an app would write: through v2 and v3 to v4, each stage through the mapping
    /// model made for it, else inferred, with the policy registered.
    static func plan(withPolicy: Bool = true, hooks: HookLog? = nil) throws -> StagedMigrationPlan {
        let models = try ["Migration1to2", "Migration2to3"].map { try ManagerCorpusTests.read("\(mappings)/\($0).xcmappingmodel") }
        var policies = PolicyRegistry()
        if withPolicy { policies.register(className: "Post2ToPost3MigrationPolicy") { ManagerCorpusTests.PostColorPolicy() } }
        var plan = StagedMigrationPlan.chain(through: [v2, v3], to: v4, mappingModels: models, policies: policies)
        if let hooks {
            for index in plan.stages.indices {
                plan.stages[index].willMigrate = { hooks.append("will \($0.source) → \($0.destination) \(Self.hashesMatch($0))") }
                plan.stages[index].didMigrate = { hooks.append("did \($0.source) → \($0.destination) \(Self.hashesMatch($0))") }
            }
        }
        return plan
    }

    /// Which stage version the hook's store has: "at source", "at destination" or "elsewhere".
    static func hashesMatch(_ store: StageStore) -> String {
        guard let bundle = try? Support.bundle(Corpus.path(model)), let hashes = try? StoreMetadata.read(at: store.path).versionHashes else {
            return "unreadable"
        }
        for (label, name) in [("at source", store.source), ("at destination", store.destination)] {
            if let version = bundle.version(named: name), VersionHasher(version).entityHashes() == hashes { return label }
        }
        return "elsewhere"
    }

    /// The hashes Core Data wrote in the corpus's v4 store.
    static func coreDataV4Hashes(in folder: URL) throws -> [String: VersionHash] {
        let store = try Support.copy(Corpus.path("\(stores)/CoreDataMigration_Example_WAL.sqlite"), into: folder, as: "Reference.sqlite")
        return try StoreMetadata.read(at: store).versionHashes
    }

    /// Every post of a store at v1 or v2, as (postID, date, colour): v1 keeps the colour in
    /// `color`, v2 in `hexColor`.
    static func posts(_ store: String, colorColumn: String) throws -> [[DatabaseValue]] {
        try ManagerCorpusTests.rows(store, "SELECT ZPOSTID, ZDATE, \(colorColumn) FROM ZPOST ORDER BY Z_PK")
    }

    /// Every post of a migrated v4 store, as (postID, date, its colour's hex), and the facts v4
    /// adds: each post has its own colour, and `hide` is its default, NO.
    static func migratedPosts(_ store: String) throws -> [[DatabaseValue]] {
        #expect(try ManagerCorpusTests.rows(store, "SELECT COUNT(*) FROM ZPOST WHERE ZHIDE IS NOT 0") == [[0.databaseValue]])
        #expect(
            try ManagerCorpusTests.rows(store, "SELECT COUNT(DISTINCT ZCOLOR), COUNT(*) FROM ZPOST")
                == ManagerCorpusTests.rows(store, "SELECT COUNT(*), COUNT(*) FROM ZCOLOR"))
        return try ManagerCorpusTests.rows(store, "SELECT p.ZPOSTID, p.ZDATE, c.ZHEX FROM ZPOST p LEFT JOIN ZCOLOR c ON c.Z_PK = p.ZCOLOR ORDER BY p.Z_PK")
    }

    // MARK: - Tests

    /// The v1 and v2 stores reach v4 in one staged run: Core Data's v4 hashes, every post with
    /// its ID, date and colour, the hooks called before and after each stage on the store at
    /// that stage's versions, one backup holding the original.
    @Test(arguments: [("CoreDataMigration_Example_1.sqlite", "ZCOLOR"), ("CoreDataMigration_Example_2.sqlite", "ZHEXCOLOR")])
    func wiboscoStoresReachTheCurrentVersionInOneStagedRun(_ name: String, colorColumn: String) throws {
        try withTemporaryDirectory { folder in
            let bundle = try Support.bundle(Corpus.path(Self.model))
            let store = try Support.copy(Corpus.path("\(Self.stores)/\(name)"), into: folder)
            let before = try Self.posts(store, colorColumn: colorColumn)
            let original = try Data(contentsOf: URL(fileURLWithPath: store))
            let hooks = HookLog()
            let result = try StagedMigrator.migrate(storeAt: store, bundle: bundle, plan: try Self.plan(hooks: hooks))
            #expect(result.outcome == .migrated)
            #expect(result.destination == Self.v4)
            #expect(try StoreMetadata.read(at: store).versionHashes == Self.coreDataV4Hashes(in: folder))
            #expect(try Self.migratedPosts(store) == before)
            let isV1 = colorColumn == "ZCOLOR"
            let expectedUses: [StepMapping] =
                (isV1 ? [.mappingModel(path: Corpus.path("\(Self.mappings)/Migration1to2.xcmappingmodel"))] : [])
                + [.mappingModel(path: Corpus.path("\(Self.mappings)/Migration2to3.xcmappingmodel")), .inferred]
            #expect(result.stages.map(\.uses) == expectedUses)
            let names = (isV1 ? ["CoreDataMigration_Example"] : []) + [Self.v2, Self.v3, Self.v4]
            let expectedHooks = zip(names, names.dropFirst()).flatMap { from, to in
                ["will \(from) → \(to) at source", "did \(from) → \(to) at destination"]
            }
            #expect(hooks.entries == expectedHooks)
            let backup = try #require(result.backupPath)
            #expect(try Data(contentsOf: URL(fileURLWithPath: backup)) == original, "the backup is the original store")
            #expect(try Self.leftovers(beside: store) == [URL(fileURLWithPath: backup).lastPathComponent])
        }
    }

    /// The dry run reports each stage's mapping model or inference and its data-loss forecast,
    /// and leaves the store's folder as it was.
    @Test func dryRunShowsEachStage() throws {
        try withTemporaryDirectory { folder in
            let bundle = try Support.bundle(Corpus.path(Self.model))
            let store = try Support.copy(Corpus.path("\(Self.stores)/CoreDataMigration_Example_1.sqlite"), into: folder)
            let before = try Self.folder(of: store)
            var options = StagedMigrator.Options()
            options.dryRun = true
            let result = try StagedMigrator.migrate(storeAt: store, bundle: bundle, plan: try Self.plan(), options: options)
            #expect(result.outcome == .planned)
            #expect(result.stages.map(\.destination) == [Self.v2, Self.v3, Self.v4])
            #expect(result.stages.map(\.risk) == [.safe, .safe, .safe])
            #expect(result.stages[0].entityMappings.map(\.instancesCreated) == [try Support.entityRowCount(store)])
            #expect(result.stages[2].step?.dropped.allSatisfy { $0.count == 0 } == true)
            #expect(try Self.folder(of: store) == before)
        }
    }

    /// Stages named one by one (custom through each mapping model, then lightweight) do what
    /// the matching chain does; a chain whose second stage is impossible (v2 → v4 inferred: v4's
    /// required `color`) ends `impossible` with the store as it was, no backup, nothing beside it.
    @Test func explicitStagesRunAndAnImpossibleStageLeavesTheStore() throws {
        try withTemporaryDirectory { folder in
            let bundle = try Support.bundle(Corpus.path(Self.model))
            let models = try ["Migration1to2", "Migration2to3"].map { try ManagerCorpusTests.read("\(Self.mappings)/\($0).xcmappingmodel") }
            var policies = PolicyRegistry()
            policies.register(className: "Post2ToPost3MigrationPolicy") { ManagerCorpusTests.PostColorPolicy() }
            let store = try Support.copy(Corpus.path("\(Self.stores)/CoreDataMigration_Example_1.sqlite"), into: folder)
            let before = try Self.folder(of: store)

            let impossible = StagedMigrationPlan(stages: [MigrationStage(to: Self.v2, .custom(models[0])), MigrationStage(to: Self.v4)], policies: policies)
            let stopped = try StagedMigrator.migrate(storeAt: store, bundle: bundle, plan: impossible)
            #expect(stopped.outcome == .impossible)
            #expect(stopped.stages.map(\.risk) == [.safe, .impossible])
            #expect(try Self.folder(of: store) == before, "the store as it was, nothing beside it")

            let posts = try Self.posts(store, colorColumn: "ZCOLOR")
            let explicit = StagedMigrationPlan(
                stages: [MigrationStage(to: Self.v2, .custom(models[0])), MigrationStage(to: Self.v3, .custom(models[1])), MigrationStage(to: Self.v4, .lightweight)],
                policies: policies)
            let result = try StagedMigrator.migrate(storeAt: store, bundle: bundle, plan: explicit)
            #expect(result.outcome == .migrated)
            #expect(try StoreMetadata.read(at: store).versionHashes == Self.coreDataV4Hashes(in: folder))
            #expect(try Self.migratedPosts(store) == posts)
        }
    }

    /// A stage whose mapping model names a policy nobody registered stops the run before
    /// anything is touched, naming the class.
    @Test func aMissingPolicyStopsBeforeAnything() throws {
        try withTemporaryDirectory { folder in
            let bundle = try Support.bundle(Corpus.path(Self.model))
            let store = try Support.copy(Corpus.path("\(Self.stores)/CoreDataMigration_Example_1.sqlite"), into: folder)
            let before = try Self.folder(of: store)
            #expect {
                try StagedMigrator.migrate(storeAt: store, bundle: bundle, plan: try Self.plan(withPolicy: false))
            } throws: { error in
                (error as? MigrationError)?.errorClass == .missingPolicy && "\(error)".contains("Post2ToPost3MigrationPolicy")
            }
            #expect(try Self.folder(of: store) == before)
        }
    }

    // MARK: - Files

    /// The names of the files beside the store, the store itself excluded.
    static func leftovers(beside store: String) throws -> [String] {
        let url = URL(fileURLWithPath: store)
        return try FileManager.default.contentsOfDirectory(atPath: url.deletingLastPathComponent().path)
            .filter { $0 != url.lastPathComponent && $0.hasPrefix(url.deletingPathExtension().lastPathComponent) }.sorted()
    }

    /// Every file in the store's folder with its bytes.
    static func folder(of store: String) throws -> [String: Data] {
        let folder = URL(fileURLWithPath: store).deletingLastPathComponent()
        var result = [String: Data]()
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) {
            result[name] = FileManager.default.contents(atPath: folder.appendingPathComponent(name).path) ?? Data()
        }
        return result
    }
}

/// The hooks' calls, in order.
final class HookLog: @unchecked Sendable {
    private let lock = NSLock()
    private var list = [String]()

    func append(_ entry: String) { lock.withLock { list.append(entry) } }
    var entries: [String] { lock.withLock { list } }
}
