import Foundation
import GRDB
import Testing
import _ModelTestSupport

/// `modelc history` as a user runs it, on the corpus store whose history Core Data wrote
/// (CoreDataPlus's SampleModel2_V1: one transaction of 5,468 inserts, build 1344). Expected
/// values come from the store's rows, read here with plain SQL.
@Suite(Corpus.required)
struct HistoryCommandTests {
    static let tracked = "\(CorpusStores.plus)/SampleModel2/Fixtures/SampleModel2_V1.sqlite"
    static let untracked = "\(CorpusStores.plus)/SampleModel/Fixtures/SampleModel_V1.sqlite"

    /// A copy of `store` in `folder` and its bytes, to show the command leaves them as they are.
    static func copy(_ store: String, into folder: URL) throws -> (path: String, bytes: Data?) {
        let path = try copyStore(Corpus.path(store), into: folder)
        return (path, FileManager.default.contents(atPath: path))
    }

    @Test func listsTheRealTransactionAsItsRowsSay() throws {
        try withTemporaryDirectory { folder in
            let (path, bytes) = try Self.copy(Self.tracked, into: folder)
            let run = try Modelc.run(["history", path, "--json"])
            #expect(run.status == 0, "\(run.standardOutput)\(run.standardError)")
            let transactions = try #require(try run.json()["transactions"] as? [[String: Any]])
            #expect(FileManager.default.contents(atPath: path) == bytes, "history changed the store")
            #expect(FileManager.default.subpaths(atPath: folder.path)?.sorted() == [URL(fileURLWithPath: path).lastPathComponent])

            var configuration = Configuration()
            configuration.readonly = true
            let queue = try DatabaseQueue(path: path, configuration: configuration)
            defer { try? queue.close() }
            let (uuid, transaction, strings, changes) = try queue.read { db in
                (
                    try String.fetchOne(db, sql: "SELECT Z_UUID FROM Z_METADATA") ?? "",
                    try #require(try Row.fetchOne(db, sql: "SELECT Z_PK, ZTIMESTAMP, ZBUNDLEIDTS, ZPROCESSIDTS FROM ATRANSACTION")),
                    Dictionary(uniqueKeysWithValues: try Row.fetchAll(db, sql: "SELECT Z_PK, ZNAME FROM ATRANSACTIONSTRING").map { ($0[0] as Int64, $0[1] as String) }),
                    try Row.fetchAll(db, sql: """
                        SELECT c.ZCHANGETYPE, p.Z_NAME, c.ZENTITYPK FROM ACHANGE c JOIN Z_PRIMARYKEY p ON p.Z_ENT = c.ZENTITY ORDER BY c.Z_PK
                        """).map { (type: $0[0] as Int, entity: $0[1] as String, key: $0[2] as Int64) }
                )
            }
            #expect(transactions.count == 1)
            let only = try #require(transactions.first)
            #expect(only["number"] as? Int64 == transaction[0] as Int64)
            let timestamp = Date(timeIntervalSinceReferenceDate: transaction[1] as Double)
            let formatter = ISO8601DateFormatter()
            formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
            #expect(only["timestamp"] as? String == formatter.string(from: timestamp))
            #expect(only["timestamp"] as? String == "2024-05-10T18:14:07.288Z")
            #expect(only["bundleID"] as? String == strings[transaction[2] as Int64])
            #expect(only["processID"] as? String == strings[transaction[3] as Int64])
            #expect(only["bundleID"] as? String == "com.apple.dt.xctest.tool" && only["processID"] as? String == "xctest")
            #expect(only["author"] is NSNull && only["contextName"] is NSNull)

            let listed = try #require(only["changes"] as? [[String: Any]])
            #expect(listed.count == 5468 && changes.count == 5468)
            let expected = changes.map { change in
                (["insert", "update", "delete"][change.type], "x-coredata://\(uuid)/\(change.entity)/p\(change.key)")
            }
            #expect(listed.map { $0["type"] as? String ?? "" } == expected.map(\.0))
            #expect(listed.map { $0["object"] as? String ?? "" } == expected.map(\.1))
            #expect(listed.first?["object"] as? String == "x-coredata://\(uuid)/Page/p221")
            #expect(listed.last?["object"] as? String == "x-coredata://\(uuid)/Feedback/p64")
            #expect(listed.allSatisfy { $0["updatedProperties"] == nil && $0["tombstone"] == nil })
            let perEntity = Dictionary(grouping: listed) { ($0["object"] as? String ?? "").split(separator: "/")[2] }.mapValues(\.count)
            #expect(perEntity == ["Book": 51, "GraphicNovel": 1, "Feedback": 444, "Page": 4970, "Author": 2])
        }
    }

    @Test func afterFiltersByTransactionNumber() throws {
        try withTemporaryDirectory { folder in
            let (path, _) = try Self.copy(Self.tracked, into: folder)
            let all = try Modelc.run(["history", path, "--after", "0", "--json"])
            #expect((try all.json()["transactions"] as? [Any])?.count == 1)
            let none = try Modelc.run(["history", path, "--after", "1", "--json"])
            #expect(none.status == 0)
            #expect((try none.json()["transactions"] as? [Any])?.count == 0)
            let text = try Modelc.run(["history", path])
            #expect(text.status == 0)
            #expect(text.standardOutput.hasPrefix("transaction 1  2024-05-10T18:14:07.288Z  bundle com.apple.dt.xctest.tool  process xctest\n"))
            #expect(text.standardOutput.hasSuffix("1 transaction, 5468 changes\n"))
        }
    }

    @Test func aStoreWithoutHistorySaysSoWithCoreDatasCode() throws {
        try withTemporaryDirectory { folder in
            let (path, bytes) = try Self.copy(Self.untracked, into: folder)
            let run = try Modelc.run(["history", path, "--json"])
            #expect(run.status == 1)
            let error = try #require(try run.json()["error"] as? [String: Any])
            #expect(error["class"] as? String == "noHistory")
            #expect(error["code"] as? String == "134091")
            let text = try Modelc.run(["history", path])
            #expect(text.status == 1)
            #expect(text.standardError.contains("134091"))
            #expect(FileManager.default.contents(atPath: path) == bytes)
        }
    }

    @Test func aNegativeAfterIsAUsageError() throws {
        let run = try Modelc.run(["history", Corpus.path(Self.tracked), "--after", "-1", "--json"])
        #expect(run.status == 64)
    }
}
