import Foundation
import Synchronization
import Testing
import _ModelTestSupport

/// `modelc store check`, `store info` and `migrate` run as a user runs them, on copies (with
/// `-wal`/`-shm`) of the stores Core Data wrote. Expected values come from those files, read by
/// an independent reader (``SQLiteProbe``: Python's sqlite3 and plistlib), and from SOURCES.md,
/// which says which model version made each store.
@Suite(Corpus.required)
struct CorpusStoreCommandTests {
    /// A model's versions in the bundle's order, its current version and each version's hashes,
    /// from `modelc inspect --json`.
    struct ModelVersions: Sendable {
        var names: [String]
        var current: String
        var hashes: [String: [String: String]]

        /// The versions of `model`, read once per test run (Wire's bundle has 90).
        static func of(_ model: String) throws -> ModelVersions {
            if let known = cache.withLock({ $0[model] }) { return known }
            let read = try ModelVersions(model)
            cache.withLock { $0[model] = read }
            return read
        }

        private static let cache = Mutex<[String: ModelVersions]>([:])

        init(_ model: String) throws {
            let report = try Modelc.run(["inspect", model, "--json"]).json()
            let versions = try #require(report["versions"] as? [[String: Any]])
            names = versions.compactMap { $0["name"] as? String }
            current = try #require(report["current"] as? String)
            var hashes = [String: [String: String]]()
            for version in versions {
                let entities = version["entities"] as? [[String: Any]] ?? []
                hashes[version["name"] as? String ?? ""] = Dictionary(
                    uniqueKeysWithValues: entities.compactMap { entity in
                        (entity["name"] as? String).flatMap { name in (entity["hash"] as? String).map { (name, $0) } }
                    })
            }
            self.hashes = hashes
        }
    }

    /// The class and code `store check` must give a store made by `version`: Core Data opens a
    /// store of the current version, asks for a migration of an older one (134100) and has no
    /// source model for a newer one (134130).
    static func expectedCheck(of version: String, in model: ModelVersions) throws -> (String, Int, Int32) {
        let made = try #require(model.names.firstIndex(of: version)), current = try #require(model.names.firstIndex(of: model.current))
        if made == current { return ("compatible", 0, 0) }
        return made < current ? ("incompatibleVersionHash", 134100, 2) : ("newerModel", 134130, 2)
    }

    // MARK: - store check and store info

    @Test(arguments: CorpusStores.known)
    func storeCheckClassifiesEachStoreCoreDataWrote(_ known: KnownStore) throws {
        try withTemporaryDirectory { folder in
            let store = try copyStore(Corpus.path(known.store), into: folder, as: "store.sqlite")
            let model = try ModelVersions.of(Corpus.path(known.model))
            let (expectedClass, code, status) = try Self.expectedCheck(of: known.version, in: model)
            let run = try Modelc.run(["store", "check", store, "--model", Corpus.path(known.model), "--json"])
            let report = try run.json()
            #expect(run.status == status, "\(run.standardError)")
            #expect(report["class"] as? String == expectedClass, "\(report)")
            #expect(report["code"] as? Int == code)
            #expect(report["matchedVersion"] as? String == known.version)
            #expect(report["currentVersion"] as? String == model.current)
        }
    }

    @Test(arguments: CorpusStores.known)
    func storeInfoReportsWhatTheStoreHolds(_ known: KnownStore) throws {
        try withTemporaryDirectory { folder in
            let store = try copyStore(Corpus.path(known.store), into: folder, as: "store.sqlite")
            let run = try Modelc.run(["store", "info", store, "--model", Corpus.path(known.model), "--json"])
            #expect(run.status == 0, "\(run.standardError)")
            let info = try run.json()
            let probe = try SQLiteProbe.read(store)
            #expect(info["matchedVersion"] as? String == known.version)
            let tables = try #require(info["tables"] as? [[String: Any]])
            let rows = Dictionary(uniqueKeysWithValues: tables.compactMap { table in
                (table["name"] as? String).flatMap { name in (table["rows"] as? Int).map { (name, $0) } }
            })
            #expect(rows == probe.rows)
            #expect(rows.count >= 3, "Z_PRIMARYKEY, Z_METADATA and at least one entity table: \(rows.keys.sorted())")
            #expect(info["entities"] as? [String: String] == probe.hashes)
            #expect((info["frameworkVersion"]).map { "\($0)" } == probe.frameworkVersion)
        }
    }

    /// A store whose hashes match the current version but which lacks a table: Core Data's
    /// NSPersistentStoreIncompatibleSchemaError (134020). The store is SampleModel_V1, which
    /// SampleModel (the bundle's current version) made.
    @Test func storeCheckFindsAMissingTable() throws {
        try withTemporaryDirectory { folder in
            let known = try #require(CorpusStores.known.first { $0.store.hasSuffix("SampleModel_V1.sqlite") })
            let store = try copyStore(Corpus.path(known.store), into: folder, as: "store.sqlite")
            let before = try SQLiteProbe.read(store)
            let table = try #require(before.rows.keys.filter { $0.hasPrefix("Z") && !$0.hasPrefix("Z_") }.sorted().first)
            try SQLiteProbe.execute("DROP TABLE \(table)", on: store)
            let run = try Modelc.run(["store", "check", store, "--model", Corpus.path(known.model), "--json"])
            let report = try run.json()
            #expect(run.status == 2)
            #expect(report["class"] as? String == "incompatibleSchema", "\(report)")
            #expect(report["code"] as? Int == 134020)
        }
    }

    // MARK: - migrate

    /// Stores that cannot go to the current version, and the error code that says why: a store
    /// of a later version than the bundle's current one, whose Person rows lack the `id` the
    /// current version requires (a direct step backwards is an ordinary inference), and version 3
    /// of the wibosco example, which adds a required to-one relationship (upstream uses a mapping
    /// model).
    static let refusals: [String: String] = [
        "\(CorpusStores.plus)/SampleModel/Fixtures/SampleModel_V2.sqlite": "M202",
        "\(CorpusStores.wibosco)/CoreDataMigration-ExampleTests/Resources/SQLite/CoreDataMigration_Example_1.sqlite": "M204",
        "\(CorpusStores.wibosco)/CoreDataMigration-ExampleTests/Resources/SQLite/CoreDataMigration_Example_2.sqlite": "M204",
    ]

    static let migratable: [KnownStore] = CorpusStores.known.filter { known in
        guard let model = try? ModelVersions.of(Corpus.path(known.model)) else { return Corpus.isAvailable }
        return model.current != known.version
    }

    @Test func everyStoreWithAnotherCurrentVersionIsMigrated() {
        #expect(Self.migratable.count >= 20, "\(Self.migratable.count) stores")
    }

    @Test(arguments: migratable)
    func migrateTakesTheStoreToTheCurrentVersionWithEveryRow(_ known: KnownStore) throws {
        try withTemporaryDirectory { folder in
            let modelPath = Corpus.path(known.model)
            let model = try ModelVersions.of(modelPath)
            let store = try copyStore(Corpus.path(known.store), into: folder, as: "store.sqlite")
            let before = try SQLiteProbe.read(store)
            let bytes = try #require(FileManager.default.contents(atPath: store))

            let plan = try Modelc.run(["migrate", store, "--model", modelPath, "--dry-run", "--json"])
            if let refusal = Self.refusals[known.store] {
                #expect(plan.status != 0)
                #expect((plan.standardError + plan.standardOutput).contains(refusal), "\(plan.standardError)")
                let run = try Modelc.run(["migrate", store, "--model", modelPath, "--no-backup"])
                #expect(run.status == (refusal.hasPrefix("M") ? 2 : 1), "\(run.standardError)")
                #expect(FileManager.default.contents(atPath: store) == bytes, "a refused migration changes nothing")
                return
            }
            let planned = try plan.json()
            let risk = try #require(planned["risk"] as? String)
            #expect(plan.status == (risk == "safe" ? 0 : 2), "\(plan.standardError)")
            #expect(FileManager.default.contents(atPath: store) == bytes, "a dry run changes nothing")

            let options = risk == "safe" ? [] : ["--allow-data-loss"]
            let run = try Modelc.run(["migrate", store, "--model", modelPath, "--no-backup", "--json"] + options)
            #expect(run.status == 0, "\(run.standardError)")
            let done = try run.json()
            #expect(done["outcome"] as? String == "migrated")
            // Per step: rows touched and values dropped, in a fixed order.
            let counts = { (report: [String: Any]) in
                (report["steps"] as? [[String: Any]] ?? []).map { step in
                    let dropped = (step["dropped"] as? [[String: Any]] ?? []).map { "\($0["entity"] ?? "").\($0["property"] ?? "")=\($0["count"] ?? "")" }
                    return "\(step["rowsTouched"] ?? "-") \(dropped.sorted())"
                }
            }
            #expect(counts(done) == counts(planned), "the dry run's counts are the real run's")

            let after = try SQLiteProbe.read(store)
            #expect(after.integrity == "ok")
            #expect(after.hashes == (try Self.expectedHashes(model, known)), "hashes of '\(model.current)'")
            var compared = 0
            for (table, rows) in before.rows where !["Z_METADATA", "Z_MODELCACHE", "Z_PRIMARYKEY"].contains(table) {
                guard let kept = after.rows[table] else { continue }
                #expect(kept == rows, "rows of \(table)")
                compared += 1
            }
            #expect(compared >= 1, "tables compared: \(compared)")
            let check = try Modelc.run(["store", "check", store, "--model", modelPath])
            #expect(check.status == 0, "\(check.standardOutput)\(check.standardError)")
        }
    }

    /// The destination's hashes: those of a store Core Data wrote at the current version when
    /// the corpus has one; else `modelc`'s own (an expected value from our own output, whose
    /// algorithm CorpusHashTests checks against the hashes of all 28 Apple-written stores).
    static func expectedHashes(_ model: ModelVersions, _ known: KnownStore) throws -> [String: String] {
        if let apple = CorpusStores.known.first(where: { $0.model == known.model && $0.version == model.current }) {
            let hashes = try SQLiteProbe.read(Corpus.path(apple.store)).hashes
            // Our own hashes of that version agree with Apple's.
            #expect(model.hashes[model.current] == hashes)
            return hashes
        }
        return try #require(model.hashes[model.current])
    }

    // MARK: - decompile

    /// Every `.momd` Xcode compiled in the corpus, decompiled by the binary: the recovered source
    /// hashes, through `modelc hash`, to the values in Xcode's own `VersionInfo.plist`.
    @Test(Corpus.required, arguments: Corpus.isAvailable ? Corpus.compiledModels() : [])
    func decompilingXcodesMomdRecoversApplesHashes(_ momd: String) throws {
        try withTemporaryDirectory { folder in
            let data = try #require(FileManager.default.contents(atPath: Corpus.path("\(momd)/VersionInfo.plist")))
            let info = try #require(try PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any])
            let apple = try #require(info["NSManagedObjectModel_VersionHashes"] as? [String: [String: Data]])
            // Two of TranslationCatalog's three name no current version (Xcode 16.4 leaves the
            // name out when the source bundle has no .xccurrentversion): they decompile too.
            try Self.expectDecompiledHashes(momd, equal: apple, in: folder)
        }
    }

    /// Decompiles `momd` with the binary into `folder` and hashes the recovered source with
    /// `modelc hash`: every version's entity hashes must be Xcode's (`apple`).
    static func expectDecompiledHashes(_ momd: String, equal apple: [String: [String: Data]], in folder: URL) throws {
        let run = try Modelc.run(["decompile", Corpus.path(momd), "-o", folder.path])
        #expect(run.status == 0, "\(run.standardError)")
        let written = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        let source = try #require(written.first { $0.hasSuffix(".xcdatamodeld") || $0.hasSuffix(".xcdatamodel") }, "\(written)")
        let hash = try Modelc.run(["hash", folder.appendingPathComponent(source).path, "--json"])
        #expect(hash.status == 0, "\(hash.standardError)")
        let versions = try #require(try hash.json()["versions"] as? [[String: Any]])
        var ours = [String: [String: String]]()
        for version in versions {
            ours[version["name"] as? String ?? ""] = version["entities"] as? [String: String]
        }
        #expect(ours.count == apple.count, "versions: \(ours.keys.sorted()) vs \(apple.keys.sorted())")
        #expect(ours == apple.mapValues { $0.mapValues { $0.map { String(format: "%02x", $0) }.joined() } })
    }
}
