import Foundation
import GRDB
import Testing
import _ModelTestSupport

/// Core Data keys a store's entities by their number: after its own migration renamed an
/// entity, `Z_PRIMARYKEY.Z_NAME` can keep the old name, and the store still opens and reads.
///
/// Real file: alemar11/CoreDataPlus's `Tests/Resources/SampleModel/Fixtures/SampleModel_V2.sqlite`,
/// made by `SampleModel2` (its hashes say so), whose Z_PRIMARYKEY names entity 3
/// `ExpensiveSportCar`, the name in `SampleModel`, while `SampleModel2` calls it `LuxuryCar`
/// (renaming identifier `ExpensiveSportCar`). CoreDataPlus's own tests fetch `LuxuryCar` objects
/// from it on Apple platforms. Every reader here must name entities by the model, never by Z_NAME.
@Suite(Corpus.required)
struct RenamedEntityStoreTests {
    static let store = "alemar11__CoreDataPlus/Tests/Resources/SampleModel/Fixtures/SampleModel_V2.sqlite"
    static let model = "alemar11__CoreDataPlus/Tests/Resources/SampleModel/SampleModel.xcdatamodeld"
    static let historyStore = "alemar11__CoreDataPlus/Tests/Resources/SampleModel2/Fixtures/SampleModel2_V2.sqlite"

    @Test func fetchStoreInfoAndImportNameTheEntityAsTheModelDoes() throws {
        try withTemporaryDirectory { folder in
            let store = try copyStore(Corpus.path(Self.store), into: folder)
            let model = Corpus.path(Self.model)
            let queue = try DatabaseQueue(path: store)
            #expect(try queue.read { try String.fetchOne($0, sql: "SELECT Z_NAME FROM Z_PRIMARYKEY WHERE Z_ENT = 3") } == "ExpensiveSportCar")
            try queue.close()

            let luxury = try Modelc.run(["fetch", store, "--model", model, "--entity", "LuxuryCar", "--json"]).json()
            let objects = luxury["objects"] as? [[String: Any]] ?? []
            #expect(objects.count == 5)
            #expect(objects.allSatisfy { ($0["id"] as? String)?.contains("/LuxuryCar/p") == true && $0["entity"] as? String == "LuxuryCar" })
            // Without --model: the store's own model cache names it LuxuryCar too.
            #expect(try Modelc.run(["fetch", store, "--entity", "LuxuryCar", "--count"]).standardOutput.contains("5 LuxuryCar objects"))
            #expect(try Modelc.run(["fetch", store, "--model", model, "--entity", "ExpensiveSportCar"]).status == 64)

            let info = try Modelc.run(["store", "info", store, "--model", model, "--json"]).json()
            #expect(info["matchedVersion"] as? String == "SampleModel2")
            #expect((info["entities"] as? [String: String])?.keys.sorted() == ["Car", "LuxuryCar", "Person", "SportCar"])
            let differences = info["schemaDifferences"] as? [String] ?? []
            #expect(differences.count == 1 && differences.first?.hasPrefix("entity names in Z_PRIMARYKEY differ") == true, "\(differences)")

            let file = try writeFile(
                "one.json", #"{"objects":[{"id":"a","entity":"LuxuryCar","attributes":{"numberPlate":"NEW-1"}}]}"#, in: folder)
            let imported = try Modelc.run(["import", store, "--model", model, file.path, "--json"])
            #expect(imported.status == 0, "\(imported.standardError)")
            #expect((try imported.json()["ids"] as? [String: String])?["a"]?.contains("/LuxuryCar/p126") == true)
            let reopened = try DatabaseQueue(path: store)
            defer { try? reopened.close() }
            #expect(try reopened.read { try Int.fetchOne($0, sql: "SELECT Z_ENT FROM ZCAR WHERE ZNUMBERPLATE = 'NEW-1'") } == 3)
        }
    }

    /// The same fact on a store with history: its changes name entities by number
    /// (`ACHANGE.ZENTITY`), so a stale Z_NAME (set here with SQL, as Core Data's rename leaves
    /// it in the store above) does not reach `history`'s output.
    @Test func historyNamesChangedObjectsByTheModel() throws {
        try withTemporaryDirectory { folder in
            let store = try copyStore(Corpus.path(Self.historyStore), into: folder)
            let queue = try DatabaseQueue(path: store)
            try queue.write { try $0.execute(sql: "UPDATE Z_PRIMARYKEY SET Z_NAME = 'OldPage' WHERE Z_ENT = 4") }
            try queue.close()
            let run = try Modelc.run(["history", store])
            #expect(run.status == 0, "\(run.standardError)")
            #expect(run.standardOutput.contains("/Page/p"))
            #expect(!run.standardOutput.contains("OldPage"))
        }
    }
}
