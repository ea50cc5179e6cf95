import Foundation
import GRDB
import ModelExpression
import ModelSchema
import ModelStore
import Testing
import _ModelTestSupport

/// A small store of the Library model in a temporary folder, with known rows, on which a
/// fetch's SQL is run to see which rows it returns: the rows each predicate means are worked out
/// by hand beside each check, from the values below, never from the SQL.
///
/// Authors (Z_PK: name, email, born as seconds since 2001):
/// 1 "Ann" ann@mail 10 · 2 "ann" – – · 3 "FÉLIX" ana@mail 20 · 4 "Max" max@mail 30 ·
/// 5 "Rex" a@b 1 · 6 "Zoë" – –, with no publications.
///
/// Publications (Z_PK: kind, title, author): 1 Book "Alpha" 1 · 2 Book "Apple" 1 ·
/// 3 Magazine "Issue 9" 3 · 4 Book "Arch" 3 · 5 Magazine "Issue 10" 4 · 6 Book "Omega" 5 ·
/// 7 Book "Gamma" – · 8 Magazine "A" 2.
///
/// Reviews (Z_PK: rating, publication): 1: 5 p1 · 2: 4 p1 · 3: 2 p3 · 4: 0 p5 · 5: 4 p6 ·
/// 6: 1 p7 · 7: 5 p4 · 8: 0 p8.
///
/// Topics: 1 "swift" (publications 1, 5), 2 "rust" (publications 1, 4).
struct LibraryRows {
    let queue: DatabaseQueue
    let layout: StoreLayout
    let entities: EntityHierarchy

    /// Runs `body` on a new store holding the rows above, removed afterwards.
    static func with<T>(_ body: (LibraryRows) throws -> T) throws -> T {
        let version = try SafetyTests.libraryVersion()
        return try withTemporaryDirectory { folder in
            let path = folder.appendingPathComponent("Library.sqlite").path
            let layout = try StoreCreator.create(at: path, version: version, journalMode: .delete)
            let queue = try DatabaseQueue(path: path, configuration: CoreDataFunctions.registering(in: Configuration()))
            defer { try? queue.close() }
            let rows = LibraryRows(queue: queue, layout: layout, entities: EntityHierarchy(version))
            try rows.insert()
            return try body(rows)
        }
    }

    /// The entity number the store gives `name`.
    func number(_ name: String) throws -> Int {
        try #require(layout.entity(named: name)).number
    }

    private func insert() throws {
        let author = try number("Author"), book = try number("Book"), magazine = try number("Magazine")
        let review = try number("Review"), topic = try number("Topic")
        try queue.write { db in
            let authors: [(Int, String, String?, Double?)] = [
                (1, "Ann", "ann@mail", 10), (2, "ann", nil, nil), (3, "FÉLIX", "ana@mail", 20), (4, "Max", "max@mail", 30),
                (5, "Rex", "a@b", 1), (6, "Zoë", nil, nil),
            ]
            for (key, name, email, born) in authors {
                try db.execute(
                    sql: "INSERT INTO ZAUTHOR (Z_PK, Z_ENT, Z_OPT, ZNAME, ZEMAIL, ZBORN) VALUES (?, ?, 1, ?, ?, ?)",
                    arguments: [key, author, name, email, born])
            }
            let publications: [(Int, Int, String, Int?)] = [
                (1, book, "Alpha", 1), (2, book, "Apple", 1), (3, magazine, "Issue 9", 3), (4, book, "Arch", 3),
                (5, magazine, "Issue 10", 4), (6, book, "Omega", 5), (7, book, "Gamma", nil), (8, magazine, "A", 2),
            ]
            for (key, entity, title, writer) in publications {
                try db.execute(
                    sql: "INSERT INTO ZPUBLICATION (Z_PK, Z_ENT, Z_OPT, ZTITLE, ZAUTHOR) VALUES (?, ?, 1, ?, ?)",
                    arguments: [key, entity, title, writer])
            }
            let kinds = Dictionary(uniqueKeysWithValues: publications.map { ($0.0, $0.1) })
            let reviews = [(1, 5, 1), (2, 4, 1), (3, 2, 3), (4, 0, 5), (5, 4, 6), (6, 1, 7), (7, 5, 4), (8, 0, 8)]
            for (key, rating, publication) in reviews {
                try db.execute(
                    sql: "INSERT INTO ZREVIEW (Z_PK, Z_ENT, Z_OPT, ZRATING, ZPUBLICATION, Z2_PUBLICATION) VALUES (?, ?, 1, ?, ?, ?)",
                    arguments: [key, review, rating, publication, kinds[publication]])
            }
            for (key, name) in [(1, "swift"), (2, "rust")] {
                try db.execute(sql: "INSERT INTO ZTOPIC (Z_PK, Z_ENT, Z_OPT, ZNAME) VALUES (?, ?, 1, ?)", arguments: [key, topic, name])
            }
            for (publication, tagged) in [(1, 1), (5, 1), (1, 2), (4, 2)] {
                try db.execute(sql: "INSERT INTO Z_2TOPICS (Z_2PUBLICATIONS, Z_6TOPICS) VALUES (?, ?)", arguments: [publication, tagged])
            }
        }
    }

    /// The primary keys of the `entity` rows the fetch returns, in its order.
    func keys(_ entity: String, _ format: String, _ arguments: [EvaluatedValue] = [], sortedBy sortKeys: [SortKey] = []) throws -> [Int64] {
        var fetch = StoreFetch(entity: entity)
        fetch.predicate = try PredicateParser.predicate(format, arguments: arguments)
        fetch.sortKeys = sortKeys
        let statement = try fetch.select(["t0.Z_PK"], layout: layout, entities: entities)
        return try queue.read { try Int64.fetchAll($0, sql: statement.sql, arguments: statement.arguments) }
    }

    /// The primary keys of the matching rows, as a set (for fetches whose order is not the point).
    func matches(_ entity: String, _ format: String, _ arguments: EvaluatedValue...) throws -> Set<Int64> {
        Set(try keys(entity, format, arguments))
    }

    /// The count of `entity`'s rows, with its subentities' or without.
    func count(_ entity: String, includesSubentities: Bool = true) throws -> Int {
        var fetch = StoreFetch(entity: entity)
        fetch.includesSubentities = includesSubentities
        let statement = try fetch.count(layout: layout, entities: entities)
        return try queue.read { try Int.fetchOne($0, sql: statement.sql, arguments: statement.arguments) } ?? -1
    }
}
