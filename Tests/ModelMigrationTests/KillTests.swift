import Foundation
import GRDB
import ModelMigration
import ModelSchema
import ModelStore
import Testing
import _ModelTestSupport

/// `modelc migrate` killed at seeded random points: afterwards the store opens either at the old
/// version with all its rows or at the new version with all its rows, never in between. The test
/// also shows that its kills mattered: most landed while the migration was writing (as the
/// files it left show), and both outcomes occurred.
///
/// Replay a failure with the seed it printed: `MODELC_TEST_SEED=<seed> swift test --filter KillTests`.
/// Run against another build with `MODELC_BINARY=<path>`; with one whose `migrate` does nothing,
/// this test fails (Benchmarks/kill-test-must-fail.sh shows it).
@Suite(.serialized)
struct KillTests {
    typealias Support = MigrationTestSupport

    /// Kills per journal mode; with both modes, 24 in all.
    static let trials = 12

    /// What one killed run left behind.
    struct Trial {
        var number: Int
        var delay: Double
        /// The process ended by our signal, not on its own.
        var wasKilled: Bool
        /// Files the run wrote beside the store (its backup, a staging copy, a journal or WAL):
        /// the evidence that it had started writing when the signal came.
        var traces: [String]
        var isNew: Bool

        /// Whether the kill landed while the migration was under way.
        var landedDuringRun: Bool { wasKilled && (!traces.isEmpty || isNew) }
    }

    // MARK: - Store

    /// A version-1 store big enough (50,000 publications, tags and links) for a migration to
    /// take a while, so that kills land in every phase: backup, each step, commit.
    static func makeStore(in folder: URL, journalMode: StoreCreator.JournalMode) throws -> String {
        let bundle = try Support.bundle(Support.library)
        let path = folder.appendingPathComponent("Base-\(journalMode.rawValue).sqlite").path
        try StoreCreator.create(at: path, version: try #require(bundle.version(named: "Library")), journalMode: journalMode)
        try Support.fillLibrary(path, rows: 50000)
        return path
    }

    /// Opens the store as an app would (read-write, so SQLite rolls back what was left half
    /// done) and returns its integrity check, entity hashes and row count per table.
    static func open(_ store: String) throws -> (integrity: String?, hashes: [String: VersionHash], rows: [String: Int]) {
        try DatabaseQueue(path: store).write { db in
            let integrity = try String.fetchOne(db, sql: "PRAGMA integrity_check")
            let hashes = try StoreMetadata.read(from: db)?.versionHashes ?? [:]
            var rows = [String: Int]()
            for table in try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'") {
                rows[table] = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(table.quotedDatabaseIdentifier)")
            }
            return (integrity, hashes, rows)
        }
    }

    // MARK: - Runs

    /// Runs `modelc migrate` on `store` with `options` (the model, and mapping models if any),
    /// sending SIGKILL after `delay` seconds when given. Returns the exit status and whether the
    /// signal ended it.
    static func migrate(
        _ store: String, options: [String] = ["--model", Support.library], killAfter delay: Double?
    ) throws -> (status: Int32, wasKilled: Bool, errors: String) {
        let process = Process()
        process.executableURL = Modelc.executable
        process.arguments = ["migrate", store] + options + ["--quiet", "--backup", store + ".backup"]
        process.standardOutput = FileHandle.nullDevice
        // What a run that is not killed says on failure, for the test's message.
        let errors = Spawn.pipe()
        process.standardError = delay == nil ? errors : FileHandle.nullDevice
        try Spawn.run(process)
        if let delay {
            usleep(UInt32(delay * 1_000_000))
            kill(process.processIdentifier, SIGKILL)
        }
        let said = delay == nil ? errors.fileHandleForReading.readDataToEndOfFile() : Data()
        process.waitUntilExit()
        return (process.terminationStatus, process.terminationReason == .uncaughtSignal, String(decoding: said, as: UTF8.self))
    }

    /// The files beside `store` whose names start with its own, other than the store itself.
    static func traces(of store: String) throws -> [String] {
        let url = URL(fileURLWithPath: store)
        let name = url.lastPathComponent
        return try FileManager.default.contentsOfDirectory(atPath: url.deletingLastPathComponent().path)
            .filter { $0.hasPrefix(name) && $0 != name && $0 != name + "-shm" }.sorted()
    }

    // MARK: - Trials

    /// Migrates a copy of `base`, not killed: it must succeed at the version of hashes `new`.
    /// Returns the copy, what it holds, and how long the run took in seconds.
    static func referenceRun(
        of base: String, in folder: URL, options: [String], new: [String: VersionHash]
    ) throws -> (path: String, opened: (integrity: String?, hashes: [String: VersionHash], rows: [String: Int]), seconds: Double) {
        let reference = try Support.copy(base, into: folder, as: "reference.sqlite")
        let start = ContinuousClock.now
        let run = try migrate(reference, options: options, killAfter: nil)
        let elapsed = ContinuousClock.now - start
        try #require(run.status == 0 && !run.wasKilled, "the reference migration failed (status \(run.status))")
        let migrated = try open(reference)
        #expect(migrated.integrity == "ok")
        try #require(migrated.hashes == new, "the reference run did not reach the new version")
        return (reference, migrated, Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
    }

    /// The two states a killed run may leave the store in, as ``open(_:)`` reads them.
    struct Outcomes {
        var old: [String: VersionHash]
        var oldRows: [String: Int]
        var new: [String: VersionHash]
        var newRows: [String: Int]
    }

    /// Migrates `count` copies of `base` with `options`, each killed after a seeded random part
    /// of `window` (the reference run's length, then nudged after each trial: a run that finished
    /// first shortens it, a kill that found the old store lengthens it, as the machine's load
    /// changes; it only chooses kill points, what a kill hit is read from the files). Each store
    /// must open intact at the old version with the old rows or at the new one with the new rows;
    /// `check` then looks further (store, label, whether it is new). Finally at least `count / 2`
    /// kills must have landed during a run, and both outcomes must occur.
    static func runTrials(
        _ name: String, count: Int, of base: String, in folder: URL, options: [String], window start: Double,
        expecting expected: Outcomes, using generator: inout SeededGenerator,
        check: (_ store: String, _ label: String, _ isNew: Bool) throws -> Void = { _, _, _ in }
    ) throws {
        var window = start
        var results = [Trial]()
        // At least `count` trials, and more (up to twice as many) while fewer than half of the
        // kills landed during a migration: on a loaded machine a start can take the whole window.
        var number = 0
        while number < count || (results.filter(\.landedDuringRun).count * 2 < count && number < count * 2) {
            number += 1
            let store = try Support.copy(base, into: folder, as: "trial-\(number).sqlite")
            // Kill points over the whole run and a little past it, so that some runs finish.
            let delay = window * Double.random(in: 0.2...1.2, using: &generator)
            let ended = try migrate(store, options: options, killAfter: delay)
            let traces = try traces(of: store)
            let outcome = try open(store)
            let label = "trial \(number) (seed \(TestSeed.value), kill after \(Int(delay * 1000)) ms)"
            #expect(outcome.integrity == "ok", "\(label)")
            if outcome.hashes == expected.old {
                #expect(outcome.rows == expected.oldRows, "\(label): old version, rows per table")
            } else {
                #expect(outcome.hashes == expected.new, "\(label): the store is at neither version")
                #expect(outcome.rows == expected.newRows, "\(label): new version, rows per table")
            }
            try check(store, label, outcome.hashes == expected.new)
            if !ended.wasKilled {
                window *= 0.7
            } else if outcome.hashes == expected.old {
                window *= 1.1
            }
            results.append(Trial(number: number, delay: delay, wasKilled: ended.wasKilled, traces: traces, isNew: outcome.hashes == expected.new))
        }
        let landed = results.filter(\.landedDuringRun)
        let newCount = results.filter(\.isNew).count
        print("\(name): \(landed.count) of \(results.count) kills landed during the migration; \(results.count - newCount) old, \(newCount) new (seed \(TestSeed.value))")
        let summary = results.map { "\($0.number): \($0.wasKilled ? "killed" : "exited") \($0.isNew ? "new" : "old") \($0.traces)" }
        #expect(landed.count * 2 >= count, "only \(landed.count) of \(count) kills landed during the migration (seed \(TestSeed.value)): \(summary)")
        #expect(results.contains(where: \.isNew) && landed.contains { !$0.isNew }, "both outcomes occur (seed \(TestSeed.value)): \(summary)")
    }

    // MARK: - Test

    @Test(arguments: [StoreCreator.JournalMode.delete, .wal])
    func aKilledMigrationLeavesTheOldOrTheNewStore(_ journalMode: StoreCreator.JournalMode) throws {
        var generator = TestSeed.generator(for: "KillTests.\(journalMode.rawValue)")
        try withTemporaryDirectory { folder in
            let bundle = try Support.bundle(Support.library)
            let base = try Self.makeStore(in: folder, journalMode: journalMode)
            let versions = bundle.versions
            let old = VersionHasher(versions[0]).entityHashes()
            let new = VersionHasher(try #require(bundle.currentVersion)).entityHashes()
            let original = try Self.open(base)
            #expect(original.hashes == old)
            let sidecars = try Self.traces(of: base)
            #expect(sidecars.isEmpty, "the base store has no sidecar files: \(sidecars)")

            // The untimed reference run: it must succeed, and its result is the "new" outcome.
            let (reference, migrated, window) = try Self.referenceRun(of: base, in: folder, options: ["--model", Support.library], new: new)
            // Every row and value of the base is in the reference result, followed through the
            // inferred mappings; the "new" outcomes below are compared with it table by table.
            let compared = try RetainedData(chain: Array(versions)).verify(original: base, migrated: reference, framework: .current)
            #expect(compared >= 150_000, "values compared: \(compared)")
            let expected = Outcomes(old: old, oldRows: original.rows, new: new, newRows: migrated.rows)
            try Self.runTrials(
                "KillTests \(journalMode.rawValue)", count: Self.trials, of: base, in: folder, options: ["--model", Support.library],
                window: window, expecting: expected, using: &generator
            ) { store, label, _ in
                // The next run, with the same backup path, takes over from what this one left:
                // a killed run named no backup, so the path is free.
                let again = try Self.migrate(store, killAfter: nil)
                #expect(again.status == 0, "\(label): the next run failed (status \(again.status)): \(again.errors)")
                #expect(try Self.open(store).hashes == new, "\(label): the next run did not reach the current version")
                let left = try Self.traces(of: store).filter { !$0.hasSuffix(".backup") }
                #expect(left.isEmpty, "\(label): the next run left \(left) beside the store")
            }
        }
    }
}
