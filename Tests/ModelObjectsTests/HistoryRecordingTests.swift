import Foundation
import GRDB
import ModelObjects
import ModelStack
import Testing
import _ModelTestSupport

/// A save into a store that tracks history records it as Core Data did in the corpus store's
/// real transaction (CoreDataPlus's SampleModel2_V1): the same columns set and left NULL, the
/// same entity numbering and keys, and it is fetched back, and printed by `modelc history`, with
/// the right changes.
@Suite(Corpus.required)
struct HistoryRecordingTests {
    /// The columns of a row as their SQLite types, to compare a row's shape with a real one's.
    static func types(_ db: Database, _ sql: String) throws -> [String] {
        let row = try #require(try Row.fetchOne(db, sql: sql))
        return row.databaseValues.map { value in
            switch value.storage {
            case .null: "null"
            case .int64: "integer"
            case .double: "real"
            case .string: "text"
            case .blob: "blob"
            }
        }
    }

    @Test func aSaveIsRecordedAsCoreDataRecordsOne() throws {
        try withTemporaryDirectory { folder in
            let (context, database) = try HistoryTests.context(in: folder, readOnly: false)
            let storeID = try context.persistentStoreCoordinator!.storeIdentifier()
            let feedback = try #require(context.persistentStoreCoordinator?.managedObjectModel.entitiesByName["Feedback"])
            // The bitmap's list for Feedback: its properties sorted by name.
            #expect((feedback.attributes.map(\.name) + feedback.relationships.map(\.name)).sorted() == ["authorAlias", "bookID", "comment", "rating"])
            try context.performAndWait {
                let inserted = ManagedObject(entity: feedback, insertInto: context)
                inserted.setValue("Ursula", forKey: "authorAlias")
                inserted.setValue(UUID(), forKey: "bookID")
                inserted.setValue(4.5, forKey: "rating")
                let updated = try context.existingObject(with: try #require(context.persistentStoreCoordinator?.managedObjectID(
                    forURIRepresentation: URL(string: "x-coredata://\(storeID)/Feedback/p64")!)))
                updated.setValue("a second reading", forKey: "comment")
                updated.setValue(1.0, forKey: "rating")
                let deleted = try context.existingObject(with: try #require(context.persistentStoreCoordinator?.managedObjectID(
                    forURIRepresentation: URL(string: "x-coredata://\(storeID)/Feedback/p1")!)))
                context.delete(deleted)
                try context.save()
            }
            try database.read { db in
                // The transaction row as the real one: the same columns set, the same left NULL (no
                // author or context name; no bundle identifier for a process without a bundle).
                #expect(try Self.types(db, "SELECT * FROM ATRANSACTION WHERE Z_PK = 2")
                    == ["integer", "integer", "null", "null", "null", "null", "integer", "real", "null", "null", "null", "null", "null"])
                let real = try Self.types(db, "SELECT * FROM ATRANSACTION WHERE Z_PK = 1")
                #expect(real == ["integer", "integer", "null", "null", "integer", "null", "integer", "real", "null", "null", "null", "null", "null"])
                #expect(try Row.fetchAll(db, sql: "SELECT Z_ENT, ZNAME FROM ATRANSACTIONSTRING WHERE Z_PK = (SELECT ZPROCESSIDTS FROM ATRANSACTION WHERE Z_PK = 2)")
                    .map { "\($0[0] as Int)|\($0[1] as String)" } == ["16003|\(ProcessInfo.processInfo.processName)"])
                // Change rows as the real ones: Z_ENT 16001, Z_OPT NULL, the object's own entity
                // number and key, the transaction's number, ZCOLUMNS only on the update.
                let changes = try Row.fetchAll(db, sql: "SELECT * FROM ACHANGE WHERE ZTRANSACTIONID = 2 ORDER BY Z_PK").map { row in
                    row.databaseValues.map { $0.isNull ? "NULL" : ($0.storage == .blob(Data([0x30])) ? "x30" : "\($0)") }.joined(separator: "|")
                }
                #expect(changes == ["5469|16001|NULL|0|3|445|2|NULL", "5470|16001|NULL|1|3|64|2|x30", "5471|16001|NULL|2|3|1|2|NULL"])
                let realChange = try Row.fetchOne(db, sql: "SELECT Z_ENT, Z_OPT, ZCHANGETYPE, ZENTITY, ZTRANSACTIONID, ZCOLUMNS FROM ACHANGE WHERE Z_PK = 5468")
                #expect(realChange?.databaseValues.map { $0.isNull ? "NULL" : "\($0)" } == ["16001", "NULL", "0", "3", "1", "NULL"])
                #expect(try Row.fetchAll(db, sql: "SELECT Z_ENT, Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT > 16000").map { "\($0[0] as Int)|\($0[1] as Int)" }
                    == ["16001|5471", "16002|2", "16003|3"])
            }
            let transactions = try context.performAndWait {
                try context.execute(HistoryChangeRequest.fetchHistory(after: HistoryToken(storeIdentifier: storeID, transactionNumber: 1))).transactions
            }
            #expect(transactions.map(\.transactionNumber) == [2])
            let changes = try #require(transactions.first?.changes)
            #expect(changes.map { "\($0.changeType) \($0.changedObjectID)" } == [
                "insert x-coredata://\(storeID)/Feedback/p445", "update x-coredata://\(storeID)/Feedback/p64", "delete x-coredata://\(storeID)/Feedback/p1",
            ])
            #expect(changes.map(\.updatedProperties) == [nil, ["comment", "rating"], nil])
            #expect(transactions.first?.processID == ProcessInfo.processInfo.processName)
            try database.close()

            // The built modelc prints it back as saved, and only it after transaction 1.
            let run = try Modelc.run(["history", database.path, "--after", "1", "--json"])
            #expect(run.status == 0, "\(run.standardOutput)\(run.standardError)")
            let printed = try #require(try run.json()["transactions"] as? [[String: Any]])
            #expect(printed.map { $0["number"] as? Int } == [2])
            let printedChanges = try #require(printed.first?["changes"] as? [[String: Any]])
            #expect(printedChanges.map { "\($0["type"] ?? "") \($0["object"] ?? "")" } == changes.map { "\($0.changeType) \($0.changedObjectID)" })
            #expect(printedChanges[1]["updatedProperties"] as? [String] == ["comment", "rating"])
            #expect(printed.first?["author"] is NSNull && printed.first?["processID"] as? String == ProcessInfo.processInfo.processName)
        }
    }

    /// A delete of an object whose entity preserves attributes fills the store's `ZTOMBSTONEn`
    /// columns with their saved values, in name order, and reads back as its tombstone.
    @Test func aDeleteRecordsItsTombstoneWhereTheStoreHasTheColumns() throws {
        try withTemporaryDirectory { folder in
            let (context, database) = try HistoryTests.context(in: folder, readOnly: false) { version in
                guard let feedback = version.entities.firstIndex(where: { $0.name == "Feedback" }) else { return }
                for index in version.entities[feedback].attributes.indices where ["rating", "authorAlias"].contains(version.entities[feedback].attributes[index].name) {
                    version.entities[feedback].attributes[index].preservesValueInHistoryOnDeletion = true
                }
            }
            try database.write { db in
                try db.execute(sql: "ALTER TABLE ACHANGE ADD COLUMN ZTOMBSTONE0 VARCHAR; ALTER TABLE ACHANGE ADD COLUMN ZTOMBSTONE1 FLOAT")
            }
            let storeID = try context.persistentStoreCoordinator!.storeIdentifier()
            let transactions = try context.performAndWait {
                let id = try #require(context.persistentStoreCoordinator?.managedObjectID(forURIRepresentation: URL(string: "x-coredata://\(storeID)/Feedback/p2")!))
                context.delete(context.object(with: id))
                try context.save()
                return try context.execute(HistoryChangeRequest.fetchHistory(after: HistoryToken(storeIdentifier: storeID, transactionNumber: 1))).transactions
            }
            let row = try database.read { db in
                try Row.fetchOne(db, sql: "SELECT ZCHANGETYPE, ZENTITYPK, ZTOMBSTONE0, ZTOMBSTONE1 FROM ACHANGE WHERE ZTRANSACTIONID = 2")
            }
            #expect(row?.databaseValues.map { "\($0)" } == ["2", "2", "\"Andrea\"", "2.4"])
            let change = try #require(transactions.first?.changes.first)
            #expect(change.tombstone?["authorAlias"] as? String == "Andrea")
            #expect(change.tombstone?["rating"].map { "\($0)" } == "2.4")
            try database.close()
        }
    }

    /// A container on CoreDataPlus's SampleModel (`Person.id` preserved after deletion) with
    /// tracking on gives its store a `ZTOMBSTONE0` column; a deleted person's id goes there as
    /// its own column stores it (a UUID's 16 bytes), is fetched back as its tombstone and printed
    /// by `modelc history`.
    @Test func aContainerWithPreservedAttributesRecordsTombstones() async throws {
        let folder = try StackFolder()
        defer { folder.remove() }
        let model = Corpus.path("\(CorpusStores.plus)/SampleModel/SampleModel.xcdatamodeld")
        let container = try PersistentContainer(name: "People", model: URL(fileURLWithPath: model))
        var description = StoreDescription(url: folder.url.appendingPathComponent("People.sqlite"))
        description.persistentHistoryTracking = true
        container.persistentStoreDescriptions = [description]
        try await container.loadPersistentStores()
        let context = container.newBackgroundContext()
        let id = UUID()
        let changes = try context.performAndWait {
            let person = ManagedObject(entity: container.persistentStoreCoordinator.managedObjectModel.entitiesByName["Person"]!, insertInto: context)
            person.setValue(id, forKey: "id")
            person.setValue("Ada", forKey: "firstName")
            person.setValue("Lovelace", forKey: "lastName")
            person.setValue(Date(timeIntervalSinceReferenceDate: 0), forKey: "updatedAt")
            try context.save()
            context.delete(person)
            try context.save()
            return try context.execute(HistoryChangeRequest.fetchHistory(after: nil as HistoryToken?)).transactions.flatMap(\.changes)
        }
        #expect(changes.map(\.changeType) == [.insert, .delete])
        #expect(changes.first?.tombstone == nil)
        #expect(changes.last?.tombstone?["id"] as? UUID == id)
        #expect(changes.last?.tombstone?.count == 1)
        let path = description.url.path
        let database = try DatabaseQueue(path: path)
        let (declared, stored) = try await database.read { db in
            (try db.columns(in: "ACHANGE").last.map { "\($0.name) \($0.type)" },
             try Row.fetchAll(db, sql: "SELECT typeof(ZTOMBSTONE0), ZTOMBSTONE0 FROM ACHANGE ORDER BY Z_PK").map { "\($0[0] as String) \(($0[1] as Data?).map { $0.count } ?? 0)" })
        }
        try database.close()
        #expect(declared == "ZTOMBSTONE0 BLOB")
        #expect(stored == ["null 0", "blob 16"])
        let run = try Modelc.run(["history", path, "--json"])
        #expect(run.status == 0, "\(run.standardOutput)\(run.standardError)")
        let printed = try #require((try run.json()["transactions"] as? [[String: Any]])?.last?["changes"] as? [[String: Any]])
        #expect(printed.first?["type"] as? String == "delete")
        #expect((printed.first?["tombstone"] as? [String: Any])?["id"] as? String == id.uuidString)
    }

    /// With tracking on in the store description, each save is one transaction with its context's
    /// author and name; a save whose conflict the rollback policy settles for the store wrote
    /// nothing and records nothing; under store trump the properties the store's values won are
    /// not recorded; under object trump the properties the context wrote are.
    @Test func savesUnderMergePoliciesRecordWhatTheyWrote() async throws {
        let folder = try StackFolder()
        defer { folder.remove() }
        let container = try PersistentContainer(name: "Library", model: URL(fileURLWithPath: ContextTestSupport.library))
        var description = StoreDescription(url: folder.url.appendingPathComponent("Library.sqlite"))
        description.persistentHistoryTracking = true
        container.persistentStoreDescriptions = [description]
        try await container.loadPersistentStores()
        let setup = container.newBackgroundContext()
        let id = try setup.performAndWait {
            let author = ManagedObject(entity: container.persistentStoreCoordinator.managedObjectModel.entitiesByName["Author"]!, insertInto: setup)
            author.setValue("Alice", forKey: "name")
            try setup.save()
            return author.objectID
        }
        let (first, kept, overwriting) = (container.newBackgroundContext(), container.newBackgroundContext(), container.newBackgroundContext())
        let trumped = container.newBackgroundContext()
        trumped.mergePolicy = .mergeByPropertyStoreTrump
        let staleTrumped = try trumped.performAndWait { try trumped.existingObject(with: id) }
        first.transactionAuthor = "sync"
        first.name = "background"
        kept.mergePolicy = .rollback
        overwriting.mergePolicy = .mergeByPropertyObjectTrump
        let staleKept = try kept.performAndWait { try kept.existingObject(with: id) }
        let staleOverwriting = try overwriting.performAndWait { try overwriting.existingObject(with: id) }
        try first.performAndWait {
            let author = try first.existingObject(with: id)
            author.setValue("A1", forKey: "name")
            author.setValue("e1", forKey: "email")
            try first.save()
        }
        try kept.performAndWait {
            staleKept.setValue("A2", forKey: "name")
            try kept.save()
        }
        try trumped.performAndWait {
            staleTrumped.setValue("A3", forKey: "name")
            staleTrumped.setValue(Date(timeIntervalSinceReferenceDate: 2000), forKey: "born")
            try trumped.save()
        }
        try overwriting.performAndWait {
            staleOverwriting.setValue(Date(timeIntervalSinceReferenceDate: 1000), forKey: "born")
            try overwriting.save()
        }
        let transactions = try setup.performAndWait { try setup.execute(HistoryChangeRequest.fetchHistory(after: nil as HistoryToken?)).transactions }
        #expect(transactions.map(\.transactionNumber) == [1, 2, 3, 4])
        #expect(transactions.map { $0.changes.map { "\($0.changeType) \($0.changedObjectID.entityName)/p\($0.changedObjectID.primaryKey ?? 0)" } } == [
            ["insert Author/p1"], ["update Author/p1"], ["update Author/p1"], ["update Author/p1"],
        ])
        #expect(transactions.map { $0.changes.first?.updatedProperties } == [nil, ["email", "name"], ["born"], ["born"]])
        #expect(transactions.map(\.author) == [nil, "sync", nil, nil])
        #expect(transactions.map(\.contextName) == [nil, "background", nil, nil])
    }
}
