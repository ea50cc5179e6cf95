import Foundation
import GRDB
import ModelMigration
import ModelSchema
import ModelStore
import Testing
import _ModelTestSupport

/// Migrating the sample model's fixtures: every pair of versions, the dry run against the real run, refusals
/// and failures that must leave the store as it was.
struct FixtureMigrationTests {
    typealias Support = MigrationTestSupport

    @Test(arguments: [("Library-v1.sqlite", "Library 2"), ("Library-v1.sqlite", "Library 3"), ("Library-v2.sqlite", "Library 3")])
    func migratesAndKeepsEveryRetainedValue(_ fixture: String, _ destination: String) throws {
        try withTemporaryDirectory { folder in
            let bundle = try Support.bundle(Support.library)
            let original = Support.fixture(fixture)
            let store = try Support.copy(original, into: folder)
            var options = Migrator.Options()
            options.destination = destination
            options.dryRun = true
            let plan = try Migrator.migrate(storeAt: store, bundle: bundle, options: options)
            #expect(plan.outcome == .planned)
            #expect(plan.risk == .safe)
            #expect(Support.fileBytes(store) == Support.fileBytes(original), "a dry run changes nothing")

            options.dryRun = false
            options.backupPath = folder.appendingPathComponent("backup.sqlite").path
            let done = try Migrator.migrate(storeAt: store, bundle: bundle, options: options)
            #expect(done.outcome == .migrated)
            #expect(done.steps.map(\.rowsTouched) == plan.steps.map(\.rowsTouched), "the dry run predicts the rows touched")
            #expect(done.steps.map(\.dropped) == plan.steps.map(\.dropped), "the dry run predicts the values dropped")
            let backup = try StoreMetadata.read(at: options.backupPath!)
            #expect(backup.versionHashes == (try StoreMetadata.read(at: original)).versionHashes, "the backup is the store before")

            let target = try #require(bundle.version(named: destination))
            try Support.expectDestination(store, is: target, framework: .current, in: folder)
            #expect(plan.steps.count == 1, "one direct step")
            let source = try #require(bundle.version(named: plan.storeVersion))
            let compared = try RetainedData(chain: [source, target]).verify(original: original, migrated: store, framework: .current)
            #expect(compared > 20)
        }
    }

    /// Version 2 renames one attribute and adds another: the table is changed in place
    /// (`RENAME COLUMN`, `ADD COLUMN`), never copied, whatever its size.
    @Test func aPurelyAdditiveStepDoesNotRewriteTheTable() throws {
        try withTemporaryDirectory { folder in
            let store = try Support.copy(Support.fixture("Library-v1.sqlite"), into: folder)
            var options = Migrator.Options()
            options.destination = "Library 2"
            options.makesBackup = false
            let result = try Migrator.migrate(storeAt: store, bundle: try Support.bundle(Support.library), options: options)
            let step = try #require(result.steps.first)
            #expect(step.rewrittenTables == [])
            #expect(step.rowsTouched == 0)
            #expect(step.statements.map(\.sql).filter { $0.hasPrefix("ALTER TABLE ZPUBLICATION") } == [
                "ALTER TABLE ZPUBLICATION RENAME COLUMN ZPAGECOUNT TO ZPAGES", "ALTER TABLE ZPUBLICATION ADD COLUMN ZSUMMARY VARCHAR",
            ])
            #expect(!step.statements.contains { $0.sql.contains("INSERT INTO ZPUBLICATION") })
        }
    }

    @Test func aStoreAtTheDestinationIsUpToDate() throws {
        let result = try Migrator.migrate(storeAt: Support.fixture("Library-v3.sqlite"), bundle: try Support.bundle(Support.library))
        #expect(result.outcome == .upToDate)
        #expect(result.steps.isEmpty)
    }

    /// A version that drops a column with values: the dry run counts them, a run without
    /// permission is refused and changes nothing, a run with it drops exactly those.
    @Test func aStepThatDropsDataIsCountedAndRefusedUnlessAllowed() throws {
        try withTemporaryDirectory { folder in
            let bundle = try libraryWithVersion4(in: folder)
            let original = Support.fixture("Library-v3.sqlite")
            let store = try Support.copy(original, into: folder)
            var options = Migrator.Options()
            options.dryRun = true
            let plan = try Migrator.migrate(storeAt: store, bundle: bundle, options: options)
            #expect(plan.risk == .dropsData)
            #expect(plan.steps.last?.dropped.filter { $0.count > 0 } == [DroppedValues(entity: "Publication", property: "summary", count: 3)])

            options.dryRun = false
            options.makesBackup = false
            let refused = try Migrator.migrate(storeAt: store, bundle: bundle, options: options)
            #expect(refused.outcome == .refusedDataLoss)
            #expect(Support.fileBytes(store) == Support.fileBytes(original))

            options.allowsDataLoss = true
            let done = try Migrator.migrate(storeAt: store, bundle: bundle, options: options)
            #expect(done.outcome == .migrated)
            #expect(done.steps.last?.dropped == plan.steps.last?.dropped)
            try Support.expectDestination(store, is: try #require(bundle.version(named: "Library 4")), framework: .current, in: folder)
        }
    }

    /// Tag names are unique; a store whose unique index was dropped behind Core Data's back and
    /// then got two tags of the same name cannot be migrated to version 3, which rebuilds the
    /// table and its index, and the failure leaves every byte as it was.
    @Test func aViolatedConstraintFailsAndLeavesTheStoreAsItWas() throws {
        try withTemporaryDirectory { folder in
            let store = try Support.copy(Support.fixture("Library-v2.sqlite"), into: folder)
            try DatabaseQueue(path: store).write { db in
                try db.execute(sql: "DROP INDEX Z_Tag_UNIQUE_name")
                try db.execute(sql: "UPDATE ZTAG SET ZNAME = 'classic' WHERE Z_PK = 1")
            }
            let before = Support.fileBytes(store)
            var options = Migrator.Options()
            options.makesBackup = false
            #expect { try Migrator.migrate(storeAt: store, bundle: try Support.bundle(Support.library), options: options) } throws: { error in
                (error as? MigrationError)?.errorClass == .constraintViolation && (error as? MigrationError)?.code == 134111
            }
            #expect(Support.fileBytes(store) == before)
        }
    }

    /// The sample model plus a fourth version without `summary`.
    func libraryWithVersion4(in folder: URL) throws -> ModelBundle {
        let copy = folder.appendingPathComponent("Library.xcdatamodeld")
        try FileManager.default.copyItem(atPath: Support.library, toPath: copy.path)
        let v3 = try String(contentsOf: copy.appendingPathComponent("Library 3.xcdatamodel/contents"), encoding: .utf8)
        let v4 = v3.replacingOccurrences(of: #"userDefinedModelVersionIdentifier="3""#, with: #"userDefinedModelVersionIdentifier="4""#)
            .replacingOccurrences(of: "        <attribute name=\"summary\" optional=\"YES\" attributeType=\"String\"/>\n", with: "")
        #expect(v4 != v3)
        try writeFile("Library 4.xcdatamodel/contents", v4, in: copy)
        try writeFile(
            ".xccurrentversion",
            #"<?xml version="1.0" encoding="UTF-8"?><plist version="1.0"><dict><key>_XCCurrentVersionName</key><string>Library 4.xcdatamodel</string></dict></plist>"#,
            in: copy)
        return try Support.bundle(copy.path)
    }
}
