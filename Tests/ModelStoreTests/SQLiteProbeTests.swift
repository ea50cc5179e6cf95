import Foundation
import Testing
import _ModelTestSupport

/// The independent reader the tests judge stores by must leave what it reads as it was: a corpus
/// store read in place by a connection that closes last has its WAL checkpointed into it and
/// deleted, and every later run would then test another file.
struct SQLiteProbeTests {
    @Test(Corpus.required) func readingAWALStoreLeavesItsFilesAsTheyWere() throws {
        let store = Corpus.path("\(CorpusStores.wibosco)/CoreDataMigration-ExampleTests/Resources/SQLite/CoreDataMigration_Example_WAL.sqlite")
        try withTemporaryDirectory { folder in
            // A stand-in for the corpus folder: the same two files, which the probe must not touch.
            let path = try copyStore(store, into: folder)
            let files = { try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() }
            let before = try files()
            #expect(before == ["CoreDataMigration_Example_WAL.sqlite", "CoreDataMigration_Example_WAL.sqlite-wal"])
            let bytes = try before.map { try Data(contentsOf: folder.appendingPathComponent($0)) }

            let reading = try SQLiteProbe.read(path)
            #expect(reading.integrity == "ok")
            #expect(!reading.hashes.isEmpty)

            #expect(try files() == before)
            #expect(try before.map { try Data(contentsOf: folder.appendingPathComponent($0)) } == bytes)
        }
    }
}
