import Foundation
import GRDB
import Testing
import _ModelTestSupport

/// A store whose table lacks a column of the version its hashes name: every command says
/// `incompatibleSchema` (134020) with the table and column, never SQLite's "no such column".
///
/// The real case is an app's "corrupt database" test fixture (a committed store whose table
/// misses a column of the model version that made it); it is not in the corpus, so the tests
/// make that state from real stores Core Data wrote: larromba/EasyLife's `EasyLife 1.5.0.sqlite`
/// (made by the current version, `EasyLife 1.5.0`) and wibosco/CoreDataMigration-Example's
/// `CoreDataMigration_Example_3.sqlite` (made by version 3 of 4), each with a column dropped.
/// Core Data itself does not read the tables when a store's hashes match: the fetch then fails
/// with NSCocoaErrorDomain 256 carrying NSSQLiteErrorDomain 1 ("no such column"), which the
/// object layer's fetch keeps; modelc names the cause before any fetch.
@Suite(Corpus.required)
struct MissingColumnStoreTests {
    static let easyLifeStore = "larromba__EasyLife/EasyLifeTests/EasyLife 1.5.0.sqlite"
    static let easyLifeModel = "larromba__EasyLife/EasyLife/EasyLife.xcdatamodeld"
    static let exampleStore = "wibosco__CoreDataMigration-Example/CoreDataMigration-ExampleTests/Resources/SQLite/CoreDataMigration_Example_3.sqlite"
    static let exampleModel = "wibosco__CoreDataMigration-Example/CoreDataMigration-Example/CoreData/Model/CoreDataMigration_Example.xcdatamodeld"

    /// A copy of `store` in `folder` without `column` of `table`.
    func copy(_ store: String, dropping column: String, of table: String, into folder: URL) throws -> String {
        let path = try copyStore(Corpus.path(store), into: folder, as: "store.sqlite")
        let queue = try DatabaseQueue(path: path)
        try queue.write { try $0.execute(sql: "ALTER TABLE \(table) DROP COLUMN \(column)") }
        try queue.close()
        return path
    }

    func expectIncompatibleSchema(_ run: Modelc.Run, _ column: String, _ what: String) throws {
        #expect(run.status != 0, "\(what): \(run.standardError)")
        let error = try run.json()["error"] as? [String: Any] ?? run.json()
        #expect(error["class"] as? String == "incompatibleSchema", "\(what): \(error)")
        #expect("\(error["code"] ?? "")" == "134020", "\(what)")
        #expect((error["message"] as? String)?.contains("missing column \(column)") == true, "\(what): \(error)")
        #expect(!run.standardOutput.contains("SELECT") && !run.standardOutput.contains("no such column"), "\(what)")
    }

    @Test func everyCommandNamesTheMissingColumnOfAStoreOfTheCurrentVersion() throws {
        try withTemporaryDirectory { folder in
            let store = try copy(Self.easyLifeStore, dropping: "ZNOTES", of: "ZTODOITEM", into: folder)
            let model = Corpus.path(Self.easyLifeModel)
            let objects = try writeFile("objects.json", #"{"objects":[]}"#, in: folder).path
            for (what, command) in [
                ("store check", ["store", "check", store, "--model", model, "--json"]),
                ("store open", ["store", "open", store, "--model", model, "--json"]),
                ("fetch", ["fetch", store, "--model", model, "--entity", "TodoItem", "--json"]),
                ("fetch with the store's model", ["fetch", store, "--entity", "TodoItem", "--json"]),
                ("history", ["history", store, "--json"]),
                ("import", ["import", store, "--model", model, objects, "--json"]),
            ] {
                try expectIncompatibleSchema(try Modelc.run(command), "ZTODOITEM.ZNOTES", what)
            }
            let text = try Modelc.run(["fetch", store, "--model", model, "--entity", "TodoItem"])
            #expect(text.standardError.contains("missing column ZTODOITEM.ZNOTES [incompatibleSchema, 134020]"), "\(text.standardError)")
            let info = try Modelc.run(["store", "info", store, "--model", model, "--json"]).json()
            #expect(info["schemaDifferences"] as? [String] == ["missing column ZTODOITEM.ZNOTES"])
            let schemaError = info["schemaError"] as? [String: Any]
            #expect(schemaError?["class"] as? String == "incompatibleSchema" && schemaError?["code"] as? Int == 134020, "\(info)")
            #expect((schemaError?["message"] as? String)?.contains("missing column ZTODOITEM.ZNOTES") == true)
            let infoText = try Modelc.run(["store", "info", store, "--model", model]).standardOutput
            #expect(infoText.contains("missing column ZTODOITEM.ZNOTES [incompatibleSchema, 134020]"), "\(infoText)")
        }
    }

    /// A store of an older version that lacks a column cannot be migrated either: the
    /// migration reads every column of the version that made it.
    @Test func aStoreOfAnOlderVersionWithAMissingColumnIsNotOfferedAMigration() throws {
        try withTemporaryDirectory { folder in
            let store = try copy(Self.exampleStore, dropping: "ZHEX", of: "ZCOLOR", into: folder)
            let model = Corpus.path(Self.exampleModel)
            try expectIncompatibleSchema(try Modelc.run(["store", "check", store, "--model", model, "--json"]), "ZCOLOR.ZHEX", "store check")
            try expectIncompatibleSchema(
                try Modelc.run(["fetch", store, "--model", model, "--entity", "Color", "--json"]), "ZCOLOR.ZHEX", "fetch")
        }
    }
}
