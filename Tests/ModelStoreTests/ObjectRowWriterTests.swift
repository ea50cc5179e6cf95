import Foundation
import GRDB
import ModelStore
import Testing

/// The writer's updates, on a Library store with known rows (``LibraryRows``).
struct ObjectRowWriterTests {
    /// A statement is prepared once per set of columns and reused for later rows: the same set of
    /// columns given in another order must still write each value in its own column, not in
    /// the columns the first row's order put first.
    @Test func oneSetOfColumnsInAnyOrderWritesEachValueInItsColumn() throws {
        try LibraryRows.with { library in
            let rows = ObjectRowLayout(try SafetyTests.libraryVersion(), layout: library.layout)
            let shape = try #require(rows.shape(named: "Author"))
            let name = try #require(shape.attributes.firstIndex { $0.name == "name" })
            let email = try #require(shape.attributes.firstIndex { $0.name == "email" })
            let updated = try library.queue.write { db in
                let writer = ObjectRowWriter(db: db, rows: rows)
                return [
                    try writer.update(shape, key: 1, version: 1, attributes: [(name, "Anna".databaseValue), (email, "anna@mail".databaseValue)], toOnes: []),
                    try writer.update(shape, key: 4, version: 1, attributes: [(email, "maxi@mail".databaseValue), (name, "Maxi".databaseValue)], toOnes: []),
                ]
            }
            #expect(updated == [true, true])
            let written = try library.queue.read { db in
                try Row.fetchAll(db, sql: "SELECT Z_PK, ZNAME, ZEMAIL, Z_OPT FROM ZAUTHOR WHERE Z_PK IN (1, 4) ORDER BY Z_PK").map {
                    [$0[0] as Int64, $0[1] as String, $0[2] as String, $0[3] as Int64] as [AnyHashable]
                }
            }
            #expect(written == [[1, "Anna", "anna@mail", 2], [4, "Maxi", "maxi@mail", 2]])
        }
    }
}
