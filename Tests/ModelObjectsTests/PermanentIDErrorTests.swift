import Foundation
import GRDB
import ModelObjects
import ModelStack
import ModelStore
import Testing
import _ModelTestSupport

/// `obtainPermanentIDs(for:)` writes `Z_PRIMARYKEY` outside a save: a store it cannot write fails
/// as a save does, with Core Data's 134030 (`NSPersistentStoreSaveError`) and SQLite's code in
/// `NSSQLiteErrorDomain`, not GRDB's `DatabaseError`; a `Z_MAX` that is no integer is a corrupt
/// store, not keys handed out again from 1. A fetch that SQLite fails is Core Data's 256
/// (`NSFileReadUnknownError`) with SQLite's code, as apps see from a fetch of a broken store.
struct PermanentIDErrorTests {
    /// A container on a new Library store in `folder` that waits `timeout` seconds for a lock.
    private static func container(in folder: URL, timeout: TimeInterval) async throws -> PersistentContainer {
        let container = try PersistentContainer(name: "Library", model: URL(fileURLWithPath: ContextTestSupport.library))
        var description = StoreDescription(url: folder.appendingPathComponent("Library.sqlite"))
        description.timeout = timeout
        container.persistentStoreDescriptions = [description]
        try await container.loadPersistentStores()
        return container
    }

    /// The error `obtainPermanentIDs` throws for a new author, or nil.
    private static func obtainError(_ context: ManagedObjectContext) -> (any Error)? {
        context.performAndWait {
            let model = context.persistentStoreCoordinator!.managedObjectModel
            let author = ManagedObject(entity: model.entitiesByName["Author"]!, insertInto: context)
            do {
                try context.obtainPermanentIDs(for: [author])
                return nil
            } catch {
                return error
            }
        }
    }

    @Test func aStoreLockedByAnotherProcessIs134030() async throws {
        let folder = try StackFolder()
        defer { folder.remove() }
        let container = try await Self.container(in: folder.url, timeout: 0.2)
        let locker = try StoreLocker(folder.url.appendingPathComponent("Library.sqlite").path)
        defer { locker.stop() }
        let error = Self.obtainError(container.newBackgroundContext())
        #expect(!(error is DatabaseError), "\(String(describing: error))")
        let reported = error.map { $0 as NSError }
        #expect(reported?.domain == NSCocoaErrorDomain && reported?.code == 134030, "\(String(describing: error))")
        #expect(reported?.userInfo[NSSQLiteErrorDomain] as? Int == 5)  // SQLITE_BUSY
    }

    @Test func aMissingPrimaryKeyTableIs134030() async throws {
        let folder = try StackFolder()
        defer { folder.remove() }
        let container = try await Self.container(in: folder.url, timeout: 1)
        try await container.database!.write { try $0.execute(sql: "DROP TABLE Z_PRIMARYKEY") }
        let error = Self.obtainError(container.newBackgroundContext())
        #expect(!(error is DatabaseError), "\(String(describing: error))")
        let reported = error.map { $0 as NSError }
        #expect(reported?.domain == NSCocoaErrorDomain && reported?.code == 134030, "\(String(describing: error))")
        #expect(reported?.userInfo[NSSQLiteErrorDomain] as? Int == 1)  // SQLITE_ERROR: no such table
    }

    @Test(arguments: ["'x'", "9223372036854775807"])
    func aMaximumKeyThatIsNoIntegerOrLeavesNoRoomIsACorruptStore(_ value: String) async throws {
        let folder = try StackFolder()
        defer { folder.remove() }
        let container = try await Self.container(in: folder.url, timeout: 1)
        try await container.database!.write { try $0.execute(sql: "UPDATE Z_PRIMARYKEY SET Z_MAX = \(value)") }
        let error = Self.obtainError(container.newBackgroundContext())
        let corrupt = try #require(error as? StoreError, "\(String(describing: error))")
        #expect(corrupt.errorClass == .corrupt && corrupt.code == 259)
        #expect(corrupt.message.contains("Z_PRIMARYKEY") && corrupt.message.contains("Z_MAX"), "\(corrupt.message)")
    }

    @Test func aFetchThatSQLiteFailsIs256() async throws {
        let folder = try StackFolder()
        defer { folder.remove() }
        let container = try await Self.container(in: folder.url, timeout: 1)
        try await container.database!.write { try $0.execute(sql: "DROP TABLE ZAUTHOR") }
        let context = container.newBackgroundContext()
        let error = context.performAndWait { () -> (any Error)? in
            do {
                _ = try context.fetch(FetchRequest<ManagedObject>(entityName: "Author"))
                return nil
            } catch {
                return error
            }
        }
        #expect(!(error is DatabaseError), "\(String(describing: error))")
        let reported = error.map { $0 as NSError }
        #expect(reported?.domain == NSCocoaErrorDomain && reported?.code == 256, "\(String(describing: error))")
        #expect(reported?.userInfo[NSSQLiteErrorDomain] as? Int == 1)  // SQLITE_ERROR: no such table
    }
}
