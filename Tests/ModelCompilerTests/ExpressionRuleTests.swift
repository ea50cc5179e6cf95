import ModelCompiler
import ModelSchema
import ModelXML
import Testing

/// S127: predicates and expressions written as text must parse.
struct ExpressionRuleTests {
    @Test func anUnparsableFetchRequestPredicateIsAnError() throws {
        let xml = """
            <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
            <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" lastSavedToolsVersion="22758" systemVersion="23E224" minimumToolsVersion="Automatic" sourceLanguage="Swift" userDefinedModelVersionIdentifier="">
                <entity name="A" representedClassName="A" syncable="YES">
                    <attribute name="x" optional="YES" attributeType="String"/>
                </entity>
                <fetchRequest name="Broken" entity="A" predicateString="x =="/>
            </model>
            """
        let (version, _) = ModelReader().readVersion(contents: Array(xml.utf8), name: "M", path: "contents")
        let diagnostics = ModelValidator().validate(try #require(version))
        #expect(diagnostics.map(\.code) == ["S127"])
        #expect(diagnostics.first?.location == SourceLocation(line: 6, column: 5))
    }
}
