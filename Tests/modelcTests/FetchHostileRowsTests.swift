import Foundation
import GRDB
import Testing
import _ModelTestSupport

/// `modelc fetch` on a copy of a fixture whose object rows hold a key, entity number, version or
/// foreign key that is not an integer, as a damaged or hand-edited store may: a corrupt-store
/// error naming the table and column, where the values used to be read as 0 (a version of 0, an
/// author of key 0) and the objects printed as if nothing were wrong.
struct FetchHostileRowsTests {
    @Test(arguments: [
        ("UPDATE ZPUBLICATION SET Z_OPT = 'x'", "Z_OPT"),
        ("UPDATE ZPUBLICATION SET ZAUTHOR = 'x'", "the foreign key of Author"),
        ("UPDATE ZPUBLICATION SET Z_ENT = 'x'", "Z_ENT"),
    ])
    func aKeyThatIsNoIntegerIsACorruptRow(_ sql: String, _ column: String) throws {
        try withTemporaryDirectory { folder in
            let path = try copyStore(Corpus.packagePath("Fixtures/Library-v3.sqlite"), into: folder)
            let queue = try DatabaseQueue(path: path)
            try queue.write { try $0.execute(sql: sql) }
            try queue.close()
            let run = try HostileRun.run(
                ["fetch", path, "--model", Corpus.packagePath("Models/Library.xcdatamodeld"), "--entity", "Publication", "--json"], in: folder)
            #expect(run.status == 1, "\(sql): \(run.standardOutput)")
            let (errorClass, code) = try run.error()
            #expect(errorClass == "corrupt" && code == "259")
            #expect(run.standardOutput.contains(column), "\(run.standardOutput)")
        }
    }
}
