import Foundation
import ModelArchive
import ModelCompiler
import ModelSchema
import ModelStore
import ModelXML
import Testing
import _ModelTestSupport

/// Validation predicates against the ones Core Data archived in real stores' model caches
/// (the only Apple-written archives in the corpus that hold predicates).
@Suite(Corpus.required)
struct ModelCacheGoldenTests {
    static let stores = [
        ("LoopKit__LoopKit/LoopKitHostedTests/TestCoreData/Model.sqlite.v1.original",
         "LoopKit__LoopKit/LoopKit/Persistence/Model.xcdatamodeld", "Model"),
        ("larromba__EasyLife/EasyLifeTests/EasyLife 1.5.0.sqlite",
         "larromba__EasyLife/EasyLife/EasyLife.xcdatamodeld", "EasyLife 1.5.0"),
    ]

    @Test(arguments: stores)
    func validationPredicatesEqualCoreDatas(_ store: String, _ model: String, _ versionName: String) throws {
        let cache = try #require(try StoreModelCache.archive(at: Corpus.path(store)))
        let apple = try KeyedArchiveReader.unarchive(cache)
        let version = try #require(ModelReader().read(at: Corpus.path(model)).bundle?.version(named: versionName))
        let ours = try KeyedArchiveReader.unarchive(ModelArchiver.archive(version))
        var compared = 0
        for (entityName, appleEntity) in Self.entries(apple["NSEntities"]) {
            let ourEntity = try #require(Self.entries(ours["NSEntities"]).first { $0.0 == entityName }?.1)
            for (propertyName, appleProperty) in Self.entries(appleEntity.object?["NSProperties"]) {
                guard let applePredicates = appleProperty.object?["NSValidationPredicates"]?.object else { continue }
                let ourProperty = try #require(Self.entries(ourEntity.object?["NSProperties"]).first { $0.0 == propertyName }?.1.object)
                let ourPredicates = try #require(ourProperty["NSValidationPredicates"]?.object)
                #expect(ArchiveComparison.differences(applePredicates, ourPredicates) == [], "\(entityName).\(propertyName)")
                let warnings = try #require(ourProperty["NSValidationWarnings"]?.object)
                #expect(ArchiveComparison.differences(try #require(appleProperty.object?["NSValidationWarnings"]?.object), warnings) == [])
                #expect(ourProperty["_P"]?.integer == appleProperty.object?["_P"]?.integer)
                compared += 1
            }
        }
        #expect(compared >= 1)
    }

    /// Attributes alone in an ascending fetch index are marked indexed, and only fetch indexes of
    /// several elements are mirrored into `NSCompoundIndexes`, as in LoopKit's model cache
    /// (`CachedGlucoseObject`: four one-element indexes, compound `[]`; `CachedInsulinDeliveryObject`:
    /// `[[startDate, endDate]]`).
    @Test func indexedAttributesAndCompoundIndexesEqualCoreDatas() throws {
        let (store, model, versionName) = Self.stores[0]
        let apple = try KeyedArchiveReader.unarchive(try #require(try StoreModelCache.archive(at: Corpus.path(store))))
        let version = try #require(ModelReader().read(at: Corpus.path(model)).bundle?.version(named: versionName))
        let ours = try KeyedArchiveReader.unarchive(ModelArchiver.archive(version))
        let ourEntities = Dictionary(Self.entries(ours["NSEntities"]), uniquingKeysWith: { a, _ in a })
        var indexedSeen = 0
        for (entityName, appleEntity) in Self.entries(apple["NSEntities"]) {
            let ourEntity = try #require(ourEntities[entityName]?.object, "\(entityName)")
            #expect(Self.nameLists(ourEntity["NSCompoundIndexes"]) == Self.nameLists(appleEntity.object?["NSCompoundIndexes"]), "\(entityName)")
            let indexed = { (entity: ArchivedObject?) in
                Set(Self.entries(entity?["NSProperties"]).filter { $0.1.object?["NSIsIndexed"]?.bool == true }.map(\.0))
            }
            #expect(indexed(ourEntity) == indexed(appleEntity.object), "\(entityName)")
            indexedSeen += indexed(appleEntity.object).count
        }
        #expect(indexedSeen >= 7)
    }

    /// An `NSCompoundIndexes` array of arrays of names; empty when absent.
    static func nameLists(_ value: ArchiveValue?) -> [[String]] {
        (value?.object?["NS.objects"]?.references ?? []).map { ($0.object?["NS.objects"]?.references ?? []).compactMap(\.string) }
    }

    static func entries(_ value: ArchiveValue?) -> [(String, ArchiveValue)] {
        guard let object = value?.object else { return [] }
        // Model caches use NSKnownKeysDictionary1 (keys in a mapping strategy) for NSEntities.
        if let keys = object["NS.keys"]?.references, let values = object["NS.objects"]?.references {
            return zip(keys, values).compactMap { key, value in key.string.map { ($0, value) } }
        }
        let keys = object["searchMapping"]?.object?["keys"]?.object?["NS.objects"]?.references ?? []
        let values = object["values"]?.object?["NS.objects"]?.references ?? []
        return zip(keys, values).compactMap { key, value in key.string.map { ($0, value) } }
    }
}
