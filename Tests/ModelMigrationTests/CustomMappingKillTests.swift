import Foundation
import GRDB
import ModelSchema
import ModelStore
import Testing
import _ModelTestSupport

/// `modelc migrate --mapping` (a custom mapping model, run by the migration manager) killed at
/// seeded random points: afterwards the store opens either at the old version with all its rows
/// or at the new version with all its rows and the values the mapping defines, never neither;
/// and the next run, not killed, cleans up what the killed one left and ends at the new version.
///
/// Replay a failure with the seed it printed: `MODELC_TEST_SEED=<seed> swift test --filter CustomMappingKillTests`.
/// With `MODELC_BINARY` pointing at a `modelc` whose `migrate` does nothing, this test fails
/// (Benchmarks/kill-test-must-fail.sh shows it).
@Suite(.serialized)
struct CustomMappingKillTests {
    typealias Kill = KillTests

    static let trials = 20
    /// Books in the store (and one author per ten): enough for a debug build's run to take long
    /// enough that kills land in every phase, few enough that the test stays within a minute.
    static let books = 10_000

    // MARK: - Test

    @Test func aKilledCustomMigrationLeavesTheOldOrTheNewStore() throws {
        var generator = TestSeed.generator(for: "CustomMappingKillTests")
        try withTemporaryDirectory { folder in
            let bundle = try MigrationTestSupport.bundle(ShelfMapping.bundlePath)
            let old = VersionHasher(try #require(bundle.version(named: "Shelf"))).entityHashes()
            let new = VersionHasher(try #require(bundle.version(named: "Shelf 2"))).entityHashes()
            let options = ["--model", ShelfMapping.bundlePath, "--mapping", ShelfMapping.mappingPath]
            let base = folder.appendingPathComponent("Shelf.sqlite").path
            try ShelfMapping.makeStore(at: base, books: Self.books)
            let original = try Kill.open(base)
            #expect(original.hashes == old)

            // The untimed reference run: it must succeed with the mapping's values.
            let (reference, migrated, window) = try Kill.referenceRun(of: base, in: folder, options: options, new: new)
            #expect(try ShelfMapping.violations(in: reference, books: Self.books) == [])

            let expected = Kill.Outcomes(old: old, oldRows: original.rows, new: new, newRows: migrated.rows)
            try Kill.runTrials(
                "CustomMappingKillTests", count: Self.trials, of: base, in: folder, options: options, window: window,
                expecting: expected, using: &generator
            ) { store, label, isNew in
                if isNew { #expect(try ShelfMapping.violations(in: store, books: Self.books) == [], "\(label)") }
                // The next run, not killed, takes over from what this one left.
                try expectNextRunFinishes(store, options: options, label: label, new: new)
            }
        }
    }

    /// Runs the migration again on a killed trial's store: it must exit 0 at the new version with
    /// the mapping's values, leaving beside the store nothing but the backup it was asked for.
    private func expectNextRunFinishes(_ store: String, options: [String], label: String, new: [String: VersionHash]) throws {
        let again = try Kill.migrate(store, options: options, killAfter: nil)
        #expect(again.status == 0, "\(label): the next run failed (status \(again.status)): \(again.errors)")
        let outcome = try Kill.open(store)
        #expect(outcome.hashes == new, "\(label): the next run did not reach Shelf 2")
        #expect(try ShelfMapping.violations(in: store, books: Self.books) == [], "\(label): after the next run")
        let left = try Kill.traces(of: store).filter { !$0.hasSuffix(".backup") }
        #expect(left.isEmpty, "\(label): the next run left \(left) beside the store")
    }
}
