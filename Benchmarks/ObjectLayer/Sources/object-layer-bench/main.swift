import BenchFixtures
import CHeap
import Foundation
import GRDB
import ModelObjects
import ModelStack

// What package-benchmark cannot measure of the object layer (ObjectLayerBenchmarks times fetch,
// insert, update and count side by side with GRDB), on one store file:
//   fetch: a cross-check without the malloc interposer: GRDB init(row:) and a fresh context, alternated
//   insert-vs-grdb: N objects inserted and saved, against prepared INSERTs, alternated on an emptied store
//   update-vs-grdb: N objects fetched, changed and saved, against hand UPDATEs checking Z_OPT, alternated
//   count: count(for:) against SELECT COUNT(*) on the store seed made, alternated, N rounds
//   objects: N objects fetched into a fresh context five times, every attribute read (a workload to profile)
//   shelf: the Library-shaped store's books (N ignored): GRDB init(row:) and a fresh context, alternated (a workload to profile)
//   memory: heap bytes held per fetched object, against per GRDB record
//   plan: the query plan of a predicate on the indexed attribute
//   seed: a new store of N rows through prepared statements (for fetch, memory, plan and batches)
//   batches: N objects through a batch-faulting fetch of batch size 500, every attribute read
//   history: N objects inserted and saved into a store that tracks persistent history, against the same without
//   merge: a background save updating N objects, and the merge of it into a context holding them
//   child: a child context's save of N new objects into its parent, against the parent's save of them to the store
//   inserts: N objects made with init(context:) and typed setters, and saved, five rounds (a workload to profile)
//   updates: N objects fetched, one typed setter each, and saved, five rounds (a workload to profile)
//   results: a fetched results controller of N objects: the time from processPendingChanges (which
//     posts the objects-did-change of one object moved elsewhere in the order) to controllerDidChangeContent, median of 31
// Usage: object-layer-bench MODEL.xcdatamodeld STORE-FOLDER seed|fetch|insert-vs-grdb|update-vs-grdb|count|objects|shelf|inserts|updates|memory|plan|batches|history|merge|child|results N

let arguments = CommandLine.arguments
guard arguments.count == 5, let count = Int(arguments[4]) else {
    FileHandle.standardError.write(Data("usage: object-layer-bench MODEL FOLDER seed|fetch|insert-vs-grdb|update-vs-grdb|count|objects|shelf|inserts|updates|memory|plan|batches|history|merge|child|results N\n".utf8))
    exit(64)
}
let (modelPath, folder, mode) = (arguments[1], arguments[2], arguments[3])

func seconds(_ body: () throws -> Void) rethrows -> Double {
    let start = DispatchTime.now()
    try body()
    return Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
}

/// The shortest of five rounds of `round`, each on the queue of a fresh background context of
/// `container`; `round` returns the seconds it timed.
func fiveRounds(in container: PersistentContainer, _ round: (ManagedObjectContext) throws -> Double) throws -> Double {
    var times = [Double]()
    for _ in 0..<5 {
        let context = container.newBackgroundContext()
        times.append(try context.performAndWait { try round(context) })
    }
    return times.min() ?? 0
}

/// `rounds` rounds of `record` (GRDB) and `object` (on the queue of a fresh background context of
/// `container`), alternated so that neither side runs in a quieter stretch, `prepare` run untimed
/// before each; prints each side's best and median times and the ratios of the best and of the
/// medians after `label`. On a noisy machine the best is the steadier figure: noise only adds.
func alternated(
    _ label: String, in container: PersistentContainer, rounds: Int = 7, baseline: String = "GRDB init(row:)", side: String = "fresh context (typed)",
    prepare: () throws -> Void = {},
    record: () throws -> Void, object: (ManagedObjectContext) throws -> Void
) throws {
    var (recordTimes, objectTimes) = ([Double](), [Double]())
    for _ in 0..<rounds {
        try prepare()
        recordTimes.append(try seconds(record))
        try prepare()
        let context = container.newBackgroundContext()
        objectTimes.append(try context.performAndWait { try seconds { try object(context) } })
    }
    let (record, object) = (recordTimes.sorted(), objectTimes.sorted())
    let (best, median) = (object[0] / record[0], object[rounds / 2] / record[rounds / 2])
    // Seconds to three places, or milliseconds for what takes less than ten of them.
    func time(_ seconds: Double) -> String {
        seconds < 0.01 ? String(format: "%.3f ms", seconds * 1e3) : String(format: "%.3f s", seconds)
    }
    print(
        "\(label): \(baseline) min \(time(record[0])) median \(time(record[rounds / 2])), "
            + "\(side) min \(time(object[0])) median \(time(object[rounds / 2])), "
            + "ratio of the best \(String(format: "%.2f", best)), of medians \(String(format: "%.2f", median))", terminator: "")
}

func container(at path: String, history: Bool = false) async throws -> PersistentContainer {
    let container = try PersistentContainer(name: "Bench", model: URL(fileURLWithPath: modelPath))
    var description = StoreDescription(url: URL(fileURLWithPath: path))
    description.persistentHistoryTracking = history
    container.persistentStoreDescriptions = [description]
    try await container.loadPersistentStores()
    return container
}

/// Prints the heap bytes held per row read by `sql` into `Struct` records and into `Final`
/// records, and per object `fetch` returns from a fresh context of `container`: malloc's in-use
/// bytes before and after each, all three kept alive until measured. Each side reads once first,
/// unmeasured, so that neither pays for the page cache its connection fills on a first read
/// (about 2 MB, bounded, not per object).
func heldBytes<Struct: FetchableRecord, Final: FetchableRecord, Object>(
    _ name: String, in container: PersistentContainer, sql: String, _: Struct.Type, _: Final.Type,
    fetch: (ManagedObjectContext) throws -> [Object]
) throws {
    let database = try BenchStores.database(of: container)
    func heap() -> Int { Int(cheap_bytes_in_use()) }
    _ = try database.read { try Final.fetchAll($0, sql: sql).count }
    let warmup = container.newBackgroundContext()
    _ = try fetch(warmup).count
    warmup.performAndWait { warmup.reset() }
    var before = heap()
    let rows = try database.read { try Struct.fetchAll($0, sql: sql) }
    let rowBytes = Double(heap() - before) / Double(rows.count)
    before = heap()
    let finals = try database.read { try Final.fetchAll($0, sql: sql) }
    let finalBytes = Double(heap() - before) / Double(finals.count)
    let context = container.newBackgroundContext()
    before = heap()
    let objects = try fetch(context)
    let objectBytes = Double(heap() - before) / Double(objects.count)
    print("memory per \(name), \(objects.count) held: GRDB init(row:) struct \(Int(rowBytes)) B, final class \(Int(finalBytes)) B, registered object \(Int(objectBytes)) B, ratio to the final class \(String(format: "%.2f", objectBytes / finalBytes))")
    withExtendedLifetime((rows, finals, objects, context)) {}
}

let keys = (0..<10).map { "a\($0)" }
let storePath = "\(folder)/Bench.sqlite"

switch mode {
case "seed":
    for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: storePath + suffix) }
    let container = try await container(at: storePath)
    try BenchStores.database(of: container).write { db in
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
    // A cross-check of package-benchmark's fetch figures in a process without its malloc
    // interposer: GRDB's init(row:) record and a fresh context, alternated, best and median of 7.
    let container = try await container(at: storePath)
    let database = try BenchStores.database(of: container)
    var sink: Int64 = 0
    try alternated("fetch \(count)", in: container) {
        let rows = try database.read { try ItemRow.fetchAll($0, sql: ItemRow.select) }
        for row in rows { sink &+= row.sum }
    } object: { context in
        for item in try context.fetch(Item.fetchRequest()) {
            sink &+= item.a0 &+ item.a1 &+ item.a2 &+ item.a3 &+ item.a4 &+ item.a5 &+ item.a6 &+ item.a7 &+ item.a8 &+ item.a9
        }
    }
    print(" (\(sink % 7))")
case "insert-vs-grdb":
    // Insert and save against prepared INSERTs, 15 rounds alternated in one process, the table
    // emptied (untimed) before each side's round.
    let container = try await container(at: storePath)
    let database = try BenchStores.database(of: container)
    try alternated("insert \(count)", in: container, rounds: 15, baseline: "prepared INSERTs") {
        try database.write { db in
            try db.execute(sql: "DELETE FROM ZITEM")
            try db.execute(sql: "UPDATE Z_PRIMARYKEY SET Z_MAX = 0 WHERE Z_NAME = 'Item'")
        }
    } record: {
        try BenchStores.insertItemsByHand(database, count: count)
    } object: { context in
        BenchStores.insertItems(into: context, count: count)
        try context.save()
    }
    print()
case "update-vs-grdb":
    // Fetch, change and save against hand UPDATEs, 15 rounds alternated in one process, on the
    // store `seed` made (each round adds one to `a1` of the first N rows).
    let container = try await container(at: storePath)
    let database = try BenchStores.database(of: container)
    try alternated("update \(count)", in: container, rounds: 15, baseline: "hand UPDATEs") {
        try BenchStores.updateItemsByHand(database, count: count)
    } object: { context in
        try BenchStores.updateItems(in: context, count: count)
    }
    print()
case "count":
    // count(for:) against SELECT COUNT(*), alternated in one process: a fraction of a
    // millisecond each, which package-benchmark's separate processes measure with the store's
    // state after the benchmarks before (its WAL) as much as the count itself.
    let container = try await container(at: storePath)
    let database = try BenchStores.database(of: container)
    var sink = 0
    try alternated("count", in: container, rounds: count, baseline: "SELECT COUNT(*)", side: "count(for:)") {
        sink &+= try database.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM ZITEM") ?? 0 }
    } object: { context in
        sink &+= try context.count(for: FetchRequest<ManagedObject>(entityName: "Item"))
    }
    print(" (\(sink % 7))")
case "objects":
    let container = try await container(at: storePath)
    var sink: Int64 = 0
    for _ in 0..<5 {
        let context = container.newBackgroundContext()
        try context.performAndWait {
            for item in try context.fetch(Item.fetchRequest()) {
                sink &+= item.a0 &+ item.a1 &+ item.a2 &+ item.a3 &+ item.a4 &+ item.a5 &+ item.a6 &+ item.a7 &+ item.a8 &+ item.a9
            }
        }
    }
    print("objects \(count): five fresh-context fetches (\(sink % 7))")
case "shelf":
    // The Library-shaped fetch, strings, a date and a to-one's presence read from every book:
    // GRDB's init(row:) record and a fresh context, alternated, best and median of 7.
    let container = try await BenchStores.shelf()
    let database = try BenchStores.database(of: container)
    var sink = 0
    try alternated("shelf \(BenchStores.bookCount)", in: container) {
        for book in try database.read({ try BookRow.fetchAll($0, sql: BookRow.select) }) {
            sink &+= bookSink(pageCount: book.pageCount, title: book.title, isbn: book.isbn, publishedAt: book.publishedAt, hasAuthor: book.authorID != nil)
        }
    } object: { context in
        for book in try context.fetch(Book.fetchRequest()) {
            sink &+= bookSink(pageCount: book.pageCount, title: book.title, isbn: book.isbn, publishedAt: book.publishedAt, hasAuthor: book.author != nil)
        }
    }
    print(" (\(sink % 7))")
case "memory":
    // Bytes the heap holds per fetched object, against per GRDB record (a struct in an array, a
    // final class): the ten-integer item, then the Library-shaped book with the shelf fetch's
    // fields read (the author's presence through the to-one, which holds the author's fault,
    // shared by the author's books, as Core Data's does) against records holding the author's key.
    try heldBytes("object", in: try await container(at: storePath), sql: ItemRow.select, ItemRow.self, ItemObjectRow.self) { context in
        try context.performAndWait {
            let items = try context.fetch(Item.fetchRequest())
            for item in items { _ = item.a9 }
            return items
        }
    }
    try heldBytes("book", in: try await BenchStores.shelf(), sql: BookRow.select, BookRow.self, BookObjectRow.self) { context in
        try context.performAndWait {
            let books = try context.fetch(Book.fetchRequest())
            var sink = 0
            for book in books {
                sink &+= bookSink(pageCount: book.pageCount, title: book.title, isbn: book.isbn, publishedAt: book.publishedAt, hasAuthor: book.author != nil)
            }
            precondition(sink != 0)
            return books
        }
    }
case "plan":
    // The statement the object layer runs for a fetch of Item with `a0 == 42` (every column of
    // the entity's table as t0, the predicate on its column, the order by Z_PK: the shape
    // StoreFetchSQLTests pin), asked of SQLite through a GRDB pool, the layer's own being private.
    let container = try await container(at: storePath)
    let columns = (["Z_PK", "Z_ENT", "Z_OPT"] + keys.map { "Z" + $0.uppercased() }).map { "t0." + $0 }
    let sql = "SELECT \(columns.joined(separator: ", ")) FROM ZITEM t0 WHERE t0.ZA0 = ?1 ORDER BY t0.Z_PK"
    let plan = try BenchStores.database(of: container).read { db in
        try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + sql, arguments: [42]).map { $0["detail"] as String? ?? "" }
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
case "inserts":
    // N new objects through init(context:) and the typed setters, then one save, into a store
    // emptied first (a workload to profile).
    let container = try await container(at: storePath)
    let best = try fiveRounds(in: container) { context in
        try BenchStores.database(of: container).write { db in
            try db.execute(sql: "DELETE FROM ZITEM")
            try db.execute(sql: "UPDATE Z_PRIMARYKEY SET Z_MAX = 0 WHERE Z_NAME = 'Item'")
        }
        return try seconds {
            BenchStores.insertItems(into: context, count: count)
            try context.save()
        }
    }
    print("inserts \(count): init(context:), ten typed setters and one save: min \(String(format: "%.3f", best)) s")
case "updates":
    // N objects fetched, one attribute of each changed through its typed accessor, and saved, on
    // the store `seed` made (a workload to profile).
    let container = try await container(at: storePath)
    let best = try fiveRounds(in: container) { context in
        try seconds {
            let request = Item.fetchRequest()
            request.fetchLimit = count
            for item in try context.fetch(request) { item.a1 &+= 1 }
            try context.save()
        }
    }
    print("updates \(count): fetch, one typed setter each and one save: min \(String(format: "%.3f", best)) s")
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
