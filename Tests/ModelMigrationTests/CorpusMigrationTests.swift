import Foundation
import ModelMigration
import ModelSchema
import ModelStore
import Testing
import _ModelTestSupport

/// Every corpus store whose bundle has a later version, migrated (a copy) to the bundle's current
/// version: it succeeds, or is refused for the reason Apple's inference would give. Afterwards the
/// store has the destination's hashes and `store create`'s schema, and every row and retained
/// value is still there; the dry run predicted the real run.
@Suite(Corpus.required)
struct CorpusMigrationTests {
    typealias Support = MigrationTestSupport

    /// Stores whose migration to the current version is refused, and why.
    static let refusals: [String: String] = [
        // The bundle's current version is its first one; SampleModel2 made this store.
        "SampleModel_V2.sqlite": "134506",
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
            } catch let failure as MigrationFailure {
                #expect(refusal == String(failure.code), "\(failure)")
                return
            }
            if plan.outcome == .impossible {
                let codes = plan.steps.flatMap(\.mapping.diagnostics).filter { $0.severity == .error }.map(\.code)
                #expect(refusal.map(codes.contains) == true, "refused with \(codes)")
                return
            }
            #expect(refusal == nil, "expected a refusal (\(refusal ?? ""))")
            #expect(plan.outcome == .planned)

            options.dryRun = false
            let done = try Migrator.migrate(storeAt: store, bundle: bundle, options: options)
            #expect(done.outcome == .migrated)
            #expect(done.steps.map(\.rowsTouched) == plan.steps.map(\.rowsTouched), "the dry run predicts the rows touched")
            #expect(done.steps.map(\.dropped) == plan.steps.map(\.dropped), "the dry run predicts the values dropped")

            let destination = try #require(bundle.currentVersion)
            try Support.expectDestination(store, is: destination, framework: framework, in: folder)
            let start = try #require(bundle.versions.firstIndex { $0.name == plan.storeVersion })
            let end = try #require(bundle.versions.firstIndex { $0.name == destination.name })
            let retained = RetainedData(chain: Array(bundle.versions[start...end]))
            let compared = try retained.verify(original: original, migrated: store, framework: framework)
            // Every retained value is compared: as many as the original's non-null values of
            // the properties followed (counted by SQL inside verify), so none when it has no rows.
            let rows = try Support.entityRowCount(original)
            #expect(rows == 0 || compared > 0, "\(compared) values compared over \(rows) rows")
        }
    }
}
