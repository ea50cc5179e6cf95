import Foundation
import Testing

/// A corpus store and the model version that created it, as `SOURCES.md` records.
public struct KnownStore: Sendable, CustomTestStringConvertible {
    public var store: String
    public var model: String
    public var version: String

    public var testDescription: String { (store as NSString).lastPathComponent }
}

/// The corpus stores whose creating model version is known (SOURCES.md), shared by the hash,
/// schema and store-command tests.
public enum CorpusStores {
    public static let wire = "wireapp__wire-ios-data-model"
    public static let wireModel = "\(wire)/Resources/zmessaging.xcdatamodeld"
    public static let wibosco = "wibosco__CoreDataMigration-Example"
    public static let revised = "wibosco__CoreDataMigrationRevised-Example"
    public static let plus = "alemar11__CoreDataPlus/Tests/Resources"

    public static let known: [KnownStore] = [
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

    public static let wiboscoStores: [KnownStore] = {
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
    public static let wireStores: [KnownStore] = [
        ("store1-25", "zmessaging"), ("store1-28", "zmessaging1.28"), ("store2-3", "zmessaging2.3"),
        ("store2-21-1", "zmessaging2.21.1"), ("store2-30-0", "zmessaging2.30.0"), ("store2-49-0", "zmessaging2.24.1"),
        ("store2-60-0", "zmessaging2.60.0"), ("store2-78-0", "zmessaging2.78.0"), ("store2-82-0", "zmessaging2.82.0"),
        ("store2-91-0", "zmessaging2.91.0"), ("store2-98-0", "zmessaging2.98.0"), ("store2-101-0", "zmessaging2.101.0"),
    ].map { KnownStore(store: "\(wire)/Tests/Resources/\($0.0).wiredatabase", model: wireModel, version: $0.1) }

    /// The Recipes sample's store, written by build 241 at `Recipes`, the Xcode 3 version its
    /// mapping model starts from (its hashes say so; SOURCES.md).
    public static let recipes = KnownStore(
        store: "thepost__iPhoneCoreDataRecipesMigration/RecipeData/Recipes.sqlite",
        model: "thepost__iPhoneCoreDataRecipesMigration/Recipes.xcdatamodeld", version: "Recipes")

    /// TranslationCatalog's test stores, one per single-version bundle `CatalogModel_<n>` (their
    /// hashes match; builds 1513 and 1516, the newest in the corpus).
    public static let translationCatalogStores: [KnownStore] = ["", "_v2", "_v3"].enumerated().map { index, suffix in
        let repo = "richardpiazza__TranslationCatalog@2735875"
        return KnownStore(
            store: "\(repo)/Tests/LocalizerTests/Resources/test_multi_language_core_data\(suffix).sqlite",
            model: "\(repo)/Sources/TranslationCatalogCoreData/Resources/CatalogModel_\(index + 1).xcdatamodeld",
            version: "CatalogModel")
    }
}
