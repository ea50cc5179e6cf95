import Foundation
import ModelArchive
import ModelSchema
import ModelXML
import Testing
import _ModelTestSupport

/// Decimal defaults and bounds archive as NSDecimalNumber objects under the class name Apple's
/// archives use (`NSDecimalNumberPlaceholder`), and decode back to the source's values.
@Suite(Corpus.required)
struct DecimalArchiveTests {
    /// momcom's test model: `decimalAttribute` with `minValueString="-4.5" maxValueString="4.5" defaultValueString="0.0"`.
    static let model = "atomicbird__momcom/momcomTests/momcomTests.xcdatamodeld"

    @Test func decimalDefaultsAndBoundsAreDecimalNumbers() throws {
        let bundle = try #require(ModelReader().read(at: Corpus.path(Self.model)).bundle)
        for version in bundle.versions {
            let source = try #require(version.entities.lazy.flatMap(\.attributes).first { $0.name == "decimalAttribute" })
            let root = try KeyedArchiveReader.unarchive(ModelArchiver.archive(version))
            defer { root.releaseGraph() }
            let entity = try #require(version.entities.first { $0.attributes.contains(source) })
            let archivedEntity = try #require(root["NSEntities"]?.object.map { object in
                zip(object["NS.keys"]?.references ?? [], object["NS.objects"]?.references ?? [])
                    .first { $0.0.string == entity.name }?.1.object
            } ?? nil)
            let properties = try #require(archivedEntity["NSProperties"]?.object)
            let attribute = try #require(zip(properties["NS.keys"]?.references ?? [], properties["NS.objects"]?.references ?? [])
                .first { $0.0.string == "decimalAttribute" }?.1.object)
            #expect(attribute["NSDefaultValue"]?.object?.className == "NSDecimalNumberPlaceholder")
            let predicates = attribute["NSValidationPredicates"]?.object?["NS.objects"]?.references ?? []
            #expect(predicates.count == 2)
            for predicate in predicates {
                let constant = predicate.object?["NSRightExpression"]?.object?["NSConstantValue"]?.object
                #expect(constant?.classes == ["NSDecimalNumberPlaceholder", "NSDecimalNumber", "NSNumber", "NSValue", "NSObject"])
            }
            let decoded = try ModelUnarchiver.version(from: ModelArchiver.archive(version), name: version.name, path: "")
            let back = try #require(decoded.entities.lazy.flatMap(\.attributes).first { $0.name == "decimalAttribute" })
            #expect(back.minValueString == source.minValueString && back.maxValueString == source.maxValueString)
            #expect(Double(back.defaultValueString ?? "") == Double(source.defaultValueString ?? ""))
        }
    }
}
