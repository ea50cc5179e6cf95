import Foundation
import ModelMigration
import ModelSchema
import ModelXML
import Testing
import _ModelTestSupport

/// Inference as data: the mapping Core Data would infer, every reason it cannot, each at its
/// place in the destination model, and rename suggestions with their fix-it.
struct InferenceTests {
    static let header = #"<?xml version="1.0" encoding="UTF-8" standalone="yes"?>"# + "\n"
        + #"<model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" lastSavedToolsVersion="22758" systemVersion="23E224" minimumToolsVersion="Automatic" sourceLanguage="Swift">"#

    static let v1 = header + """

            <entity name="Animal" representedClassName="Animal" syncable="YES">
                <attribute name="name" optional="YES" attributeType="String"/>
                <attribute name="legs" optional="YES" attributeType="Integer 16" defaultValueString="4" usesScalarValueType="YES"/>
                <attribute name="weight" optional="YES" attributeType="String"/>
                <attribute name="nickname" optional="YES" attributeType="String"/>
            </entity>
            <entity name="Plant" representedClassName="Plant" syncable="YES">
                <attribute name="height" optional="YES" attributeType="Float" defaultValueString="0.0" usesScalarValueType="YES"/>
            </entity>
            <entity name="Rock" representedClassName="Rock" syncable="YES">
                <attribute name="mass" optional="YES" attributeType="Double" defaultValueString="0.0" usesScalarValueType="YES"/>
                <attribute name="color" optional="YES" attributeType="String"/>
            </entity>
        </model>
        """

    static let v2 = MarkedText(header + """

            <entity name="Animal" representedClassName="Animal" parentEntity="LivingThing" syncable="YES">
                <attribute name="legs" optional="YES" attributeType="Integer 32" defaultValueString="4" usesScalarValueType="YES"/>
                1️⃣<attribute name="name" attributeType="String"/>
                2️⃣<attribute name="weight" optional="YES" attributeType="Double" defaultValueString="0.0" usesScalarValueType="YES"/>
                3️⃣<attribute name="alias" optional="YES" attributeType="String"/>
                4️⃣<attribute name="born" attributeType="Date" usesScalarValueType="NO"/>
            </entity>
            <entity name="LivingThing" representedClassName="LivingThing" isAbstract="YES" syncable="YES"/>
            5️⃣<entity name="Plant" representedClassName="Plant" parentEntity="LivingThing" syncable="YES">
                <attribute name="height" optional="YES" attributeType="Double" defaultValueString="0.0" usesScalarValueType="YES"/>
            </entity>
            6️⃣<entity name="Stone" representedClassName="Stone" syncable="YES">
                <attribute name="mass" optional="YES" attributeType="Double" defaultValueString="0.0" usesScalarValueType="YES"/>
                <attribute name="color" optional="YES" attributeType="String"/>
            </entity>
        </model>
        """)

    func versions() throws -> (ModelVersion, ModelVersion) {
        try withTemporaryDirectory { folder in
            let bundle = folder.appendingPathComponent("Zoo.xcdatamodeld")
            try writeFile("Zoo.xcdatamodel/contents", Self.v1, in: bundle)
            try writeFile("Zoo 2.xcdatamodel/contents", Self.v2.text, in: bundle)
            let model = try #require(ModelReader().read(at: bundle.path).bundle)
            return (try #require(model.version(named: "Zoo")), try #require(model.version(named: "Zoo 2")))
        }
    }

    @Test func everyReasonIsReportedWhereItIs() throws {
        let (v1, v2) = try versions()
        let mapping = MappingInference.infer(from: v1, to: v2)
        #expect(!mapping.isPossible)
        let errors = mapping.diagnostics.filter { $0.severity == .error }.map { "\($0.code) \($0.location)" }.sorted()
        #expect(
            errors == [
                "M201 \(Self.v2.location(of: "2️⃣")!)",  // weight: String → Double
                "M202 \(Self.v2.location(of: "1️⃣")!)",  // name becomes required without a default
                "M202 \(Self.v2.location(of: "4️⃣")!)",  // born is new, required, no default
                "M203 \(Self.v2.location(of: "5️⃣")!)",  // Animal and Plant merge under LivingThing
            ].sorted())
    }

    @Test func removedAndAddedLookAlikesGetARenameFixIt() throws {
        let (v1, v2) = try versions()
        let warnings = MappingInference.infer(from: v1, to: v2).diagnostics.filter { $0.code == "M210" }
        #expect(warnings.map(\.location) == [Self.v2.location(of: "3️⃣"), Self.v2.location(of: "6️⃣")])
        #expect(warnings[0].message.contains("'nickname'") && warnings[0].message.contains("'alias'"))
        #expect(warnings[0].notes.first?.message.contains(#"elementID="nickname""#) == true)
        #expect(warnings[1].message.contains("entity 'Rock'"))
    }

    @Test func theMappingSaysWhatEachEntityAndPropertyBecomes() throws {
        let (v1, v2) = try versions()
        let mapping = MappingInference.infer(from: v1, to: v2)
        let kinds = Dictionary(uniqueKeysWithValues: mapping.entities.map { ($0.destination ?? $0.source!, $0.kind) })
        #expect(kinds == ["Animal": .transform, "LivingThing": .add, "Plant": .transform, "Rock": .remove, "Stone": .add])
        let animal = try #require(mapping.mapping(forDestination: "Animal"))
        let legs = try #require(animal.properties.first { $0.destination == "legs" })
        #expect(legs.kind == .transform)
        #expect(legs.change == "Integer 16 → Integer 32")
        let nickname = try #require(animal.properties.first { $0.source == "nickname" })
        #expect(nickname.kind == .remove && nickname.dropsData)
        #expect(mapping.dropsData)
    }

    @Test func theSampleModelsChainIsInferredWithItsRenames() throws {
        let bundle = try MigrationTestSupport.bundle(MigrationTestSupport.library)
        let mapping = MappingInference.infer(from: bundle.versions[0], to: bundle.versions[2])
        #expect(mapping.isPossible)
        #expect(!mapping.dropsData)
        #expect(mapping.mapping(forDestination: "Topic")?.source == "Tag")
        let book = try #require(mapping.mapping(forDestination: "Book"))
        #expect(book.properties.first { $0.destination == "pages" }?.source == "pageCount")
        #expect(book.properties.first { $0.destination == "topics" }?.source == "tags")
    }
}
