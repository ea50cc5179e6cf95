import Foundation
import GRDB
import ModelObjects
import ModelStack
import Testing
import _ModelTestSupport

/// Two processes on one store: this one and a `ContextWorker`. A save in either arrives in the
/// other as a remote change carrying its token, and the documents' pattern (fetch the history
/// after the last token, merge it into the view context, keep the new token) brings the other
/// process's change into objects already read; conflicts with the other process's saves are
/// settled by each merge policy as Documentation/MergePolicies.md says.
struct TwoProcessTests {
    typealias Support = ContextTestSupport

    @Test func aSaveInAnotherProcessArrivesAndItsHistoryMergesIntoTheViewContext() async throws {
        let folder = try StackFolder()
        defer { folder.remove() }
        let container = try await RemoteChangeTests.container(in: folder.url, remote: true)
        let alice = try Self.insertAlice(in: container)
        let view = container.viewContext
        let shown = try view.performAndWait { try view.existingObject(with: alice) }
        #expect(view.performAndWait { shown.value(forKey: "name") as? String } == "Alice")
        let history = container.newBackgroundContext()
        var lastToken = try history.performAndWait { try history.execute(HistoryChangeRequest.fetchHistory(after: nil as HistoryToken?)).transactions.last?.token }
        let posted = RemoteChangeTests.Recorder(container.persistentStoreCoordinator)

        let worker = try WorkerProcess(store: folder.url.appendingPathComponent("Library.sqlite"), model: Support.library)
        defer { worker.finish() }
        #expect(try worker.send("get \(alice.uriRepresentation().absoluteString)")["ok"] as? Bool == true)
        #expect(try worker.send("set \(alice.uriRepresentation().absoluteString) name=Alicia")["ok"] as? Bool == true)
        #expect(try worker.send("save")["ok"] as? Bool == true)

        let after = lastToken?.transactionNumber ?? 0
        let note = try await posted.first(timeout: 10) { (($0.userInfo?[NSPersistentHistoryTokenKey] as? HistoryToken)?.transactionNumber ?? 0) > after }
        let token = try #require(note.userInfo?[NSPersistentHistoryTokenKey] as? HistoryToken)
        // The documents' pattern, on the notification: history after the last token, merged.
        let transactions = try history.performAndWait { try history.execute(HistoryChangeRequest.fetchHistory(after: lastToken)).transactions }
        for transaction in transactions {
            ManagedObjectContext.mergeChanges(fromRemoteContextSave: transaction.objectIDNotification().userInfo ?? [:], into: [view])
            lastToken = transaction.token
        }
        #expect(lastToken == token)
        #expect(transactions.map(\.processID) == ["ContextWorker"])
        #expect(transactions.first?.changes.map(\.changeType) == [.update])
        #expect(view.performAndWait { shown.value(forKey: "name") as? String } == "Alicia")
    }

    @Test func aSaveHereArrivesInTheOtherProcess() async throws {
        let folder = try StackFolder()
        defer { folder.remove() }
        let container = try await RemoteChangeTests.container(in: folder.url, remote: false)
        let worker = try WorkerProcess(store: folder.url.appendingPathComponent("Library.sqlite"), model: Support.library, remote: true)
        defer { worker.finish() }
        #expect(try worker.send("watch")["ok"] as? Bool == true)
        let number = try RemoteChangeTests.saveAuthor("Bob", in: container)
        var seen = [Int]()
        while !seen.contains(Int(number)) {
            seen.append(try worker.event(timeout: 10)["remoteChange"] as? Int ?? -1)
        }
        #expect(seen.last == Int(number))
    }

    enum Conflict: String, CaseIterable, Sendable {
        case changedOnBothSides, changedHereDeletedThere, deletedHereChangedThere, uniquenessCollision
    }

    /// The row each policy leaves, from the tables of Documentation/MergePolicies.md: the
    /// worker's save is "there" (context 1), this process's the one settled by the policy.
    static let outcomes: [Conflict: [String: [String]]] = [
        .changedOnBothSides: [
            "error": ["A1|e1|NULL"], "storeTrump": ["A1|e1|1000"], "objectTrump": ["A2|e1|1000"], "overwrite": ["A2|a@x|1000"], "rollback": ["A1|e1|NULL"],
        ],
        .changedHereDeletedThere: ["error": [], "storeTrump": [], "objectTrump": [], "overwrite": [], "rollback": []],
        .deletedHereChangedThere: ["error": ["A1|a@x|NULL"], "storeTrump": ["A1|a@x|NULL"], "objectTrump": [], "overwrite": [], "rollback": ["A1|a@x|NULL"]],
        .uniquenessCollision: ["error": ["Stored|1"], "storeTrump": ["Stored|1"], "objectTrump": ["Mine|2"], "overwrite": ["Mine|2"], "rollback": ["Stored|1"]],
    ]

    @Test(arguments: Conflict.allCases, ["error", "storeTrump", "objectTrump", "overwrite", "rollback"])
    func aConflictWithAnotherProcessIsSettledByThePolicy(conflict: Conflict, policy: String) async throws {
        let folder = try StackFolder()
        defer { folder.remove() }
        let container = try await RemoteChangeTests.container(in: folder.url, remote: false)
        let alice = try Self.insertAlice(in: container)
        let uri = alice.uriRepresentation().absoluteString
        let here = container.newBackgroundContext()
        here.mergePolicy = MergePolicyTests.policies[policy]!
        let stale = try here.performAndWait {
            let object = try here.existingObject(with: alice)
            _ = object.value(forKey: "name")
            return object
        }
        let worker = try WorkerProcess(store: folder.url.appendingPathComponent("Library.sqlite"), model: Support.library)
        defer { worker.finish() }
        let there: [String] = switch conflict {
        case .changedOnBothSides: ["get \(uri)", "set \(uri) name=A1 email=e1"]
        case .changedHereDeletedThere: ["get \(uri)", "delete \(uri)"]
        case .deletedHereChangedThere: ["get \(uri)", "set \(uri) name=A1"]
        case .uniquenessCollision: ["insert Book isbn=42 title=Stored pages=1"]
        }
        for command in there + ["save"] {
            #expect(try worker.send(command)["ok"] as? Bool == true, "\(command)")
        }
        let error: NSError? = here.performAndWait {
            switch conflict {
            case .changedOnBothSides:
                stale.setValue("A2", forKey: "name")
                stale.setValue(Date(timeIntervalSinceReferenceDate: 1000), forKey: "born")
            case .changedHereDeletedThere:
                stale.setValue("A2", forKey: "name")
            case .deletedHereChangedThere:
                here.delete(stale)
            case .uniquenessCollision:
                let book = ManagedObject(entity: container.persistentStoreCoordinator.managedObjectModel.entitiesByName["Book"]!, insertInto: here)
                book.setValue("42", forKey: "isbn")
                book.setValue("Mine", forKey: "title")
                book.setValue(2, forKey: "pages")
            }
            return Support.saveError(here)
        }
        let sql = conflict == .uniquenessCollision ? "SELECT ZTITLE, ZPAGES FROM ZPUBLICATION" : "SELECT ZNAME, ZEMAIL, ZBORN FROM ZAUTHOR"
        #expect(try Support.rows(container, sql) == Self.outcomes[conflict]?[policy])
        let expectedCode = policy != "error" ? nil : conflict == .uniquenessCollision ? 133021 : 133020
        #expect(error?.code == expectedCode, "\(String(describing: error))")
    }

    /// Saves Alice (a@x) into `container`'s store; her ID.
    static func insertAlice(in container: PersistentContainer) throws -> ManagedObjectID {
        let context = container.newBackgroundContext()
        return try context.performAndWait {
            let author = ManagedObject(entity: container.persistentStoreCoordinator.managedObjectModel.entitiesByName["Author"]!, insertInto: context)
            author.setValue("Alice", forKey: "name")
            author.setValue("a@x", forKey: "email")
            try context.save()
            return author.objectID
        }
    }
}
