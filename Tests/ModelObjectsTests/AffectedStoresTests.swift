import Foundation
import ModelObjects
import ModelStack
import Testing

/// The stores of a coordinator as objects (`NSPersistentStore`): listed in the order they were
/// added, with their file, configuration and UUID; named in a request's `affectedStores` to run
/// a fetch, a history request or a batch request in some stores only; and pinned together by a
/// query generation. The model and stores are MultipleStoreTests': `Item` in "Main", its
/// subentity `Memo` in "Scratch".
struct AffectedStoresTests {
    typealias Setup = MultipleStoreTests.Setup

    static func ranks(_ context: ManagedObjectContext, in stores: [PersistentStore]?) throws -> [Int64] {
        let request = FetchRequest<ManagedObject>(entityName: "Item")
        request.sortDescriptors = [FetchSortDescriptor(key: "rank")]
        request.affectedStores = stores
        return try context.fetch(request).map { $0.value(forKey: "rank") as? Int64 ?? -1 }
    }

    static func code(_ body: () throws -> Void) -> Int? {
        do {
            try body()
            return nil
        } catch {
            return (error as NSError).code
        }
    }

    @Test func theCoordinatorListsItsStoresInOrder() async throws {
        let setup = try Setup()
        let container = try await setup.container()
        let coordinator = container.persistentStoreCoordinator
        let stores = coordinator.persistentStores
        #expect(stores.map(\.configurationName) == ["Main", "Scratch"])
        #expect(stores.map { $0.url?.resolvingSymlinksInPath().path } == [setup.main, setup.scratch].map { $0.resolvingSymlinksInPath().path })
        #expect(stores.map(\.type) == ["SQLite", "SQLite"])
        #expect(stores.map(\.isReadOnly) == [false, false])
        // Each store's identifier is the NSStoreUUID its file holds.
        #expect(stores.map(\.identifier) == [
            try setup.rows(setup.main, "SELECT Z_UUID FROM Z_METADATA")[0], try setup.rows(setup.scratch, "SELECT Z_UUID FROM Z_METADATA")[0],
        ])
        #expect(coordinator.persistentStore(for: setup.scratch) === stores[1])
        #expect(coordinator.persistentStore(for: setup.folder.appendingPathComponent("Other.sqlite")) == nil)
        #expect(coordinator.persistentStore(withIdentifier: stores[0].identifier) === stores[0])
        #expect(coordinator.persistentStores.map(ObjectIdentifier.init) == stores.map(ObjectIdentifier.init))

        // One store of the default configuration bears Core Data's name for it; none before loading.
        let single = try await ContextTestSupport.container(in: nil)
        #expect(single.persistentStoreCoordinator.persistentStores.map(\.configurationName) == ["PF_DEFAULT_CONFIGURATION_NAME"])
        #expect(single.persistentStoreCoordinator.persistentStores.first?.url == nil)
        let unloaded = try PersistentContainer(name: "Notes", model: setup.model)
        #expect(unloaded.persistentStoreCoordinator.persistentStores.isEmpty)
    }

    @Test func aFetchReadsOnlyItsAffectedStores() async throws {
        let setup = try Setup()
        let container = try await setup.container()
        let other = try await ContextTestSupport.container(in: nil)
        let stores = container.persistentStoreCoordinator.persistentStores
        let context = container.newBackgroundContext()
        try context.performAndWait {
            try MultipleStoreTests.fill(context)
            #expect(try Self.ranks(context, in: nil) == [1, 2, 3, 4, 5, 6])
            #expect(try Self.ranks(context, in: [stores[0]]) == [1, 3, 5])
            #expect(try Self.ranks(context, in: [stores[1]]) == [2, 4, 6])
            #expect(try Self.ranks(context, in: []) == [])
            let count = FetchRequest<ManagedObject>(entityName: "Item")
            count.affectedStores = [stores[1]]
            #expect(try context.count(for: count) == 3)
            let dictionaries = FetchRequest<NSDictionary>(entityName: "Item")
            dictionaries.affectedStores = [stores[0]]
            #expect(try context.fetch(dictionaries).count == 3)

            // A new object is counted in the store it will be saved to.
            let entities = context.persistentStoreCoordinator!.managedObjectModel.entitiesByName
            ManagedObject(entity: entities["Memo"]!, insertInto: context).setValue(Int64(8), forKey: "rank")
            #expect(try Self.ranks(context, in: [stores[0]]) == [1, 3, 5])
            #expect(try Self.ranks(context, in: [stores[1]]) == [2, 4, 6, 8])

            // A store of another coordinator is refused.
            #expect(Self.code { _ = try Self.ranks(context, in: other.persistentStoreCoordinator.persistentStores) } == 134060)
        }
    }

    @Test func historyAndBatchRequestsRunInTheirAffectedStores() async throws {
        let setup = try Setup()
        let container = try await setup.container(history: true)
        let stores = container.persistentStoreCoordinator.persistentStores
        let context = container.newBackgroundContext()
        try context.performAndWait {
            try MultipleStoreTests.fill(context)
            let scratchOnly = HistoryChangeRequest.fetchHistory(after: nil as HistoryToken?)
            scratchOnly.affectedStores = [stores[1]]
            let transactions = try context.execute(scratchOnly).transactions
            #expect(transactions.map(\.token.storeIdentifier) == [stores[1].identifier])
            #expect(transactions.flatMap(\.changes).map(\.changedObjectID.entityName) == ["Memo", "Memo", "Memo"])

            // A batch update of Person runs in Main, Person's store: left out, it changes nothing.
            let entities = context.persistentStoreCoordinator!.managedObjectModel.entitiesByName
            ManagedObject(entity: entities["Person"]!, insertInto: context).setValue("Ann", forKey: "name")
            try context.save()
            let update = BatchUpdateRequest(entityName: "Person")
            update.propertiesToUpdate = ["name": "Bea"]
            update.resultType = .count
            update.affectedStores = [stores[1]]
            #expect(try context.execute(update).result as? Int == 0)
            update.affectedStores = [stores[0]]
            #expect(try context.execute(update).result as? Int == 1)
        }
        #expect(try setup.rows(setup.main, "SELECT ZNAME FROM ZPERSON") == ["Bea"])
    }

    /// A pinned context reads every store as of its generation; before, only the first store was pinned.
    @Test func aQueryGenerationPinsEveryStore() async throws {
        let setup = try Setup()
        let container = try await setup.container()
        let pinned = container.newBackgroundContext()
        let writer = container.newBackgroundContext()
        try writer.performAndWait { try MultipleStoreTests.fill(writer) }
        try pinned.performAndWait {
            try pinned.setQueryGenerationFrom(.current)
            #expect(try Self.ranks(pinned, in: nil) == [1, 2, 3, 4, 5, 6])
        }
        try writer.performAndWait {
            let entities = writer.persistentStoreCoordinator!.managedObjectModel.entitiesByName
            for (entity, rank) in [("Item", 7), ("Memo", 8)] {
                ManagedObject(entity: entities[entity]!, insertInto: writer).setValue(Int64(rank), forKey: "rank")
            }
            try writer.save()
        }
        try pinned.performAndWait {
            #expect(try Self.ranks(pinned, in: nil) == [1, 2, 3, 4, 5, 6])
            #expect(try pinned.count(for: FetchRequest<ManagedObject>(entityName: "Memo")) == 3)
            try pinned.setQueryGenerationFrom(.current)
            #expect(try Self.ranks(pinned, in: nil) == [1, 2, 3, 4, 5, 6, 7, 8])
        }
    }
}
