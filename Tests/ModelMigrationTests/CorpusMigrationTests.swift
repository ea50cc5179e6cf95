import Foundation
import ModelMigration
import ModelSchema
import ModelStore
import Testing
import _ModelTestSupport

/// Every corpus store whose bundle has another current version, migrated (a copy) to it in ONE
/// direct step, as Core Data migrates: it succeeds, or is refused for the reason Apple's
/// inference would give, the store unchanged. Afterwards the store has the destination's hashes
/// and `store create`'s schema, `store check` finds it compatible, and every row and retained
/// value is still there; the dry run predicted the real run.
@Suite(Corpus.required)
struct CorpusMigrationTests {
    typealias Support = MigrationTestSupport

    /// Stores whose migration to the current version is refused, and why.
    static let refusals: [String: String] = [
        // The bundle's current version is its first one; SampleModel2 made this store. Going
        // back adds Person's required 'id' without a default, and the store has Person rows.
        "SampleModel_V2.sqlite": "M202",
        // Version 3 moves Post's colour into a new required Color entity; upstream uses a
        // mapping model for it.
        "wibosco__CoreDataMigration-Example/CoreDataMigration-ExampleTests/Resources/SQLite/CoreDataMigration_Example_1.sqlite": "M204",
        "wibosco__CoreDataMigration-Example/CoreDataMigration-ExampleTests/Resources/SQLite/CoreDataMigration_Example_2.sqlite": "M204",
    ]

    /// The stores to migrate; one whose model cannot be read stays in, so that its test fails.
    static let migratable: [KnownStore] = CorpusStores.known.filter { known in
        guard Corpus.isAvailable else { return false }
        guard let bundle = try? MigrationTestSupport.bundle(Corpus.path(known.model)) else { return true }
        return bundle.currentVersion?.name != known.version
    }

    @Test func everyStoreWithALaterVersionIsCovered() {
        #expect(Self.migratable.count >= 20)
    }

    @Test(arguments: migratable)
    func migratesToTheCurrentVersion(_ known: KnownStore) throws {
        try withTemporaryDirectory { folder in
            let bundle = try Support.bundle(Corpus.path(known.model))
            let original = try Support.copy(Corpus.path(known.store), into: folder, as: "original.sqlite")
            let store = try Support.copy(original, into: folder, as: "store.sqlite")
            let framework = FrameworkVersion(try StoreMetadata.read(at: original).frameworkVersion ?? FrameworkVersion.current.number)
            var options = Migrator.Options()
            options.makesBackup = false
            options.allowsDataLoss = true
            let refusal = Self.refusals[known.store] ?? Self.refusals[known.testDescription]

            options.dryRun = true
            let plan: Migrator.Result
            do {
                plan = try Migrator.migrate(storeAt: store, bundle: bundle, options: options)
            } catch let failure as MigrationError {
                #expect(refusal == String(failure.code), "\(failure)")
                #expect(MigrationTestSupport.fileBytes(store) == MigrationTestSupport.fileBytes(original), "the store is unchanged")
                return
            }
            // `modelc check` has no store: it must flag at least what this store's plan shows.
            let verdict = try #require(ReleaseCheck.run(bundle: bundle, versions: [known.version]).first)
            switch plan.outcome {
            case .impossible: #expect(verdict.risk == .impossible)
            case _ where plan.risk == .dropsData: #expect(verdict.risk != .safe, "check flags what the store drops")
            default:
                let errors = verdict.diagnostics.filter { $0.severity == .error }.map(\.code)
                #expect(errors.allSatisfy { ["M202", "M204"].contains($0) }, "only data-decided reasons may differ: \(errors)")
            }
            if plan.outcome == .impossible {
                let codes = plan.steps.flatMap(\.mapping.diagnostics).filter { $0.severity == .error }.map(\.code)
                #expect(refusal.map(codes.contains) == true, "refused with \(codes)")
                options.dryRun = false
                let refused = try Migrator.migrate(storeAt: store, bundle: bundle, options: options)
                #expect(refused.outcome == .impossible, "a real run is refused too")
                #expect(MigrationTestSupport.fileBytes(store) == MigrationTestSupport.fileBytes(original), "the store is unchanged")
                return
            }
            #expect(refusal == nil, "expected a refusal (\(refusal ?? ""))")
            #expect(plan.outcome == .planned)
            #expect(plan.steps.map(\.source) == [known.version], "one direct step from the store's version")
            #expect(plan.steps.allSatisfy { Set($0.rewrittenTables).count == $0.rewrittenTables.count }, "each table rewritten at most once")

            options.dryRun = false
            let done = try Migrator.migrate(storeAt: store, bundle: bundle, options: options)
            #expect(done.outcome == .migrated)
            #expect(done.steps.count == 1)
            #expect(done.steps.map(\.rowsTouched) == plan.steps.map(\.rowsTouched), "the dry run predicts the rows touched")
            #expect(done.steps.map(\.dropped) == plan.steps.map(\.dropped), "the dry run predicts the values dropped")

            let destination = try #require(bundle.currentVersion)
            try Support.expectDestination(store, is: destination, framework: framework, in: folder)
            let source = try #require(bundle.version(named: plan.storeVersion))
            let retained = RetainedData(chain: [source, destination])
            let compared = try retained.verify(original: original, migrated: store, framework: framework)
            // Every retained value is compared: as many as the original's non-null values of
            // the properties followed (counted by SQL inside verify), so none when it has no rows.
            let rows = try Support.entityRowCount(original)
            #expect(rows == 0 || compared > 0, "\(compared) values compared over \(rows) rows")
        }
    }
}
