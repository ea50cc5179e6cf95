import Foundation
import GRDB
import ModelObjects
import ModelStack
import Testing
import _ModelTestSupport

/// Two `ContextWorker` processes with two contexts each incrementing shared counters at random
/// for a bounded time under each merge policy, and a worker killed with SIGKILL in the middle of
/// its saves: the store must show every increment a save reported done under the error policy
/// (every conflict reported, none lost), history complete and in commit order, `store check`
/// clean, no deadlock (every wait has a timeout), and after each kill the last commit exactly.
@Suite(.serialized)
struct StressTests {
    typealias Support = ContextTestSupport

    static let counters = 4

    @Test(arguments: ["error", "storeTrump", "objectTrump", "overwrite", "rollback"])
    func countersIncrementedByTwoProcessesAddUp(policy: String) async throws {
        let folder = try StackFolder()
        defer { folder.remove() }
        let store = folder.url.appendingPathComponent("Library.sqlite")
        let container = try await RemoteChangeTests.container(in: folder.url, remote: false)
        let seeding = container.newBackgroundContext()
        try seeding.performAndWait {
            let book = container.persistentStoreCoordinator.managedObjectModel.entitiesByName["Book"]!
            for number in 0..<Self.counters {
                let counter = ManagedObject(entity: book, insertInto: seeding)
                counter.setValue("counter \(number)", forKey: "title")
                counter.setValue("c\(number)", forKey: "isbn")
            }
            try seeding.save()
        }
        let workers = try (0..<2).map { _ in try WorkerProcess(store: store, model: Support.library) }
        defer { workers.forEach { $0.finish() } }
        for worker in workers {
            #expect(try worker.send("policy \(policy)")["ok"] as? Bool == true)
            worker.start("increment 2 2")
        }
        let reports = try workers.map { try $0.answer(for: "increment", timeout: 90) }
        var successes = [String: Int]()
        for report in reports {
            #expect(report["ok"] as? Bool == true, "\(report)")
            #expect((report["errors"] as? [String])?.isEmpty == true, "\(report)")
            for (counter, count) in report["successes"] as? [String: Int] ?? [:] { successes[counter, default: 0] += count }
        }
        let conflicts = reports.reduce(0) { $0 + ($1["conflicts"] as? Int ?? 0) }
        let saved = successes.values.reduce(0, +)
        #expect(saved > 0)

        let database = try DatabaseQueue(path: store.path)
        let pages = try await database.read { try Int.fetchOne($0, sql: "SELECT SUM(ZPAGES) FROM ZPUBLICATION") } ?? 0
        // A save sets a counter to a value it read plus one, so no counter can pass its saves.
        #expect(pages <= saved)
        let transactions = try await database.read { db in
            try Row.fetchAll(db, sql: "SELECT Z_PK, ZTIMESTAMP FROM ATRANSACTION ORDER BY Z_PK").map { ($0[0] as Int64, $0[1] as Double) }
        }
        #expect(zip(transactions, transactions.dropFirst()).allSatisfy { $1.0 > $0.0 && $1.1 >= $0.1 }, "history out of commit order")
        let updates = try await database.read { db in
            try Row.fetchAll(db, sql: "SELECT ZTRANSACTIONID, ZENTITYPK, ZCHANGETYPE FROM ACHANGE WHERE ZTRANSACTIONID > 1 ORDER BY Z_PK")
                .map { ($0[0] as Int64, $0[1] as Int64, $0[2] as Int) }
        }
        // After the seed, each transaction is one save of one increment: one update of a counter.
        #expect(updates.allSatisfy { $0.2 == 1 && (1...Int64(Self.counters)).contains($0.1) })
        #expect(Set(updates.map(\.0)).count == updates.count && updates.count == transactions.count - 1)
        if policy == "error" {
            // No lost update: every increment a save reported is in the row and in history, and
            // every other attempt was reported as a conflict.
            #expect(conflicts > 0, "the stress raised no conflict, so it showed nothing")
            #expect(pages == saved)
            #expect(updates.count == saved)
            for (uri, count) in successes {
                let key = Int64(uri.split(separator: "p").last.map(String.init) ?? "") ?? -1
                #expect(updates.filter { $0.1 == key }.count == count, "\(uri)")
            }
        } else {
            #expect(conflicts == 0, "a policy that settles conflicts reported \(conflicts)")
            #expect(updates.count <= saved)
        }
        let check = try Modelc.run(["store", "check", store.path, "--model", Support.library])
        #expect(check.status == 0, "\(check.standardOutput)\(check.standardError)")
        print("stress \(policy): \(saved) increments saved, \(conflicts) conflicts, \(transactions.count) transactions, sum \(pages)")
    }

    /// Rows each of the killed worker's transactions inserts.
    static let rowsPerSave = 1000

    @Test func aWorkerKilledInTheMiddleOfItsSavesLeavesTheLastCommit() async throws {
        let folder = try StackFolder()
        defer { folder.remove() }
        let store = folder.url.appendingPathComponent("Library.sqlite")
        _ = try await RemoteChangeTests.container(in: folder.url, remote: false)
        var generator = SystemRandomNumberGenerator()
        let rounds = 6
        var before = 0
        for round in 1...rounds {
            let worker = try WorkerProcess(store: store, model: Support.library)
            worker.start("bulk \(Self.rowsPerSave)")
            var committed = 0
            // At least one commit of this round, then a kill at a random moment of a later save.
            committed = try worker.event(timeout: 60)["committed"] as? Int ?? 0
            try await Task.sleep(for: .milliseconds(Int.random(in: 0...400, using: &generator)))
            worker.kill()
            while let event = try? worker.event(timeout: 0.2) { committed = event["committed"] as? Int ?? committed }

            let database = try DatabaseQueue(path: store.path)
            let (integrity, authors, transactions, changes, perTransaction) = try await database.read { db in
                (
                    try String.fetchOne(db, sql: "PRAGMA integrity_check"),
                    try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM ZAUTHOR") ?? -1,
                    try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM ATRANSACTION") ?? -1,
                    try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM ACHANGE") ?? -1,
                    try Set(Int.fetchAll(db, sql: "SELECT COUNT(*) FROM ACHANGE GROUP BY ZTRANSACTIONID"))
                )
            }
            try database.close()
            #expect(integrity == "ok")
            // Whole transactions only: the worker's reported commits, and at most one more that
            // committed before the kill but was not yet printed.
            #expect(authors % Self.rowsPerSave == 0, "round \(round): \(authors) authors")
            #expect(transactions * Self.rowsPerSave == authors && changes == authors && perTransaction == [Self.rowsPerSave])
            #expect(transactions >= before + committed && transactions <= before + committed + 1, "round \(round)")
            print("kill round \(round): \(committed) commits reported, \(transactions) transactions in the store")
            before = transactions
        }
        let check = try Modelc.run(["store", "check", store.path, "--model", Support.library])
        #expect(check.status == 0, "\(check.standardOutput)\(check.standardError)")
    }
}
