import Foundation
import GRDB
import ModelArchive
import ModelObjects
import ModelSchema
import ModelStore
import ModelXML
import Testing
import _ModelTestSupport

/// Persistent history through a context (`HistoryChangeRequest`, `HistoryToken`), on a copy of
/// the corpus store whose history Core Data wrote (CoreDataPlus's SampleModel2_V1: one
/// transaction of 5,468 inserts). Expected values come from its rows, read with plain SQL.
@Suite(Corpus.required)
struct HistoryTests {
    static let tracked = "\(CorpusStores.plus)/SampleModel2/Fixtures/SampleModel2_V1.sqlite"
    static let model = "\(CorpusStores.plus)/SampleModel/SampleModel.xcdatamodeld"

    /// A context on a copy of the tracked store in `folder`, with the model the store carries
    /// (`Z_MODELCACHE`) as `adjust` leaves it, and the copy's database.
    static func context(
        in folder: URL, readOnly: Bool = true, adjusting adjust: (inout ModelVersion) -> Void = { _ in }
    ) throws -> (ManagedObjectContext, DatabaseQueue) {
        let path = try copyStore(Corpus.path(tracked), into: folder)
        let archive = try #require(try StoreModelCache.archive(at: path))
        var version = try ModelUnarchiver.version(from: archive, name: "Store", path: path)
        adjust(&version)
        var configuration = Configuration()
        configuration.readonly = readOnly
        let database = try DatabaseQueue(path: path, configuration: configuration)
        let context = ManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = PersistentStoreCoordinator(model: ManagedObjectModel(version), database: database)
        return (context, database)
    }

    @Test func fetchingAllHistoryGivesTheRecordedTransaction() throws {
        try withTemporaryDirectory { folder in
            let (context, database) = try Self.context(in: folder)
            let (uuid, timestamp, rows) = try database.read { db in
                (
                    try String.fetchOne(db, sql: "SELECT Z_UUID FROM Z_METADATA") ?? "",
                    try Double.fetchOne(db, sql: "SELECT ZTIMESTAMP FROM ATRANSACTION") ?? 0,
                    try Row.fetchAll(db, sql: "SELECT c.Z_PK, p.Z_NAME, c.ZENTITYPK FROM ACHANGE c JOIN Z_PRIMARYKEY p ON p.Z_ENT = c.ZENTITY ORDER BY c.Z_PK")
                )
            }
            let transactions = try context.performAndWait { try context.execute(HistoryChangeRequest.fetchHistory(after: nil as HistoryToken?)).transactions }
            #expect(transactions.count == 1)
            let transaction = try #require(transactions.first)
            #expect(transaction.transactionNumber == 1)
            #expect(transaction.timestamp == Date(timeIntervalSinceReferenceDate: timestamp))
            #expect(transaction.bundleID == "com.apple.dt.xctest.tool" && transaction.processID == "xctest")
            #expect(transaction.author == nil && transaction.contextName == nil)
            #expect(transaction.storeID == uuid)
            #expect(transaction.token == HistoryToken(storeIdentifier: uuid, transactionNumber: 1))
            #expect(transaction.changes.count == 5468)
            #expect(transaction.changes.map(\.changeID) == rows.map { $0[0] as Int64 })
            #expect(transaction.changes.map { $0.changedObjectID.description } == rows.map { "x-coredata://\(uuid)/\($0[1] as String)/p\($0[2] as Int64)" })
            #expect(transaction.changes.allSatisfy { $0.changeType == .insert && $0.updatedProperties == nil && $0.tombstone == nil })
            #expect(transaction.changes.allSatisfy { $0.transactionNumber == 1 })
            try database.close()
        }
    }

    @Test func anchorsAreExclusive() throws {
        try withTemporaryDirectory { folder in
            let (context, database) = try Self.context(in: folder)
            let timestamp = try database.read { try Double.fetchOne($0, sql: "SELECT ZTIMESTAMP FROM ATRANSACTION") ?? 0 }
            try context.performAndWait {
                let all = try context.execute(HistoryChangeRequest.fetchHistory(after: nil as HistoryToken?)).transactions
                let transaction = try #require(all.first)
                #expect(try context.execute(HistoryChangeRequest.fetchHistory(after: transaction)).transactions.isEmpty)
                #expect(try context.execute(HistoryChangeRequest.fetchHistory(after: transaction.token)).transactions.isEmpty)
                let before = Date(timeIntervalSinceReferenceDate: timestamp - 1)
                #expect(try context.execute(HistoryChangeRequest.fetchHistory(after: before)).transactions.count == 1)
                let at = Date(timeIntervalSinceReferenceDate: timestamp)
                #expect(try context.execute(HistoryChangeRequest.fetchHistory(after: at)).transactions.isEmpty)
                let zero = HistoryToken(storeIdentifier: transaction.storeID, transactionNumber: 0)
                #expect(try context.execute(HistoryChangeRequest.fetchHistory(after: zero)).transactions.count == 1)
            }
            try database.close()
        }
    }

    @Test func aTokenRoundTripsThroughArchiving() throws {
        let token = HistoryToken(storeIdentifier: "C9CB0B35-ED6A-4042-BE5C-1B911AC00B2A", transactionNumber: 1)
        let plist = try PropertyListEncoder().encode(token)
        #expect(try PropertyListDecoder().decode(HistoryToken.self, from: plist) == token)
        let json = try JSONEncoder().encode(token)
        #expect(try JSONDecoder().decode(HistoryToken.self, from: json) == token)
        #expect(token < HistoryToken(storeIdentifier: token.storeIdentifier, transactionNumber: 2))
        #expect(token.description == "<HistoryToken - { \"C9CB0B35-ED6A-4042-BE5C-1B911AC00B2A\" = 1; }>")
    }

    @Test func aTokenOfAnotherStoreIsRefused() throws {
        try withTemporaryDirectory { folder in
            let (context, database) = try Self.context(in: folder)
            let other = HistoryToken(storeIdentifier: "00000000-0000-0000-0000-000000000000", transactionNumber: 0)
            #expect { try context.performAndWait { try context.execute(HistoryChangeRequest.fetchHistory(after: other)) } } throws: {
                ($0 as NSError).code == 134501
            }
            try database.close()
        }
    }

    /// Deleting before a transaction keeps it; deleting everything removes the transactions and
    /// their changes, keeps the shared strings and `Z_PRIMARYKEY`'s count, and a token from
    /// before the deleted history has expired (134301).
    @Test func deletingHistory() throws {
        try withTemporaryDirectory { folder in
            let (context, database) = try Self.context(in: folder, readOnly: false)
            try context.performAndWait {
                let transaction = try #require(try context.execute(HistoryChangeRequest.fetchHistory(after: nil as HistoryToken?)).transactions.first)
                guard case .deleted(let kept) = try context.execute(HistoryChangeRequest.deleteHistory(before: transaction)) else {
                    Issue.record("a deletion gives a count")
                    return
                }
                #expect(kept == 0)
                #expect(try context.execute(HistoryChangeRequest.fetchHistory(after: nil as HistoryToken?)).transactions.count == 1)
                guard case .deleted(let all) = try context.execute(HistoryChangeRequest.deleteHistory(before: nil as HistoryToken?)) else {
                    Issue.record("a deletion gives a count")
                    return
                }
                #expect(all == 1)
                #expect(try context.execute(HistoryChangeRequest.fetchHistory(after: transaction)).transactions.isEmpty)
                let older = HistoryToken(storeIdentifier: transaction.storeID, transactionNumber: 0)
                #expect { try context.execute(HistoryChangeRequest.fetchHistory(after: older)) } throws: { ($0 as NSError).code == 134301 }
            }
            let counts = try database.read { db in
                try ["ATRANSACTION", "ACHANGE", "ATRANSACTIONSTRING"].map { try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \($0)") ?? -1 }
                    + [try Int.fetchOne(db, sql: "SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT = 16002") ?? -1]
            }
            #expect(counts == [0, 0, 2, 1])
            try database.close()
        }
    }

    /// A delete's `ZTOMBSTONEn` columns hold the entity's preserved attributes in name order
    /// (inferred: no real store with tombstones has been seen), read as their attributes' values.
    @Test func aDeletesTombstoneNamesThePreservedAttributes() throws {
        try withTemporaryDirectory { folder in
            let (context, database) = try Self.context(in: folder) { version in
                guard let feedback = version.entities.firstIndex(where: { $0.name == "Feedback" }) else {
                    Issue.record("the Library model has a Feedback entity")
                    return
                }
                for index in version.entities[feedback].attributes.indices where ["rating", "authorAlias"].contains(version.entities[feedback].attributes[index].name) {
                    version.entities[feedback].attributes[index].preservesValueInHistoryOnDeletion = true
                }
            }
            let writable = try DatabaseQueue(path: database.path)
            try writable.write { db in
                try db.execute(sql: """
                    ALTER TABLE ACHANGE ADD COLUMN ZTOMBSTONE0 VARCHAR;
                    ALTER TABLE ACHANGE ADD COLUMN ZTOMBSTONE1 FLOAT;
                    INSERT INTO ATRANSACTION (Z_PK, Z_ENT, ZTIMESTAMP) VALUES (2, 16002, 737057700);
                    INSERT INTO ACHANGE (Z_PK, Z_ENT, ZCHANGETYPE, ZENTITY, ZENTITYPK, ZTRANSACTIONID, ZTOMBSTONE0, ZTOMBSTONE1)
                        VALUES (5469, 16001, 2, 3, 1, 2, 'Andrea', 5.8);
                    """)
            }
            try writable.close()
            let transactions = try context.performAndWait {
                try context.execute(HistoryChangeRequest.fetchHistory(after: HistoryToken(storeIdentifier: "", transactionNumber: 1))).transactions
            }
            let change = try #require(transactions.first?.changes.first)
            #expect(change.changeType == .delete && change.updatedProperties == nil)
            #expect(change.tombstone?.count == 2)
            #expect(change.tombstone?["authorAlias"] as? String == "Andrea")
            #expect(change.tombstone?["rating"].map { "\($0)" } == "5.8")
            try database.close()
        }
    }

    @Test func aStoreWithoutHistoryIsRefusedWith134091() throws {
        try withTemporaryDirectory { folder in
            let path = try copyStore(Corpus.path("\(CorpusStores.plus)/SampleModel/Fixtures/SampleModel_V1.sqlite"), into: folder)
            let version = try #require(ModelReader().read(at: Corpus.path(Self.model)).bundle?.version(named: "SampleModel"))
            var configuration = Configuration()
            configuration.readonly = true
            let database = try DatabaseQueue(path: path, configuration: configuration)
            let context = ManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
            context.persistentStoreCoordinator = PersistentStoreCoordinator(model: ManagedObjectModel(version), database: database)
            #expect { try context.performAndWait { try context.execute(HistoryChangeRequest.fetchHistory(after: nil as HistoryToken?)) } } throws: {
                ($0 as NSError).code == 134091
            }
            try database.close()
        }
    }
}
