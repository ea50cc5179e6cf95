import Foundation
import GRDB
import Testing
import _ModelTestSupport

/// `modelc history` on a copy of the corpus store whose history Core Data wrote (CoreDataPlus's
/// SampleModel2_V1), with rows changed as a damaged or hostile store may have them: each is a
/// clean error with the store's class and code, or a bounded answer, never a trap.
@Suite(Corpus.required, .serialized)
struct HistoryHostileRowsTests {
    /// Runs `history arguments` on a copy of the tracked store changed by `change`.
    func history(_ arguments: [String] = [], wrapper: [String] = [], after change: (Database) throws -> Void) throws -> HostileRun {
        try withTemporaryDirectory { folder in
            let path = try copyStore(Corpus.path(HistoryCommandTests.tracked), into: folder)
            let queue = try DatabaseQueue(path: path)
            try queue.write(change)
            try queue.close()
            return try HostileRun.run(["history", path, "--json"] + arguments, in: folder, wrapper: wrapper)
        }
    }

    /// The `error` object of a run's JSON.
    func error(_ run: HostileRun) throws -> [String: Any] {
        let report = try #require(try JSONSerialization.jsonObject(with: Data(run.standardOutput.utf8)) as? [String: Any], "\(run.standardError)")
        return try #require(report["error"] as? [String: Any])
    }

    @Test(arguments: [
        ("UPDATE ATRANSACTION SET ZTIMESTAMP = 'yesterday'", "ATRANSACTION", "ZTIMESTAMP"),
        ("UPDATE ATRANSACTION SET ZTIMESTAMP = 9e999", "ATRANSACTION", "ZTIMESTAMP"),
        ("UPDATE ATRANSACTION SET ZBUNDLEIDTS = NULL, ZBUNDLEID = x'00ff'", "ATRANSACTION", "ZBUNDLEID"),
        ("UPDATE ACHANGE SET ZCHANGETYPE = 1e30 WHERE Z_PK = 7", "ACHANGE", "ZCHANGETYPE"),
        ("UPDATE ACHANGE SET ZENTITYPK = 'p7' WHERE Z_PK = 7", "ACHANGE", "ZENTITYPK"),
        ("UPDATE ACHANGE SET ZCOLUMNS = 42, ZCHANGETYPE = 1 WHERE Z_PK = 7", "ACHANGE", "ZCOLUMNS"),
    ])
    func aValueOfTheWrongTypeIsACorruptRowNotATrap(_ sql: String, _ table: String, _ column: String) throws {
        let run = try history { try $0.execute(sql: sql) }
        #expect(run.status == 1, "\(sql): \(run.standardError)")
        let error = try error(run)
        #expect(error["class"] as? String == "corrupt")
        #expect(error["code"] as? String == "259")
        let message = error["message"] as? String ?? ""
        #expect(message.contains(table) && message.contains(column), "\(message)")
    }

    /// A token numbered Int64.max is after every transaction; a store whose history was all
    /// deleted after handing out the last number has expired every token before it.
    @Test func theLargestNumbersNeedNoArithmeticThatOverflows() throws {
        let after = try history(["--after", String(Int64.max)]) { _ in }
        #expect(after.status == 0, "\(after.standardError)")
        let report = try JSONSerialization.jsonObject(with: Data(after.standardOutput.utf8)) as? [String: Any]
        #expect((report?["transactions"] as? [Any])?.count == 0)

        let exhausted = try history(["--after", "5"]) { db in
            try db.execute(sql: "DELETE FROM ACHANGE; DELETE FROM ATRANSACTION")
            try db.execute(sql: "UPDATE Z_PRIMARYKEY SET Z_MAX = ? WHERE Z_NAME = 'TRANSACTION'", arguments: [Int64.max])
        }
        #expect(exhausted.status == 1, "\(exhausted.standardError)")
        #expect(try error(exhausted)["code"] as? String == "134301")
    }

    /// 59 updates whose `ZCOLUMNS` is a megabyte of set bits name every property of their
    /// entity, as a bitmap of the entity's own length would, in memory of the order of the
    /// store's bytes (each bit was a position of eight bytes: 1.9 GB and 11 s before).
    @Test func aHugeChangedColumnsBitmapCostsItsBytes() throws {
        let bitmap = Data(repeating: 0xFF, count: 1 << 20)
        // Under a 1 GiB limit of its address space: the run that needed 1.9 GB fails for want of memory.
        let run = try history(wrapper: ["/usr/bin/prlimit", "--as=\(1 << 30)", "--"]) { db in
            let change = try #require(try Row.fetchOne(db, sql: "SELECT ZENTITY, ZENTITYPK, ZTRANSACTIONID FROM ACHANGE ORDER BY Z_PK LIMIT 1"))
            let next = try Int64.fetchOne(db, sql: "SELECT MAX(Z_PK) FROM ACHANGE") ?? 0
            for offset in 1...59 {
                try db.execute(
                    sql: "INSERT INTO ACHANGE (Z_PK, Z_ENT, Z_OPT, ZCHANGETYPE, ZENTITY, ZENTITYPK, ZTRANSACTIONID, ZCOLUMNS) VALUES (?, 16001, NULL, 1, ?, ?, ?, ?)",
                    arguments: [next + Int64(offset), change[0], change[1], change[2], bitmap])
            }
        }
        #expect(run.status == 0, "\(run.standardError)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(run.standardOutput.utf8)) as? [String: Any])
        let transaction = try #require((report["transactions"] as? [[String: Any]])?.first)
        let updates = (transaction["changes"] as? [[String: Any]] ?? []).compactMap { $0["updatedProperties"] as? [String] }
        #expect(updates.count == 59)
        // The first change is of a Page (HistoryCommandTests), whose every property the bits name.
        #expect(updates.allSatisfy { $0 == updates[0] && !$0.isEmpty && $0 == $0.sorted() })
    }
}
