import Foundation
import GRDB
import ModelContext
import ModelStack
import ModelStore

// Times the object layer against GRDB and raw SQLite on one store file, in one run:
//   fetch: N objects of an entity with 10 integer attributes, every attribute read
//   insert: N objects inserted and saved, against prepared INSERTs in one transaction (Z_MAX included)
//   count: count(for:) against SELECT COUNT(*)
//   plan: the query plan of a predicate on the indexed attribute
//   seed: a new store of N rows through prepared statements (for fetch, count, plan and batches)
//   batches: N objects through a batch-faulting fetch of batch size 500, every attribute read
//   history: N objects inserted and saved into a store that tracks persistent history, against the same without
//   update: N fetched objects changed and saved (optimistic locking included), against UPDATEs by hand checking Z_OPT (best of 3 each)
//   merge: a background save updating N objects, and the merge of it into a context holding them
//   child: a child context's save of N new objects into its parent, against the parent's save of them to the store
//   results: a fetched results controller of N objects: the time from processPendingChanges (which
//     posts the objects-did-change of one object moved elsewhere in the order) to controllerDidChangeContent, median of 31
// Usage: object-layer-bench MODEL.xcdatamodeld STORE-FOLDER insert|seed|fetch|count|plan|batches|history|update|merge|child|results N

let arguments = CommandLine.arguments
guard arguments.count == 5, let count = Int(arguments[4]) else {
    FileHandle.standardError.write(Data("usage: object-layer-bench MODEL FOLDER insert|seed|fetch|count|plan|batches N\n".utf8))
    exit(64)
}
let (modelPath, folder, mode) = (arguments[1], arguments[2], arguments[3])

func seconds(_ body: () throws -> Void) rethrows -> Double {
    let start = DispatchTime.now()
    try body()
    return Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
}

/// The best of `runs` timings, so that a reading is the work and not the machine's other load.
func best(_ runs: Int, _ body: () throws -> Void) rethrows -> Double {
    var fastest = Double.infinity
    for _ in 0..<runs { fastest = min(fastest, try seconds(body)) }
    return fastest
}

func container(at path: String, history: Bool = false) async throws -> PersistentContainer {
    let container = try PersistentContainer(name: "Bench", model: URL(fileURLWithPath: modelPath))
    var description = StoreDescription(url: URL(fileURLWithPath: path))
    description.persistentHistoryTracking = history
    container.persistentStoreDescriptions = [description]
    try await container.loadPersistentStores()
    return container
}

/// The GRDB record of the same rows.
struct Item: FetchableRecord, Decodable {
    var ZA0: Int64, ZA1: Int64, ZA2: Int64, ZA3: Int64, ZA4: Int64, ZA5: Int64, ZA6: Int64, ZA7: Int64, ZA8: Int64, ZA9: Int64
}

let keys = (0..<10).map { "a\($0)" }
let storePath = "\(folder)/Bench.sqlite"

switch mode {
case "insert":
    for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: storePath + suffix) }
    let container = try await container(at: storePath)
    let context = container.newBackgroundContext()
    let objectTime = try context.performAndWait {
        let entity = container.persistentStoreCoordinator.managedObjectModel.entitiesByName["Item"]!
        return try seconds {
            for index in 0..<count {
                let item = ManagedObject(entity: entity, insertInto: context)
                for key in keys { item.setValue(Int64(index), forKey: key) }
            }
            try context.save()
        }
    }
    let database = container.database!
    let sqlTime = try seconds {
        try database.write { db in
            let maximum = try Int64.fetchOne(db, sql: "SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_NAME = 'Item'") ?? 0
            let statement = try db.makeStatement(
                sql: "INSERT INTO ZITEM(Z_PK, Z_ENT, Z_OPT, ZA0, ZA1, ZA2, ZA3, ZA4, ZA5, ZA6, ZA7, ZA8, ZA9) VALUES(?, 1, 1, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")
            for index in 0..<count {
                let value = Int64(index)
                try statement.execute(arguments: [maximum + Int64(index) + 1, value, value, value, value, value, value, value, value, value, value])
            }
            try db.execute(sql: "UPDATE Z_PRIMARYKEY SET Z_MAX = ? WHERE Z_NAME = 'Item'", arguments: [maximum + Int64(count)])
        }
    }
    print("insert \(count): context+save \(String(format: "%.3f", objectTime)) s, prepared statements \(String(format: "%.3f", sqlTime)) s, ratio \(String(format: "%.2f", objectTime / sqlTime))")
case "seed":
    for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: storePath + suffix) }
    let container = try await container(at: storePath)
    try container.database!.write { db in
        let statement = try db.makeStatement(
            sql: "INSERT INTO ZITEM(Z_PK, Z_ENT, Z_OPT, ZA0, ZA1, ZA2, ZA3, ZA4, ZA5, ZA6, ZA7, ZA8, ZA9) VALUES(?, 1, 1, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")
        for index in 0..<count {
            let value = Int64(index)
            try statement.execute(arguments: [value + 1, value, value, value, value, value, value, value, value, value, value])
        }
        try db.execute(sql: "UPDATE Z_PRIMARYKEY SET Z_MAX = ? WHERE Z_NAME = 'Item'", arguments: [count])
    }
    print("seeded \(count) rows")
case "batches":
    let container = try await container(at: storePath)
    let context = container.newBackgroundContext()
    var sink: Int64 = 0
    let time = try context.performAndWait {
        try seconds {
            let request = FetchRequest<ManagedObject>(entityName: "Item")
            request.fetchBatchSize = 500
            for object in try context.batchFaultingFetch(request) { for key in keys { sink &+= object.value(forKey: key) as? Int64 ?? 0 } }
        }
    }
    print("batches \(count): batch-faulting fetch of every object, batch size 500: \(String(format: "%.3f", time)) s (\(sink % 7))")
case "fetch":
    let container = try await container(at: storePath)
    let database = container.database!
    var sink: Int64 = 0
    let rawTime = try best(3) {
        try database.read { db in
            let statement = try db.makeStatement(sql: "SELECT ZA0, ZA1, ZA2, ZA3, ZA4, ZA5, ZA6, ZA7, ZA8, ZA9 FROM ZITEM")
            let cursor = try Row.fetchCursor(statement)
            while let row = try cursor.next() { for index in 0..<10 { sink &+= row[index] as Int64 } }
        }
    }
    let grdbTime = try best(3) {
        let items = try database.read { try Item.fetchAll($0, sql: "SELECT ZA0, ZA1, ZA2, ZA3, ZA4, ZA5, ZA6, ZA7, ZA8, ZA9 FROM ZITEM") }
        for item in items { sink &+= item.ZA0 &+ item.ZA1 &+ item.ZA2 &+ item.ZA3 &+ item.ZA4 &+ item.ZA5 &+ item.ZA6 &+ item.ZA7 &+ item.ZA8 &+ item.ZA9 }
    }
    let context = container.newBackgroundContext()
    let objectTime = try context.performAndWait {
        try best(3) {
            let objects = try context.fetch(FetchRequest<ManagedObject>(entityName: "Item"))
            for object in objects { for key in keys { sink &+= object.value(forKey: key) as? Int64 ?? 0 } }
        }
    }
    print("fetch \(count): rows (GRDB Row cursor) \(String(format: "%.3f", rawTime)) s, GRDB FetchableRecord \(String(format: "%.3f", grdbTime)) s, context \(String(format: "%.3f", objectTime)) s, ratio to GRDB \(String(format: "%.2f", objectTime / grdbTime)) (\(sink % 7))")
case "count":
    let container = try await container(at: storePath)
    let database = container.database!
    var total = 0
    let sqlTime = try best(5) { total = try database.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM ZITEM") ?? 0 } }
    let context = container.newBackgroundContext()
    let objectTime = try context.performAndWait { try best(5) { total = try context.count(for: FetchRequest<ManagedObject>(entityName: "Item")) } }
    print("count \(total): SELECT COUNT(*) \(String(format: "%.4f", sqlTime)) s, count(for:) \(String(format: "%.4f", objectTime)) s, ratio \(String(format: "%.2f", objectTime / sqlTime))")
case "plan":
    let container = try await container(at: storePath)
    let model = container.persistentStoreCoordinator.managedObjectModel
    var fetch = StoreFetch(entity: "Item")
    fetch.predicate = try FetchPredicate(format: "a0 == 42").node
    let statement = try fetch.select(model.rows.selectList(forTableOf: "Item"), layout: model.rows.layout, entities: model.rows.entities)
    let plan = try container.database!.read { db in
        try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + statement.sql, arguments: statement.arguments).map { $0["detail"] as String? ?? "" }
    }
    print("plan of a0 == 42: \(plan.joined(separator: "; "))")
case "history":
    /// Inserts and saves `count` objects into a new store, with or without history.
    func insertTime(history: Bool) async throws -> Double {
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: storePath + suffix) }
        let container = try await container(at: storePath, history: history)
        let context = container.newBackgroundContext()
        return try context.performAndWait {
            let entity = container.persistentStoreCoordinator.managedObjectModel.entitiesByName["Item"]!
            return try seconds {
                for index in 0..<count {
                    let item = ManagedObject(entity: entity, insertInto: context)
                    for key in keys { item.setValue(Int64(index), forKey: key) }
                }
                try context.save()
            }
        }
    }
    var (off, on) = (Double.infinity, Double.infinity)
    for _ in 0..<3 {
        off = min(off, try await insertTime(history: false))
        on = min(on, try await insertTime(history: true))
    }
    print("history \(count): save with history \(String(format: "%.3f", on)) s, without \(String(format: "%.3f", off)) s, ratio \(String(format: "%.2f", on / off))")
case "update":
    // The best of three rounds each side (every round updates the rows again), so that a reading
    // is the work and not the machine's other load.
    let container = try await container(at: storePath)
    let request = FetchRequest<ManagedObject>(entityName: "Item")
    request.fetchLimit = count
    var (objectTime, sqlTime) = (Double.infinity, Double.infinity)
    for _ in 0..<3 {
        let context = container.newBackgroundContext()
        objectTime = min(objectTime, try context.performAndWait {
            let objects = try context.fetch(request)
            return try seconds {
                for object in objects { object.setValue((object.value(forKey: "a1") as? Int64 ?? 0) + 1, forKey: "a1") }
                try context.save()
            }
        })
        sqlTime = min(sqlTime, try seconds {
            try container.database!.write { db in
                let rows = try Row.fetchAll(db, sql: "SELECT Z_PK, Z_OPT, ZA1 FROM ZITEM ORDER BY Z_PK LIMIT ?", arguments: [count])
                let statement = try db.makeStatement(sql: "UPDATE ZITEM SET ZA1 = ?, Z_OPT = ? WHERE Z_PK = ? AND Z_OPT = ?")
                for row in rows {
                    let (key, version, value): (Int64, Int64, Int64) = (row[0], row[1], row[2])
                    try statement.execute(arguments: [value + 1, version + 1, key, version])
                    guard db.changesCount == 1 else { throw DatabaseError(message: "conflict") }
                }
            }
        })
    }
    print("update \(count): context+save \(String(format: "%.3f", objectTime)) s, UPDATEs by hand \(String(format: "%.3f", sqlTime)) s, ratio \(String(format: "%.2f", objectTime / sqlTime))")
case "merge":
    let container = try await container(at: storePath)
    let (viewer, worker) = (container.newBackgroundContext(), container.newBackgroundContext())
    let request = FetchRequest<ManagedObject>(entityName: "Item")
    request.fetchLimit = count
    let held = try viewer.performAndWait { try viewer.fetch(request) }
    nonisolated(unsafe) var saved: Notification?
    let observer = NotificationCenter.default.addObserver(forName: ManagedObjectContext.didSaveObjectsNotification, object: worker, queue: nil) { saved = $0 }
    let saveTime = try worker.performAndWait {
        let objects = try worker.fetch(request)
        return try seconds {
            for object in objects { object.setValue((object.value(forKey: "a2") as? Int64 ?? 0) + 1, forKey: "a2") }
            try worker.save()
        }
    }
    NotificationCenter.default.removeObserver(observer)
    let mergeTime = viewer.performAndWait { seconds { if let saved { viewer.mergeChanges(fromContextDidSave: saved) } } }
    print("merge \(count): background save \(String(format: "%.3f", saveTime)) s, merge into a context holding them \(String(format: "%.3f", mergeTime)) s, ratio \(String(format: "%.2f", mergeTime / saveTime)) (\(held.count) held)")
case "child":
    var (childTime, rootTime) = (Double.infinity, Double.infinity)
    for _ in 0..<3 {
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: storePath + suffix) }
        let container = try await container(at: storePath)
        let root = container.newBackgroundContext()
        let child = ManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        child.parent = root
        childTime = min(childTime, try child.performAndWait {
            let entity = container.persistentStoreCoordinator.managedObjectModel.entitiesByName["Item"]!
            for index in 0..<count {
                let item = ManagedObject(entity: entity, insertInto: child)
                for key in keys { item.setValue(Int64(index), forKey: key) }
            }
            return try seconds { try child.save() }
        })
        rootTime = min(rootTime, try root.performAndWait { try seconds { try root.save() } })
    }
    print("child \(count): child save into its parent \(String(format: "%.3f", childTime)) s, root save to the store \(String(format: "%.3f", rootTime)) s, ratio \(String(format: "%.2f", childTime / rootTime))")
case "results":
    let container = try await container(at: storePath)
    let context = container.newBackgroundContext()
    let clock = ResultsClock()
    let times = try context.performAndWait {
        let request = FetchRequest<ManagedObject>(entityName: "Item")
        request.sortDescriptors = [FetchSortDescriptor(key: "a0")]
        let controller = FetchedResultsController(fetchRequest: request, managedObjectContext: context, sectionNameKeyPath: nil, cacheName: nil)
        controller.delegate = clock
        let fetchTime = try seconds { try controller.performFetch() }
        var times = [Double]()
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<31 {
            let object = controller.object(at: IndexPath(item: Int.random(in: 0..<count, using: &generator), section: 0))
            object.setValue(Int64.random(in: 0..<Int64(count), using: &generator), forKey: "a0")
            // processPendingChanges posts the objects-did-change the controller handles.
            clock.start()
            context.processPendingChanges()
            times.append(clock.elapsed)
        }
        print("results \(count): performFetch \(String(format: "%.3f", fetchTime)) s")
        return times.sorted()
    }
    print("results \(count): one changed object, objects-did-change to controllerDidChangeContent: median \(String(format: "%.1f", times[times.count / 2] * 1e6)) µs (min \(String(format: "%.1f", times[0] * 1e6)), max \(String(format: "%.1f", times[times.count - 1] * 1e6)))")
default:
    exit(64)
}

/// The delegate that times a change event, from the context's processing of its changes (which
/// posts objects-did-change) to controllerDidChangeContent; both on the context's queue.
final class ResultsClock: NSObject, FetchedResultsControllerDelegate {
    private var began: UInt64 = 0
    private(set) var elapsed: Double = 0

    func start() { began = DispatchTime.now().uptimeNanoseconds }

    func controllerDidChangeContent(_ controller: FetchedResultsController<any FetchRequestResult>) {
        elapsed = Double(DispatchTime.now().uptimeNanoseconds - began) / 1e9
    }
}
