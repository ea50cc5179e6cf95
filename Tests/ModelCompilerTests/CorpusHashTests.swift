import Foundation
import ModelSchema
import ModelStore
import ModelXML
import Testing
import _ModelTestSupport

/// A corpus store and the model version that created it, as `SOURCES.md` records.
struct KnownStore: Sendable, CustomTestStringConvertible {
    var store: String
    var model: String
    var version: String

    var testDescription: String { (store as NSString).lastPathComponent }
}

/// Our hashes against the values Apple wrote: every entity hash in each store's
/// `NSStoreModelVersionHashes` (plus checksum and digest where the store has them), and both
/// Xcode-compiled `VersionInfo.plist` files. Expected values are read from the files.
@Suite(.enabled(if: Corpus.isAvailable, Comment(rawValue: Corpus.absenceNote)))
struct CorpusHashTests {
    static let wire = "wireapp__wire-ios-data-model"
    static let wireModel = "\(wire)/Resources/zmessaging.xcdatamodeld"
    static let wibosco = "wibosco__CoreDataMigration-Example"
    static let revised = "wibosco__CoreDataMigrationRevised-Example"
    static let plus = "alemar11__CoreDataPlus/Tests/Resources"

    static let knownStores: [KnownStore] = [
        KnownStore(
            store: "LoopKit__LoopKit/LoopKitHostedTests/TestCoreData/Model.sqlite.v1.original",
            model: "LoopKit__LoopKit/LoopKit/Persistence/Model.xcdatamodeld", version: "Model"),
        KnownStore(
            store: "\(plus)/SampleModel/Fixtures/SampleModel_V1.sqlite",
            model: "\(plus)/SampleModel/SampleModel.xcdatamodeld", version: "SampleModel"),
        KnownStore(
            store: "\(plus)/SampleModel/Fixtures/SampleModel_V2.sqlite",
            model: "\(plus)/SampleModel/SampleModel.xcdatamodeld", version: "SampleModel2"),
        KnownStore(
            store: "\(plus)/SampleModel3/Fixtures/SampleModel3_V1.sqlite",
            model: "\(plus)/SampleModel3/SampleModel3.xcdatamodeld", version: "SampleModel3"),
        KnownStore(
            store: "bignerdranch__CoreDataStack/Sample Model/Deprecated/TestModel.sqlite",
            model: "bignerdranch__CoreDataStack/Sample Model/Deprecated/Sample.xcdatamodeld", version: "TestModel"),
        KnownStore(
            store: "ebf__CTDataStoreManager/CTDataStoreManager/CTDataStoreManagerTests/CoreDataTests/MigrationTest/TestMigrationStore_version_1.sqlite",
            model: "ebf__CTDataStoreManager/CTDataStoreManager/CTDataStoreManagerTests/CoreDataTests/MigrationTest/TestMigrationStore.xcdatamodeld",
            version: "TestMigrationStore"),
        KnownStore(
            store: "hwaxxer__BookMigration/BookMigration/Model1.sqlite",
            model: "hwaxxer__BookMigration/BookMigration/Model.xcdatamodeld", version: "Model1"),
        KnownStore(
            store: "kodecocodes__cdt-materials/09-multiple-managed-object-contexts/projects/final/SurfJournal/SurfJournal/CoreDataSeed/SurfJournalModel.sqlite",
            model: "kodecocodes__cdt-materials/09-multiple-managed-object-contexts/projects/final/SurfJournal/SurfJournal/SurfJournalModel.xcdatamodeld",
            version: "SurfJournalModel"),
        KnownStore(
            store: "larromba__EasyLife/EasyLifeTests/EasyLife 1.5.0.sqlite",
            model: "larromba__EasyLife/EasyLife/EasyLife.xcdatamodeld", version: "EasyLife 1.5.0"),
    ] + wiboscoStores + wireStores

    static let wiboscoStores: [KnownStore] = {
        let versions = ["CoreDataMigration_Example", "CoreDataMigration_Example 2", "CoreDataMigration_Example 3"]
        var stores = [KnownStore]()
        for repo in [wibosco, revised] {
            let model = "\(repo)/CoreDataMigration-Example/CoreData/Model/CoreDataMigration_Example.xcdatamodeld"
            for (index, version) in versions.enumerated() {
                stores.append(
                    KnownStore(
                        store: "\(repo)/CoreDataMigration-ExampleTests/Resources/SQLite/CoreDataMigration_Example_\(index + 1).sqlite",
                        model: model, version: version))
            }
        }
        stores.append(
            KnownStore(
                store: "\(wibosco)/CoreDataMigration-ExampleTests/Resources/SQLite/CoreDataMigration_Example_WAL.sqlite",
                model: "\(wibosco)/CoreDataMigration-Example/CoreData/Model/CoreDataMigration_Example.xcdatamodeld",
                version: "CoreDataMigration_Example 4"))
        return stores
    }()

    /// Wire's fixtures; `store2-49-0` was made by 2.24.1, as its metadata says (SOURCES.md).
    static let wireStores: [KnownStore] = [
        ("store1-25", "zmessaging"), ("store1-28", "zmessaging1.28"), ("store2-3", "zmessaging2.3"),
        ("store2-21-1", "zmessaging2.21.1"), ("store2-30-0", "zmessaging2.30.0"), ("store2-49-0", "zmessaging2.24.1"),
        ("store2-60-0", "zmessaging2.60.0"), ("store2-78-0", "zmessaging2.78.0"), ("store2-82-0", "zmessaging2.82.0"),
        ("store2-91-0", "zmessaging2.91.0"), ("store2-98-0", "zmessaging2.98.0"), ("store2-101-0", "zmessaging2.101.0"),
    ].map { KnownStore(store: "\(wire)/Tests/Resources/\($0.0).wiredatabase", model: wireModel, version: $0.1) }

    @Test(arguments: knownStores)
    func hashesEqualTheStoreMetadata(_ known: KnownStore) throws {
        let metadata = try StoreMetadata.read(at: Corpus.path(known.store))
        let version = try #require(try Self.version(known.version, of: known.model))
        let hasher = VersionHasher(version)
        let ours = hasher.entityHashes()
        #expect(!metadata.versionHashes.isEmpty)
        #expect(Set(ours.keys) == Set(metadata.versionHashes.keys))
        for (entity, apple) in metadata.versionHashes {
            #expect(ours[entity] == apple, "entity '\(entity)' of \(known.version)")
        }
        if let checksum = metadata.versionChecksum {
            #expect(hasher.versionChecksum(ours) == checksum)
        }
        if let digest = metadata.hashesDigest {
            #expect(hasher.hashesDigest(ours) == digest)
        }
    }

    @Test func storesWithChecksumsAndDigestsAreCovered() throws {
        let metadata = try Self.knownStores.map { try StoreMetadata.read(at: Corpus.path($0.store)) }
        #expect(metadata.filter { $0.versionChecksum != nil }.count >= 1)
        #expect(metadata.filter { $0.hashesDigest != nil }.count >= 4)
    }

    /// Both `.momd` bundles Xcode compiled, against the sources they were compiled from.
    @Test(arguments: [
        ("\(plus)/SampleModel/Fixtures/SampleModel.momd", "alemar11__CoreDataPlus@c42926a7797e/Tests/Resources/SampleModel/SampleModel.xcdatamodeld"),
        ("\(plus)/SampleModel/Fixtures/SampleModel.momd", "\(plus)/SampleModel/SampleModel.xcdatamodeld"),
        ("\(plus)/SampleModel3/Fixtures/SampleModel3.momd", "\(plus)/SampleModel3/SampleModel3.xcdatamodeld"),
    ])
    func hashesEqualXcodesVersionInfo(_ momd: String, _ source: String) throws {
        let data = try #require(FileManager.default.contents(atPath: Corpus.path("\(momd)/VersionInfo.plist")))
        let info = try #require(try PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any])
        let hashesByVersion = try #require(info["NSManagedObjectModel_VersionHashes"] as? [String: [String: Data]])
        let checksums = info["NSManagedObjectModel_VersionChecksums"] as? [String: String]
        let bundle = try #require(ModelReader().read(at: Corpus.path(source)).bundle)
        #expect(bundle.currentVersionName == info["NSManagedObjectModel_CurrentVersionName"] as? String)
        #expect(Set(bundle.versions.map(\.name)) == Set(hashesByVersion.keys))
        for (name, apple) in hashesByVersion {
            let version = try #require(bundle.version(named: name))
            let hasher = VersionHasher(version)
            let ours = hasher.entityHashes()
            #expect(ours.mapValues(\.bytes) == apple.mapValues { [UInt8]($0) }, "version \(name)")
            if let checksum = checksums?[name] {
                #expect(hasher.versionChecksum(ours) == checksum, "checksum of \(name)")
            }
        }
    }

    static func version(_ name: String, of model: String) throws -> ModelVersion? {
        let result = ModelReader().read(at: Corpus.path(model))
        #expect(!result.diagnostics.contains { $0.severity == .error })
        return result.bundle?.version(named: name)
    }
}
