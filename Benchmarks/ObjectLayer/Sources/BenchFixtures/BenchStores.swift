import Foundation
import GRDB
import ModelObjects
import ModelStack

/// The stores both sides of a benchmark read: made by the object layer (so the schema is Core
/// Data's), filled through prepared statements, and reused by every process that finds them full.
public enum BenchStores {
    /// Rows of `Item` (ten `Integer 64` attributes) that the fetch, update and count benchmarks read.
    public static let itemCount = 200_000
    /// Books of the Library-shaped store, each with an author (one per 100 books) and no loans.
    public static let bookCount = 100_000
    public static let authorCount = bookCount / 100

    /// The folder of the stores: `$OBJECT_LAYER_FOLDER`, or a folder in the temporary directory.
    public static var folder: String {
        let folder = ProcessInfo.processInfo.environment["OBJECT_LAYER_FOLDER"]
            ?? NSTemporaryDirectory() + "/modelc-object-layer"
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        return folder
    }

    /// The `.xcdatamodeld` named `name` in this target's Models folder (whose classes the build
    /// plugin generates).
    public static func model(_ name: String) -> URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Models/\(name).xcdatamodeld")
    }

    /// A container of `model` on the store at `path`, loaded.
    public static func container(model: String, path: String) async throws -> PersistentContainer {
        let container = try PersistentContainer(name: model, model: self.model(model))
        container.persistentStoreDescriptions = [StoreDescription(url: URL(fileURLWithPath: path))]
        try await container.loadPersistentStores()
        return container
    }

    /// Removes the store at `path` with its -wal and -shm.
    public static func remove(_ path: String) {
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
    }

    /// The container of the Item store holding `rows` rows numbered from 1 (a0 … a9 = Z_PK - 1).
    public static func items(rows: Int = itemCount, name: String = "Items") async throws -> PersistentContainer {
        let path = "\(folder)/\(name)-\(rows).sqlite"
        let container = try await container(model: "Bench", path: path)
        try fillItems(try database(of: container), rows: rows)
        return container
    }

    /// Fills the Item table with `rows` rows unless it holds that many already.
    private static func fillItems(_ database: any DatabaseWriter, rows: Int) throws {
        let present = try database.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM ZITEM") ?? 0 }
        guard present != rows else { return }
        try database.write { db in
            try db.execute(sql: "DELETE FROM ZITEM")
            try insertItems(db, count: rows, after: 0)
            try db.execute(sql: "UPDATE Z_PRIMARYKEY SET Z_MAX = ? WHERE Z_NAME = 'Item'", arguments: [rows])
        }
    }

    /// A GRDB pool of its own on the store file, as a GRDB user opens one: the object layer keeps
    /// its database to itself.
    public static func database(of container: PersistentContainer) throws -> any DatabaseWriter {
        guard let url = container.loadedStores.first?.report.description.url else { throw DatabaseError(message: "the store did not load") }
        return try DatabasePool(path: url.path)
    }

    /// `count` new Items in `context`, made with `init(context:)` and the generated typed setters
    /// (item `i` holds `i` in every attribute), not saved: the object layer's side of the insert benchmarks.
    public static func insertItems(into context: ManagedObjectContext, count: Int) {
        for index in 0..<count {
            let item = Item(context: context)
            let value = Int64(index)
            (item.a0, item.a1, item.a2, item.a3, item.a4) = (value, value, value, value, value)
            (item.a5, item.a6, item.a7, item.a8, item.a9) = (value, value, value, value, value)
        }
    }

    /// `count` Item rows through one prepared INSERT, primary keys from `maximum + 1`, as a
    /// performance-minded user writes them.
    public static func insertItems(_ db: Database, count: Int, after maximum: Int64) throws {
        let statement = try db.makeStatement(
            sql: "INSERT INTO ZITEM(Z_PK, Z_ENT, Z_OPT, ZA0, ZA1, ZA2, ZA3, ZA4, ZA5, ZA6, ZA7, ZA8, ZA9) VALUES(?, 1, 1, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")
        for index in 0..<count {
            let value = Int64(index)
            try statement.execute(arguments: [maximum + value + 1, value, value, value, value, value, value, value, value, value, value])
        }
    }

    /// GRDB's side of the insert benchmarks: `count` Item rows inserted in one transaction with
    /// keys after `Z_MAX`, which is read and moved past them as Core Data keeps it.
    public static func insertItemsByHand(_ database: any DatabaseWriter, count: Int) throws {
        try database.write { db in
            let maximum = try Int64.fetchOne(db, sql: "SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_NAME = 'Item'") ?? 0
            try insertItems(db, count: count, after: maximum)
            try db.execute(sql: "UPDATE Z_PRIMARYKEY SET Z_MAX = ? WHERE Z_NAME = 'Item'", arguments: [maximum + Int64(count)])
        }
    }

    /// GRDB's side of the update benchmarks: the first `count` rows' keys, versions and `a1`
    /// fetched, then one added to `a1` of each by `UPDATE … WHERE Z_PK = ? AND Z_OPT = ?` with the
    /// version moved on, each checked to have changed its row, in one transaction.
    public static func updateItemsByHand(_ database: any DatabaseWriter, count: Int) throws {
        try database.write { db in
            let rows = try Row.fetchAll(db, sql: "SELECT Z_PK, Z_OPT, ZA1 FROM ZITEM ORDER BY Z_PK LIMIT ?", arguments: [count])
            let statement = try db.makeStatement(sql: "UPDATE ZITEM SET ZA1 = ?, Z_OPT = ? WHERE Z_PK = ? AND Z_OPT = ?")
            for row in rows {
                let (key, version, value): (Int64, Int64, Int64) = (row[0], row[1], row[2])
                try statement.execute(arguments: [value &+ 1, version + 1, key, version])
                guard db.changesCount == 1 else { throw DatabaseError(message: "conflict") }
            }
        }
    }

    /// The object layer's side of the update benchmarks: the first `count` Items fetched into
    /// `context`, one added to `a1` of each through its typed accessor, and saved.
    public static func updateItems(in context: ManagedObjectContext, count: Int) throws {
        let request = Item.fetchRequest()
        request.fetchLimit = count
        for item in try context.fetch(request) { item.a1 &+= 1 }
        try context.save()
    }

    /// The container of the Library-shaped store: `authorCount` authors, `bookCount` books.
    public static func shelf() async throws -> PersistentContainer {
        let path = "\(folder)/Shelf-\(bookCount).sqlite"
        let container = try await container(model: "Shelf", path: path)
        try fillShelf(try database(of: container))
        return container
    }

    /// Fills the Library-shaped store unless it holds `bookCount` books already.
    private static func fillShelf(_ database: any DatabaseWriter) throws {
        let present = try database.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM ZBOOK") ?? 0 }
        guard present != bookCount else { return }
        try database.write { db in
            try db.execute(sql: "DELETE FROM ZBOOK; DELETE FROM ZAUTHOR")
            let entities = try Dictionary(
                uniqueKeysWithValues: Row.fetchAll(db, sql: "SELECT Z_NAME, Z_ENT FROM Z_PRIMARYKEY").map { ($0[0] as String, $0[1] as Int64) })
            let author = try db.makeStatement(sql: "INSERT INTO ZAUTHOR(Z_PK, Z_ENT, Z_OPT, ZNAME, ZBORN) VALUES(?, ?, 1, ?, ?)")
            for index in 1...authorCount {
                try author.execute(arguments: [index, entities["Author"], "Author \(index)", Double(index) * -86_400 * 30])
            }
            let book = try db.makeStatement(
                sql: "INSERT INTO ZBOOK(Z_PK, Z_ENT, Z_OPT, ZISBN, ZTITLE, ZPAGECOUNT, ZPUBLISHEDAT, ZAUTHOR) VALUES(?, ?, 1, ?, ?, ?, ?, ?)")
            for index in 1...bookCount {
                let writer: Int? = index % 10 == 0 ? nil : (index % authorCount) + 1
                try book.execute(arguments: [
                    index, entities["Book"], "978-\(1_000_000_000 + index)", "A book about the number \(index)",
                    100 + index % 900, Double(index) * 3_600, writer,
                ])
            }
            try db.execute(sql: "UPDATE Z_PRIMARYKEY SET Z_MAX = ? WHERE Z_NAME = 'Author'", arguments: [authorCount])
            try db.execute(sql: "UPDATE Z_PRIMARYKEY SET Z_MAX = ? WHERE Z_NAME = 'Book'", arguments: [bookCount])
        }
    }
}
