import Foundation
import GRDB
import ModelStack
import ModelStore
import Testing
import _ModelTestSupport

/// Stores loaded for a configuration of their model (`StoreDescription.configuration`), on
/// CoreStore's test model, whose configurations Config1 and Config2 hold one entity each: each
/// store gets only its configuration's tables and `Z_PRIMARYKEY` rows (entity numbers stay the
/// model's), and only its configuration's hashes decide whether it opens as it is.
@Suite(Corpus.required)
struct ConfigurationLoadingTests {
    static let model = "JohnEstropia__CoreStore/CoreStoreTests/Model.xcdatamodeld"

    /// A container loading `Config1.sqlite` and `Config2.sqlite` in `folder` for `model`.
    static func container(_ model: URL, in folder: URL) throws -> PersistentContainer {
        let container = try PersistentContainer(name: "Test", model: model)
        container.persistentStoreDescriptions = ["Config1", "Config2"].map { name in
            var description = StoreDescription(url: folder.appendingPathComponent("\(name).sqlite"))
            description.configuration = name
            return description
        }
        return container
    }

    /// The first column of the rows of `sql` in the file at `url`, as text.
    static func rows(_ url: URL, _ sql: String) throws -> [String] {
        try DatabaseQueue(path: url.path).read { db in try String.fetchAll(db, sql: sql) }
    }

    @Test func eachStoreGetsOnlyItsConfigurationsTablesAndKeepsTheModelsEntityNumbers() async throws {
        let folder = try StackTestSupport.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let model = URL(fileURLWithPath: Corpus.path(Self.model))
        let reports = try await Self.container(model, in: folder).loadPersistentStores()
        #expect(reports.map(\.wasCreated) == [true, true])
        let tables = "SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'Z%' AND name NOT LIKE 'Z\\_%' ESCAPE '\\' ORDER BY name"
        #expect(try Self.rows(folder.appendingPathComponent("Config1.sqlite"), tables) == ["ZTESTENTITY1AAA"])
        #expect(try Self.rows(folder.appendingPathComponent("Config2.sqlite"), tables) == ["ZTESTENTITY2"])
        // Roots in name order: TestEntity1AAA is 1 and TestEntity2 is 2 in every store of the model.
        #expect(try Self.rows(folder.appendingPathComponent("Config2.sqlite"), "SELECT Z_ENT FROM Z_PRIMARYKEY") == ["2"])
        // Loaded again, both open as they are.
        let again = try await Self.container(model, in: folder).loadPersistentStores()
        #expect(again.map(\.wasCreated) == [false, false])
        #expect(again.map(\.migratedFrom) == [nil, nil])
    }

    @Test func aChangeToAnotherConfigurationsEntityDoesNotStopAStoreFromOpening() async throws {
        let folder = try StackTestSupport.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        // Kept open, as an app's would be, while the stores are checked.
        let original = try Self.container(URL(fileURLWithPath: Corpus.path(Self.model)), in: folder)
        try await original.loadPersistentStores()
        // The same model with a new attribute on Config1's entity only.
        let source = try String(contentsOfFile: Corpus.path(Self.model) + "/Model.xcdatamodel/contents", encoding: .utf8)
        let entity = "<entity name=\"TestEntity1AAA\" representedClassName=\".TestEntity1\" syncable=\"YES\">"
        let changed = source.replacingOccurrences(of: entity, with: entity + "<attribute name=\"added\" optional=\"YES\" attributeType=\"String\"/>")
        #expect(changed != source)
        let version = folder.appendingPathComponent("Changed.xcdatamodeld/Model.xcdatamodel")
        try FileManager.default.createDirectory(at: version, withIntermediateDirectories: true)
        try Data(changed.utf8).write(to: version.appendingPathComponent("contents"))
        let bundle = try PersistentContainer(name: "Changed", model: folder.appendingPathComponent("Changed.xcdatamodeld")).model
        // Config2's entity kept its hash: its store opens with the changed model; Config1's does not.
        #expect(StoreCheck.run(storeAt: folder.appendingPathComponent("Config2.sqlite").path, bundle: bundle, configuration: "Config2").error == nil)
        #expect(StoreCheck.run(storeAt: folder.appendingPathComponent("Config1.sqlite").path, bundle: bundle, configuration: "Config1").error?.errorClass == .incompatibleVersionHash)
        #expect(original.loadedStores.count == 2)
    }

    @Test func aConfigurationTheModelLacksFailsBeforeAnyFileIsMade() async throws {
        let folder = try StackTestSupport.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let container = try PersistentContainer(name: "Test", model: URL(fileURLWithPath: Corpus.path(Self.model)))
        var description = StoreDescription(url: folder.appendingPathComponent("Nothing.sqlite"))
        description.configuration = "Nothing"
        container.persistentStoreDescriptions = [description]
        await #expect(throws: PersistentStoreLoadError.self) { try await container.loadPersistentStores() }
        do {
            try await container.loadPersistentStores()
        } catch let error as PersistentStoreLoadError {
            #expect(error.kind == .incompatibleSchema)
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
    }
}
