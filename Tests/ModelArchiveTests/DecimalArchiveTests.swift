import Foundation
import ModelArchive
import ModelSchema
import ModelXML
import Testing
import _ModelTestSupport

/// Decimal defaults and bounds archive as NSDecimalNumber objects under the class name Apple's
/// archives use (`NSDecimalNumberPlaceholder`), with the fields Foundation gives the text, and
/// decode back to the source's values.
@Suite(Corpus.required)
struct DecimalArchiveTests {
    /// A default's text and the NSDecimalNumber fields `+[NSDecimalNumber decimalNumberWithString:]`
    /// gives it. `0.0` is as Xcode 26.2 archived it in Karim-ezzedine/CartKit's `CartStorage.mom`
    /// (exponent -1, length 0, not compact, 16 zero bytes in place); the others follow from
    /// Foundation's scan and compaction (swiftlang/swift-foundation
    /// `Decimal._decimal(from:decimalSeparator:matchEntireString:)`, `Decimal.compact()` and
    /// `DecimalTests.stringNoMatch`'s `-0.0e1`), which momc archives as they are
    /// (`-[NSDecimalNumber encodeWithCoder:]`: exponent, length, negative, compact, byte order 1,
    /// all 16 mantissa bytes).
    struct Expected: Sendable, CustomStringConvertible {
        var text: String
        var exponent: Int64
        var length: Int64
        var isNegative: Bool
        var isCompact: Bool
        var mantissa: [UInt8]
        var description: String { text }
    }

    static let values: [Expected] = [
        // Zero is never compacted: it keeps the exponent its fraction digits gave it.
        Expected(text: "0", exponent: 0, length: 0, isNegative: false, isCompact: false, mantissa: []),
        Expected(text: "0.0", exponent: -1, length: 0, isNegative: false, isCompact: false, mantissa: []),
        Expected(text: "0.00", exponent: -2, length: 0, isNegative: false, isCompact: false, mantissa: []),
        // A negative zero has NaN's bits; the scan gives plain zero instead.
        Expected(text: "-0.0", exponent: 0, length: 0, isNegative: false, isCompact: false, mantissa: []),
        Expected(text: "1.5", exponent: -1, length: 1, isNegative: false, isCompact: true, mantissa: [15]),
        Expected(text: "1.50", exponent: -1, length: 1, isNegative: false, isCompact: true, mantissa: [15]),
        Expected(text: "100", exponent: 2, length: 1, isNegative: false, isCompact: true, mantissa: [1]),
        Expected(text: "-4.5", exponent: -1, length: 1, isNegative: true, isCompact: true, mantissa: [45]),
        Expected(text: "2.5e2", exponent: 1, length: 1, isNegative: false, isCompact: true, mantissa: [25]),
        Expected(text: "70000", exponent: 4, length: 1, isNegative: false, isCompact: true, mantissa: [7]),
        Expected(text: "65537", exponent: 0, length: 2, isNegative: false, isCompact: true, mantissa: [1, 0, 1]),
        // 1234567890123456789 is 0x112210F47DE98115.
        Expected(text: "12345678901234567890", exponent: 1, length: 4, isNegative: false, isCompact: true,
                 mantissa: [0x15, 0x81, 0xE9, 0x7D, 0xF4, 0x10, 0x22, 0x11]),
    ]

    @Test(arguments: values)
    func defaultTextArchivesAsFoundationParsesIt(_ expected: Expected) throws {
        let contents = """
            <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
            <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" lastSavedToolsVersion="23507" \
            systemVersion="24A335" minimumToolsVersion="Automatic" sourceLanguage="Swift" userDefinedModelVersionIdentifier="">
                <entity name="Price" representedClassName="Price" syncable="YES" codeGenerationType="class">
                    <attribute name="amount" optional="YES" attributeType="Decimal" defaultValueString="\(expected.text)"/>
                </entity>
            </model>
            """
        let (read, diagnostics) = ModelReader().readVersion(contents: Array(contents.utf8), name: "Price", path: "contents")
        let version = try #require(read, "\(diagnostics)")
        let root = try KeyedArchiveReader.unarchive(ModelArchiver.archive(version))
        defer { root.releaseGraph() }
        let entity = try #require(root["NSEntities"]?.object?["NS.objects"]?.references?.first?.object)
        let attribute = try #require(entity["NSProperties"]?.object?["NS.objects"]?.references?.first?.object)
        let number = try #require(attribute["NSDefaultValue"]?.object)
        #expect(number.classes == ["NSDecimalNumberPlaceholder", "NSDecimalNumber", "NSNumber", "NSValue", "NSObject"])
        #expect(number["NS.exponent"]?.integer == expected.exponent)
        #expect(number["NS.length"]?.integer == expected.length)
        #expect(number["NS.negative"]?.bool == expected.isNegative)
        #expect(number["NS.compact"]?.bool == expected.isCompact)
        #expect(number["NS.mantissa.bo"]?.integer == 1)
        let padded = expected.mantissa + [UInt8](repeating: 0, count: 16 - expected.mantissa.count)
        // In place, as Foundation's encodeBytes:length:forKey: writes it, not a data object.
        guard case .bytes(let mantissa)? = number["NS.mantissa"] else {
            Issue.record("NS.mantissa is not bytes in place")
            return
        }
        #expect(mantissa == padded)
    }

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
