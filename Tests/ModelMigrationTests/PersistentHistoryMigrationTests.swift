import Foundation
import GRDB
import ModelMigration
import ModelSchema
import ModelStore
import Testing
import _ModelTestSupport

/// A lightweight migration of a store that tracks persistent history keeps Core Data's history
/// entities and their rows, and moves the entity numbers its changes record with the entities.
struct PersistentHistoryMigrationTests {
    typealias Support = MigrationTestSupport

    /// `Library 2` → `Library 3` renames `Tag` to `Topic` and adds `Review`, which takes `Tag`'s
    /// entity number: the recorded changes of tags must name `Topic`'s number afterwards.
    @Test func historySurvivesAndFollowsTheEntityNumbers() throws {
        try withTemporaryDirectory { folder in
            let bundle = try Support.bundle(Support.library)
            let store = folder.appendingPathComponent("Library.sqlite").path
            try StoreCreator.create(at: store, version: try #require(bundle.version(named: "Library 2")), persistentHistory: true)
            let queue = try DatabaseQueue(path: store)
            let before = try queue.write { db -> [String: Int] in
                let numbers = try Row.fetchAll(db, sql: "SELECT Z_ENT, Z_NAME FROM Z_PRIMARYKEY WHERE Z_ENT < 16000")
                for (index, row) in numbers.enumerated() {
                    try db.execute(
                        sql: "INSERT INTO ACHANGE (Z_PK, Z_ENT, Z_OPT, ZCHANGETYPE, ZENTITY, ZENTITYPK, ZTRANSACTIONID) VALUES (?, 16001, 1, 0, ?, 1, 1)",
                        arguments: [index + 1, row["Z_ENT"] as Int])
                }
                try db.execute(sql: "UPDATE Z_PRIMARYKEY SET Z_MAX = ? WHERE Z_ENT = 16001", arguments: [numbers.count])
                return Dictionary(uniqueKeysWithValues: numbers.map { ($0["Z_NAME"] as String, $0["Z_ENT"] as Int) })
            }
            try queue.close()

            var options = Migrator.Options()
            options.destination = "Library 3"
            options.makesBackup = false
            options.allowsDataLoss = true
            let result = try Migrator.migrate(storeAt: store, bundle: bundle, options: options)
            #expect(result.outcome == .migrated)

            let after = try DatabaseQueue(path: store)
            try after.read { db in
                let history = try Row.fetchAll(db, sql: "SELECT Z_ENT, Z_NAME, Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT > 16000 ORDER BY Z_ENT")
                #expect(history.map { $0["Z_NAME"] as String } == ["CHANGE", "TRANSACTION", "TRANSACTIONSTRING"])
                #expect(history.first?["Z_MAX"] == before.count)
                let numbers = Dictionary(uniqueKeysWithValues: try Row.fetchAll(db, sql: "SELECT Z_ENT, Z_NAME FROM Z_PRIMARYKEY WHERE Z_ENT < 16000").map {
                    ($0["Z_NAME"] as String, $0["Z_ENT"] as Int)
                })
                let recorded = try Int.fetchAll(db, sql: "SELECT ZENTITY FROM ACHANGE ORDER BY Z_PK")
                let expected = before.sorted { $0.value < $1.value }.map { numbers[$0.key == "Tag" ? "Topic" : $0.key] }
                #expect(recorded == expected)
                let topic = try #require(numbers["Topic"])
                #expect(before["Tag"] != topic && recorded.contains(topic))
            }
            try after.close()
        }
    }
}
