import Foundation
import GRDB
import Testing
import _ModelTestSupport

/// `modelc migrate --mapping` on a Shelf store whose rows hold what Core Data never writes: a
/// book table whose `Z_PK` is a plain column holding a text or a blob, the largest and smallest
/// keys SQLite allows. The migration reads these rows to associate source and destination
/// instances; each is a corrupt-store error (259) naming the table and column, or a migration
/// that completes, where GRDB's subscripts and unchecked arithmetic used to stop the process.
struct MigrateHostileRowsTests {
    static let model = Corpus.packagePath("Fixtures/Shelf.xcdatamodeld")
    static let mapping = Corpus.packagePath("Fixtures/ShelfToShelf2.xcmappingmodel")

    /// A Shelf store in `folder` with two authors and four books, changed by `sql`.
    static func store(in folder: URL, _ sql: String) throws -> String {
        let path = folder.appendingPathComponent("Shelf.sqlite").path
        let created = try Modelc.run(["store", "create", "--model", model, "--model-version", "Shelf", "--journal-mode", "delete", path])
        #expect(created.status == 0, "\(created.standardError)")
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in
            try db.execute(sql: """
                INSERT INTO ZAUTHOR (Z_PK, Z_ENT, Z_OPT, ZNAME) VALUES (1, 1, 1, 'author 1'), (2, 1, 1, 'author 2');
                INSERT INTO ZBOOK (Z_PK, Z_ENT, Z_OPT, ZAUTHOR, ZPAGES, ZPRICE, ZTITLE)
                  VALUES (1, 2, 1, 1, 10, 1.5, 'title 1'), (2, 2, 1, 2, 20, 2.5, 'title 2'), (3, 2, 1, 1, 30, 3.5, 'title 3'), (4, 2, 1, 2, 40, 4.5, 'title 4');
                UPDATE Z_PRIMARYKEY SET Z_MAX = CASE Z_NAME WHEN 'Author' THEN 2 ELSE 4 END;
                """)
            try db.execute(sql: sql)
        }
        try queue.close()
        return path
    }

    /// The book table rebuilt with `Z_PK` as a plain integer column, which holds any value.
    static let plainKeys = """
        CREATE TABLE OLD AS SELECT * FROM ZBOOK; DROP TABLE ZBOOK;
        CREATE TABLE ZBOOK (Z_PK INTEGER, Z_ENT INTEGER, Z_OPT INTEGER, ZPAGES INTEGER, ZAUTHOR INTEGER, ZPRICE DECIMAL, ZTITLE VARCHAR);
        INSERT INTO ZBOOK SELECT Z_PK, Z_ENT, Z_OPT, ZPAGES, ZAUTHOR, ZPRICE, ZTITLE FROM OLD; DROP TABLE OLD;
        """

    @Test(arguments: ["'x'", "x'0102'"])
    func aBookKeyThatIsNoIntegerIsACorruptStore(_ value: String) throws {
        try withTemporaryDirectory { folder in
            let path = try Self.store(in: folder, Self.plainKeys + "UPDATE ZBOOK SET Z_PK = \(value) WHERE Z_PK = 3")
            let run = try HostileRun.run(["migrate", path, "--model", Self.model, "--mapping", Self.mapping, "--no-backup", "--json"], in: folder)
            #expect(run.status == 1, "\(value): \(run.standardOutput) \(run.standardError)")
            let (errorClass, code) = try run.error()
            #expect(errorClass == "corrupt" && code == "259")
            #expect(run.standardOutput.contains("ZBOOK") && run.standardOutput.contains("Z_PK"), "\(run.standardOutput)")
        }
    }

    /// Keys at both ends of the integers are valid keys, just not consecutive: the books migrate.
    @Test func keysAtTheEndsOfTheIntegersMigrate() throws {
        try withTemporaryDirectory { folder in
            let path = try Self.store(in: folder, "UPDATE ZBOOK SET Z_PK = -9223372036854775808 WHERE Z_PK = 1; UPDATE ZBOOK SET Z_PK = 9223372036854775807 WHERE Z_PK = 4")
            let run = try Modelc.run(["migrate", path, "--model", Self.model, "--mapping", Self.mapping, "--no-backup", "--json"], in: folder)
            #expect(run.status == 0, "\(run.standardOutput) \(run.standardError)")
            let titles = try DatabaseQueue(path: path).read { try String.fetchAll($0, sql: "SELECT ZTITLE FROM ZBOOK ORDER BY ZTITLE") }
            #expect(titles == ["TITLE 1", "TITLE 2", "TITLE 3", "TITLE 4"])
        }
    }
}
