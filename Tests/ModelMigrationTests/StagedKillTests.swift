import Foundation
import GRDB
import ModelSchema
import ModelStore
import Testing
import _ModelTestSupport

/// `modelc migrate --through … --mapping …` (a staged chain through mapping models) killed at
/// seeded random points: afterwards the store opens either at the first version with all its
/// rows or at the last with all its rows and dates, never at the version between; the next run,
/// not killed, cleans up what the killed one left and ends at the last version.
///
/// The store is ebf's `TestMigrationStore_version_1.sqlite` (a copy) with rows added, so that a
/// run lasts long enough for kills to land in every stage, in a rollback journal and in WAL; its
/// stages go through the project's own mapping models `TestMigrationStore_1_2` and `_2_3`.
/// Replay a failure with the seed it printed: `MODELC_TEST_SEED=<seed> swift test --filter StagedKillTests`.
@Suite(.serialized, Corpus.required)
struct StagedKillTests {
    typealias Kill = KillTests

    static let trials = 16
    static let rows = 40_000
    static let root = "ebf__CTDataStoreManager/CTDataStoreManager/CTDataStoreManagerTests/CoreDataTests/MigrationTest"

    @Test(arguments: [StoreCreator.JournalMode.delete, .wal])
    func aKilledStagedMigrationLeavesTheFirstOrTheLastVersion(_ journalMode: StoreCreator.JournalMode) throws {
        var generator = TestSeed.generator(for: "StagedKillTests.\(journalMode.rawValue)")
        try withTemporaryDirectory { folder in
            let model = Corpus.path("\(Self.root)/TestMigrationStore.xcdatamodeld")
            let bundle = try MigrationTestSupport.bundle(model)
            let middle = VersionHasher(try #require(bundle.version(named: "TestMigrationStore 2"))).entityHashes()
            let new = VersionHasher(try #require(bundle.version(named: "TestMigrationStore 3"))).entityHashes()
            let options = ["--model", model, "--mapping", Corpus.path(Self.root), "--through", "TestMigrationStore 2"]
            let base = try MigrationTestSupport.copy(Corpus.path("\(Self.root)/TestMigrationStore_version_1.sqlite"), into: folder, as: "Base.sqlite")
            try DatabaseQueue(path: base).write { db in
                try db.execute(
                    sql: """
                        WITH RECURSIVE n(i) AS (SELECT 4 UNION ALL SELECT i + 1 FROM n WHERE i < \(Self.rows))
                        INSERT INTO ZENTITY (Z_PK, Z_ENT, Z_OPT, ZDATE) SELECT i, 1, 1, 343402077.5 + i FROM n
                        """)
                try db.execute(sql: "UPDATE Z_PRIMARYKEY SET Z_MAX = \(Self.rows)")
            }
            try DatabaseQueue(path: base).writeWithoutTransaction { try $0.execute(sql: "PRAGMA journal_mode = \(journalMode.rawValue)") }
            let original = try Kill.open(base)
            let dates = try Self.dates(base)
            #expect(original.hashes != middle && original.hashes != new)

            let (reference, migrated, window) = try Kill.referenceRun(of: base, in: folder, options: options, new: new)
            #expect(try Self.dates(reference) == dates)

            let expected = Kill.Outcomes(old: original.hashes, oldRows: original.rows, new: new, newRows: migrated.rows)
            try Kill.runTrials(
                "StagedKillTests", count: Self.trials, of: base, in: folder, options: options, window: window, expecting: expected,
                using: &generator
            ) { store, label, isNew in
                if isNew { #expect(try Self.dates(store) == dates, "\(label): every row's date") }
                let again = try Kill.migrate(store, options: options, killAfter: nil)
                #expect(again.status == 0, "\(label): the next run failed (status \(again.status)): \(again.errors)")
                #expect(try Kill.open(store).hashes == new, "\(label): the next run did not reach the last version")
                #expect(try Self.dates(store) == dates, "\(label): after the next run")
                let left = try Kill.traces(of: store).filter { !$0.hasSuffix(".backup") }
                #expect(left.isEmpty, "\(label): the next run left \(left) beside the store")
            }
        }
    }

    /// Every row's key and date, summed into two numbers.
    static func dates(_ store: String) throws -> [Double] {
        try DatabaseQueue(path: store).read { db in
            let row = try #require(try Row.fetchOne(db, sql: "SELECT COUNT(*), TOTAL(Z_PK * 1.0), TOTAL(ZDATE) FROM ZENTITY"))
            return [row[0], row[1], row[2]]
        }
    }
}
