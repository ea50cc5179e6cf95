import BenchFixtures
import Benchmark
import Foundation
import GRDB
import ModelObjects
import ModelStack

// The object layer side by side with GRDB on the same store file, both sides timing the same
// work. package-benchmark runs every benchmark in a process of its own (so run order cannot favour
// a side), after one warm-up iteration, and reports percentiles of the iterations.
// Run: Benchmarks/object-layer.sh (or `swift package benchmark` in Benchmarks/ObjectLayer).

/// What every benchmark here reports: time, and the allocations the malloc interposer counts;
/// `OBJECT_LAYER_ITERATIONS` bounds the timed iterations (9 unless set, 3 for a smoke run).
func configuration() -> Benchmark.Configuration {
    Benchmark.Configuration(
        metrics: [.wallClock, .cpuTotal, .mallocCountTotal, .mallocBytesCount, .peakMemoryResident],
        timeUnits: .microseconds,
        warmupIterations: 1,
        maxDuration: .seconds(10),
        maxIterations: ProcessInfo.processInfo.environment["OBJECT_LAYER_ITERATIONS"].flatMap(Int.init) ?? 9
    )
}

/// The ten attribute names, for the `value(forKey:)` side.
let keys = (0..<10).map { "a\($0)" }

/// The rows the update benchmarks change, fetch included.
let updateCount = 10_000
/// The objects the insert benchmarks insert and save.
let insertCount = 50_000

/// Runs `body` as written: in a benchmark's async closure, GRDB's synchronous `read` and `write`
/// are chosen inside it rather than their async overloads, which hop to another thread.
func synchronously<T>(_ body: () throws -> T) rethrows -> T { try body() }

/// The sum of an object's ten attributes through the accessors `modelc generate` writes.
func typedSum(_ item: Item) -> Int64 {
    item.a0 &+ item.a1 &+ item.a2 &+ item.a3 &+ item.a4 &+ item.a5 &+ item.a6 &+ item.a7 &+ item.a8 &+ item.a9
}

/// The sum of an object's ten attributes through `value(forKey:)`.
func keyedSum(_ object: ManagedObject) -> Int64 {
    var sum: Int64 = 0
    for key in keys { sum &+= object.value(forKey: key) as? Int64 ?? 0 }
    return sum
}

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = configuration()

    // MARK: fetch 200,000 × 10 integers

    Benchmark("fetch 200k · GRDB init(row:) struct") { benchmark in
        let database = try BenchStores.database(of: try await BenchStores.items())
        for _ in benchmark.scaledIterations { try synchronously {
            benchmark.startMeasurement()
            let rows = try database.read { try ItemRow.fetchAll($0, sql: ItemRow.select) }
            var sum: Int64 = 0
            for row in rows { sum &+= row.sum }
            benchmark.stopMeasurement()
            blackHole((rows, sum))
        } }
    }
    Benchmark("fetch 200k · GRDB init(row:) final class") { benchmark in
        let database = try BenchStores.database(of: try await BenchStores.items())
        for _ in benchmark.scaledIterations { try synchronously {
            benchmark.startMeasurement()
            let rows = try database.read { try ItemObjectRow.fetchAll($0, sql: ItemRow.select) }
            var sum: Int64 = 0
            for row in rows { sum &+= row.sum }
            benchmark.stopMeasurement()
            blackHole((rows, sum))
        } }
    }
    Benchmark("fetch 200k · GRDB Decodable") { benchmark in
        let database = try BenchStores.database(of: try await BenchStores.items())
        for _ in benchmark.scaledIterations { try synchronously {
            benchmark.startMeasurement()
            let rows = try database.read { try ItemDecodable.fetchAll($0, sql: ItemRow.select) }
            var sum: Int64 = 0
            for row in rows { sum &+= row.sum }
            benchmark.stopMeasurement()
            blackHole((rows, sum))
        } }
    }
    Benchmark("fetch 200k · context fresh · typed accessors") { benchmark in
        let container = try await BenchStores.items()
        for _ in benchmark.scaledIterations {
            let context = container.newBackgroundContext()
            try context.performAndWait {
                benchmark.startMeasurement()
                let items = try context.fetch(Item.fetchRequest())
                var sum: Int64 = 0
                for item in items { sum &+= typedSum(item) }
                benchmark.stopMeasurement()
                blackHole((items, sum))
            }
        }
    }
    Benchmark("fetch 200k · context fresh · value(forKey:)") { benchmark in
        let container = try await BenchStores.items()
        for _ in benchmark.scaledIterations {
            let context = container.newBackgroundContext()
            try context.performAndWait {
                benchmark.startMeasurement()
                let objects = try context.fetch(FetchRequest<ManagedObject>(entityName: "Item"))
                var sum: Int64 = 0
                for object in objects { sum &+= keyedSum(object) }
                benchmark.stopMeasurement()
                blackHole((objects, sum))
            }
        }
    }
    Benchmark("fetch 200k · context warm · typed accessors") { benchmark in
        let container = try await BenchStores.items()
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let held = try context.fetch(Item.fetchRequest())
            for _ in benchmark.scaledIterations {
                benchmark.startMeasurement()
                let items = try context.fetch(Item.fetchRequest())
                var sum: Int64 = 0
                for item in items { sum &+= typedSum(item) }
                benchmark.stopMeasurement()
                blackHole((items, sum))
            }
            blackHole(held)
        }
        blackHole(container)
    }
    Benchmark("fetch 200k · context warm · value(forKey:)") { benchmark in
        let container = try await BenchStores.items()
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let request = FetchRequest<ManagedObject>(entityName: "Item")
            let held = try context.fetch(request)
            for _ in benchmark.scaledIterations {
                benchmark.startMeasurement()
                let objects = try context.fetch(request)
                var sum: Int64 = 0
                for object in objects { sum &+= keyedSum(object) }
                benchmark.stopMeasurement()
                blackHole((objects, sum))
            }
            blackHole(held)
        }
        blackHole(container)
    }

    // MARK: insert + save 50,000

    Benchmark("insert 50k · prepared INSERTs + Z_MAX") { benchmark in
        for _ in benchmark.scaledIterations {
            let database = try BenchStores.database(of: try await BenchStores.items(rows: 0, name: "Insert"))
            try synchronously {
            benchmark.startMeasurement()
            try BenchStores.insertItemsByHand(database, count: insertCount)
            benchmark.stopMeasurement()
            }
        }
    }
    Benchmark("insert 50k · context + save · typed accessors") { benchmark in
        for _ in benchmark.scaledIterations {
            let container = try await BenchStores.items(rows: 0, name: "Insert")
            let context = container.newBackgroundContext()
            try context.performAndWait {
                benchmark.startMeasurement()
                BenchStores.insertItems(into: context, count: insertCount)
                try context.save()
                benchmark.stopMeasurement()
            }
            blackHole(container)
        }
    }
    Benchmark("insert 50k · context + save · setValue(forKey:)") { benchmark in
        for _ in benchmark.scaledIterations {
            let container = try await BenchStores.items(rows: 0, name: "Insert")
            let context = container.newBackgroundContext()
            try context.performAndWait {
                guard let entity = container.persistentStoreCoordinator.managedObjectModel.entitiesByName["Item"] else { return }
                benchmark.startMeasurement()
                for index in 0..<insertCount {
                    let item = ManagedObject(entity: entity, insertInto: context)
                    for key in keys { item.setValue(Int64(index), forKey: key) }
                }
                try context.save()
                benchmark.stopMeasurement()
            }
        }
    }

    // MARK: update 10,000 fetched objects and save, the fetch inside the timer on both sides

    Benchmark("update 10k · hand UPDATEs checking Z_OPT") { benchmark in
        let database = try BenchStores.database(of: try await BenchStores.items())
        for _ in benchmark.scaledIterations { try synchronously {
            benchmark.startMeasurement()
            try BenchStores.updateItemsByHand(database, count: updateCount)
            benchmark.stopMeasurement()
        } }
    }
    Benchmark("update 10k · context fetch + save · typed accessors") { benchmark in
        let container = try await BenchStores.items()
        for _ in benchmark.scaledIterations {
            let context = container.newBackgroundContext()
            try context.performAndWait {
                benchmark.startMeasurement()
                try BenchStores.updateItems(in: context, count: updateCount)
                benchmark.stopMeasurement()
            }
        }
    }
    Benchmark("update 10k · context fetch + save · value(forKey:)") { benchmark in
        let container = try await BenchStores.items()
        for _ in benchmark.scaledIterations {
            let context = container.newBackgroundContext()
            try context.performAndWait {
                let request = FetchRequest<ManagedObject>(entityName: "Item")
                request.fetchLimit = updateCount
                benchmark.startMeasurement()
                for object in try context.fetch(request) {
                    object.setValue((object.value(forKey: "a1") as? Int64 ?? 0) &+ 1, forKey: "a1")
                }
                try context.save()
                benchmark.stopMeasurement()
            }
        }
    }

    // MARK: count

    Benchmark("count 200k · SELECT COUNT(*)") { benchmark in
        let database = try BenchStores.database(of: try await BenchStores.items())
        for _ in benchmark.scaledIterations { try synchronously {
            benchmark.startMeasurement()
            let total = try database.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM ZITEM") ?? 0 }
            benchmark.stopMeasurement()
            blackHole(total)
        } }
    }
    Benchmark("count 200k · count(for:)") { benchmark in
        let container = try await BenchStores.items()
        let context = container.newBackgroundContext()
        try context.performAndWait {
            for _ in benchmark.scaledIterations {
                benchmark.startMeasurement()
                let total = try context.count(for: FetchRequest<ManagedObject>(entityName: "Item"))
                benchmark.stopMeasurement()
                blackHole(total)
            }
        }
        blackHole(container)
    }

    // MARK: a Library-shaped entity: strings, a date, an optional to-one, a to-many fault

    Benchmark("shelf fetch 100k books · GRDB init(row:) + belongsTo key") { benchmark in
        let database = try BenchStores.database(of: try await BenchStores.shelf())
        for _ in benchmark.scaledIterations { try synchronously {
            benchmark.startMeasurement()
            let books = try database.read { try BookRow.fetchAll($0, sql: BookRow.select) }
            var sink = 0
            for book in books {
                sink &+= bookSink(
                    pageCount: book.pageCount, title: book.title, isbn: book.isbn, publishedAt: book.publishedAt, hasAuthor: book.authorID != nil)
            }
            benchmark.stopMeasurement()
            blackHole((books, sink))
        } }
    }
    Benchmark("shelf fetch 100k books · GRDB Decodable") { benchmark in
        let database = try BenchStores.database(of: try await BenchStores.shelf())
        for _ in benchmark.scaledIterations { try synchronously {
            benchmark.startMeasurement()
            let books = try database.read { try BookDecodable.fetchAll($0, sql: BookRow.select) }
            var sink = 0
            for book in books {
                sink &+= bookSink(
                    pageCount: book.ZPAGECOUNT, title: book.ZTITLE, isbn: book.ZISBN, publishedAt: book.publishedAt, hasAuthor: book.ZAUTHOR != nil)
            }
            benchmark.stopMeasurement()
            blackHole((books, sink))
        } }
    }
    Benchmark("shelf fetch 100k books · context fresh · typed accessors") { benchmark in
        let container = try await BenchStores.shelf()
        for _ in benchmark.scaledIterations {
            let context = container.newBackgroundContext()
            try context.performAndWait {
                benchmark.startMeasurement()
                let books = try context.fetch(Book.fetchRequest())
                var sink = 0
                for book in books {
                    sink &+= bookSink(
                        pageCount: book.pageCount, title: book.title, isbn: book.isbn, publishedAt: book.publishedAt, hasAuthor: book.author != nil)
                }
                benchmark.stopMeasurement()
                blackHole((books, sink))
            }
        }
    }
    Benchmark("shelf fetch 100k books · context fresh · value(forKey:)") { benchmark in
        let container = try await BenchStores.shelf()
        for _ in benchmark.scaledIterations {
            let context = container.newBackgroundContext()
            try context.performAndWait {
                benchmark.startMeasurement()
                let books = try context.fetch(FetchRequest<ManagedObject>(entityName: "Book"))
                var sink = 0
                for book in books {
                    sink &+= bookSink(
                        pageCount: book.value(forKey: "pageCount") as? Int32 ?? 0, title: book.value(forKey: "title") as? String,
                        isbn: book.value(forKey: "isbn") as? String, publishedAt: book.value(forKey: "publishedAt") as? Date,
                        hasAuthor: book.value(forKey: "author") != nil)
                }
                benchmark.stopMeasurement()
                blackHole((books, sink))
            }
        }
    }
}
