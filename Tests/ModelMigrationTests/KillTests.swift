import Foundation
import GRDB
import ModelMigration
import ModelSchema
import ModelStore
import Testing
import _ModelTestSupport

/// The migration killed at random points: afterwards the store opens either at the old version
/// with all its data or at the new version with all its data, never in between.
struct KillTests {
    typealias Support = MigrationTestSupport

    /// Kills per journal mode; with both modes, 24 in all.
    static let trials = 12

    /// A version-1 store big enough (50,000 publications, tags and links) for a migration to
    /// take a while, so that kills land in every phase: backup, each step, commit.
    static func makeStore(in folder: URL, journalMode: StoreCreator.JournalMode) throws -> String {
        let bundle = try Support.bundle(Support.library)
        let path = folder.appendingPathComponent("Base-\(journalMode.rawValue).sqlite").path
        try StoreCreator.create(at: path, version: try #require(bundle.version(named: "Library")), journalMode: journalMode)
        try DatabaseQueue(path: path).write { db in
            let numbers = "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 50000)"
            try db.execute(sql: "\(numbers) INSERT INTO ZAUTHOR (Z_PK, Z_ENT, Z_OPT, ZNAME) SELECT i, 1, 1, 'author ' || i FROM n WHERE i <= 1000")
            try db.execute(
                sql: "\(numbers) INSERT INTO ZPUBLICATION (Z_PK, Z_ENT, Z_OPT, ZAUTHOR, ZPAGECOUNT, ZTITLE, ZISBN) SELECT i, 3, 1, i % 1000 + 1, i % 500, 'title ' || i, 'isbn-' || i FROM n")
            try db.execute(sql: "\(numbers) INSERT INTO ZTAG (Z_PK, Z_ENT, Z_OPT, ZNAME) SELECT i, 5, 1, 'tag ' || i FROM n")
            try db.execute(sql: "\(numbers) INSERT INTO Z_2TAGS (Z_2PUBLICATIONS, Z_5TAGS) SELECT i, i * 7 % 50000 + 1 FROM n")
            try db.execute(sql: "UPDATE Z_PRIMARYKEY SET Z_MAX = CASE Z_NAME WHEN 'Author' THEN 1000 ELSE 50000 END WHERE Z_SUPER = 0")
        }
        return path
    }

    /// Runs `modelc migrate` on `store`, killing it after `delay` microseconds when given.
    static func migrate(_ store: String, killAfter delay: UInt32?) throws {
        let process = Process()
        process.executableURL = Modelc.executable
        process.arguments = ["migrate", store, "--model", Support.library, "--quiet", "--backup", store + ".backup"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        if let delay {
            usleep(delay)
            kill(process.processIdentifier, SIGKILL)
        }
        process.waitUntilExit()
    }

    @Test(arguments: [StoreCreator.JournalMode.delete, .wal])
    func aKilledMigrationLeavesTheOldOrTheNewStore(_ journalMode: StoreCreator.JournalMode) throws {
        try withTemporaryDirectory { folder in
            let bundle = try Support.bundle(Support.library)
            let base = try Self.makeStore(in: folder, journalMode: journalMode)
            let versions = bundle.versions
            let old = VersionHasher(versions[0]).entityHashes()
            let new = VersionHasher(versions[2]).entityHashes()
            var outcomes = [String: Int]()
            var generator = SystemRandomNumberGenerator()
            let clock = ContinuousClock()
            let whole = try clock.measure { try Self.migrate(Support.copy(base, into: folder, as: "timed.sqlite"), killAfter: nil) }
            let window = UInt32(whole.components.seconds * 1_000_000 + whole.components.attoseconds / 1_000_000_000_000)
            for trial in 1...Self.trials {
                let store = try Support.copy(base, into: folder, as: "trial-\(trial).sqlite")
                try Self.migrate(store, killAfter: UInt32.random(in: 1_000...max(2_000, window * 11 / 10), using: &generator))

                // Open it as an app would: read-write, so SQLite rolls back what was left half-done.
                let hashes = try DatabaseQueue(path: store).write { db -> [String: VersionHash] in
                    #expect(try String.fetchOne(db, sql: "PRAGMA quick_check") == "ok", "trial \(trial)")
                    return try #require(try StoreMetadata.read(from: db)).versionHashes
                }
                if hashes == old {
                    outcomes["old", default: 0] += 1
                    try RetainedData(chain: [versions[0]]).verify(original: base, migrated: store, framework: .current)
                } else {
                    #expect(hashes == new, "trial \(trial): the store is at neither version")
                    outcomes["new", default: 0] += 1
                    try RetainedData(chain: Array(versions)).verify(original: base, migrated: store, framework: .current)
                }
            }
            #expect(outcomes.values.reduce(0, +) == Self.trials)
        }
    }
}
