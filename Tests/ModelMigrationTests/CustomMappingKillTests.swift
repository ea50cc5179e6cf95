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
    static let books = 3_000

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
            let reference = try MigrationTestSupport.copy(base, into: folder, as: "reference.sqlite")
            let start = ContinuousClock.now
            let run = try Kill.migrate(reference, options: options, killAfter: nil)
            let elapsed = ContinuousClock.now - start
            try #require(run.status == 0 && !run.wasKilled, "the reference migration failed (status \(run.status))")
            let migrated = try Kill.open(reference)
            #expect(migrated.integrity == "ok")
            try #require(migrated.hashes == new, "the reference run did not reach Shelf 2")
            #expect(try ShelfMapping.violations(in: reference, books: Self.books) == [])
            var window = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18

            var results = [Kill.Trial]()
            for number in 1...Self.trials {
                let store = try MigrationTestSupport.copy(base, into: folder, as: "trial-\(number).sqlite")
                let delay = window * Double.random(in: 0.2...1.2, using: &generator)
                let ended = try Kill.migrate(store, options: options, killAfter: delay)
                let traces = try Kill.traces(of: store)
                let outcome = try Kill.open(store)
                let label = "trial \(number) (seed \(TestSeed.value), kill after \(Int(delay * 1000)) ms)"
                #expect(outcome.integrity == "ok", "\(label)")
                if outcome.hashes == old {
                    #expect(outcome.rows == original.rows, "\(label): old version, rows per table")
                } else {
                    #expect(outcome.hashes == new, "\(label): the store is at neither version")
                    #expect(outcome.rows == migrated.rows, "\(label): new version, rows per table")
                    #expect(try ShelfMapping.violations(in: store, books: Self.books) == [], "\(label)")
                }
                // The next run, not killed, takes over from what this one left.
                if number % 2 == 0 || outcome.hashes == old {
                    try expectNextRunFinishes(store, options: options, label: label, new: new)
                }
                if !ended.wasKilled {
                    window *= 0.7
                } else if outcome.hashes == old {
                    window *= 1.1
                }
                results.append(Kill.Trial(number: number, delay: delay, wasKilled: ended.wasKilled, traces: traces, isNew: outcome.hashes == new))
            }

            let landed = results.filter(\.landedDuringRun)
            let newCount = results.filter(\.isNew).count
            print("CustomMappingKillTests: \(landed.count) of \(Self.trials) kills landed during the migration; \(Self.trials - newCount) old, \(newCount) new (seed \(TestSeed.value)); reference run \(elapsed)")
            let summary = results.map { "\($0.number): \($0.wasKilled ? "killed" : "exited") \($0.isNew ? "new" : "old") \($0.traces)" }
            #expect(landed.count * 2 >= Self.trials, "only \(landed.count) of \(Self.trials) kills landed during the migration (seed \(TestSeed.value)): \(summary)")
            #expect(results.contains(where: \.isNew) && landed.contains { !$0.isNew }, "both outcomes occur (seed \(TestSeed.value)): \(summary)")
        }
    }

    /// Runs the migration again on a killed trial's store: it must exit 0 at the new version with
    /// the mapping's values, leaving beside the store nothing but the backup it was asked for.
    private func expectNextRunFinishes(_ store: String, options: [String], label: String, new: [String: VersionHash]) throws {
        let again = try Kill.migrate(store, options: options, killAfter: nil)
        #expect(again.status == 0, "\(label): the next run failed (status \(again.status))")
        let outcome = try Kill.open(store)
        #expect(outcome.hashes == new, "\(label): the next run did not reach Shelf 2")
        #expect(try ShelfMapping.violations(in: store, books: Self.books) == [], "\(label): after the next run")
        let left = try Kill.traces(of: store).filter { !$0.hasSuffix(".backup") }
        #expect(left.isEmpty, "\(label): the next run left \(left) beside the store")
    }
}
