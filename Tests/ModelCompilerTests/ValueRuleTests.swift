import Testing
import _ModelTestSupport

/// Attribute values: defaults and bounds that parse and are in order, known composites, and a
/// type for every persistent attribute (S116–S119, S125, S126).
struct ValueRuleTests {
    @Test func aDefaultValueThatIsNotValidForTheTypeIsAnError() {
        assertValidation(
            of: """
                <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
                <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" lastSavedToolsVersion="22758" systemVersion="23E224" minimumToolsVersion="Automatic" sourceLanguage="Swift" userDefinedModelVersionIdentifier="">
                    <entity name="Counter" representedClassName="Counter" syncable="YES">
                        1️⃣<attribute name="count" attributeType="Integer 16" defaultValueString="70000" usesScalarValueType="YES"/>
                        2️⃣<attribute name="id" optional="YES" attributeType="UUID" defaultValueString="not-a-uuid" usesScalarValueType="NO"/>
                        <attribute name="ratio" attributeType="Double" defaultValueString="0.5" usesScalarValueType="YES"/>
                    </entity>
                </model>
                """,
            reports: [
                ExpectedDiagnostic("S116", .error, at: "1️⃣", mentioning: "'70000'", "'count'", "Integer 16"),
                ExpectedDiagnostic("S116", .error, at: "2️⃣", mentioning: "'not-a-uuid'", "'id'", "UUID"),
            ])
    }

    @Test func anIntegerDefaultWrittenAsADecimalIsWarnedAbout() {
        assertValidation(
            of: """
                <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
                <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" lastSavedToolsVersion="22758" systemVersion="23E224" minimumToolsVersion="Automatic" sourceLanguage="Swift" userDefinedModelVersionIdentifier="">
                    <entity name="Counter" representedClassName="Counter" syncable="YES">
                        1️⃣<attribute name="count" attributeType="Integer 32" defaultValueString="0.0" usesScalarValueType="YES"/>
                    </entity>
                </model>
                """,
            reports: [ExpectedDiagnostic("S117", .warning, at: "1️⃣", mentioning: "'0.0'", "'count'", "read as 0")])
    }

    @Test func aMinimumAboveTheMaximumIsAnError() {
        assertValidation(
            of: """
                <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
                <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" lastSavedToolsVersion="22758" systemVersion="23E224" minimumToolsVersion="Automatic" sourceLanguage="Swift" userDefinedModelVersionIdentifier="">
                    <entity name="Review" representedClassName="Review" syncable="YES">
                        1️⃣<attribute name="stars" attributeType="Integer 16" minValueString="5" maxValueString="1" defaultValueString="3" usesScalarValueType="YES"/>
                    </entity>
                </model>
                """,
            reports: [ExpectedDiagnostic("S118", .error, at: "1️⃣", mentioning: "'stars'", "'5'", "'1'")])
    }

    @Test func aBoundThatIsNotANumberIsAnError() {
        assertValidation(
            of: """
                <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
                <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" lastSavedToolsVersion="22758" systemVersion="23E224" minimumToolsVersion="Automatic" sourceLanguage="Swift" userDefinedModelVersionIdentifier="">
                    <entity name="User" representedClassName="User" syncable="YES">
                        1️⃣<attribute name="nickname" optional="YES" attributeType="String" minValueString="one" maxValueString="20"/>
                    </entity>
                </model>
                """,
            reports: [ExpectedDiagnostic("S119", .error, at: "1️⃣", mentioning: "minimum", "'one'", "'nickname'")])
    }

    @Test func aCompositeAttributeNamingAnUnknownCompositeIsAnError() {
        assertValidation(
            of: """
                <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
                <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" lastSavedToolsVersion="22758" systemVersion="23E224" minimumToolsVersion="Automatic" sourceLanguage="Swift" userDefinedModelVersionIdentifier="">
                    <entity name="Venue" representedClassName="Venue" syncable="YES">
                        <attribute name="address" optional="YES" attributeType="Composite" composite="Address"/>
                        1️⃣<attribute name="location" optional="YES" attributeType="Composite" composite="Coordinates"/>
                    </entity>
                    <composite name="Address">
                        <attribute name="street" optional="YES" attributeType="String"/>
                        <attribute name="city" optional="YES" attributeType="String"/>
                    </composite>
                </model>
                """,
            reports: [ExpectedDiagnostic("S125", .error, at: "1️⃣", mentioning: "'location'", "'Coordinates'")])
    }

    @Test func aPersistentAttributeWithoutATypeIsAnError() {
        assertValidation(
            of: """
                <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
                <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" lastSavedToolsVersion="22758" systemVersion="23E224" minimumToolsVersion="Automatic" sourceLanguage="Swift" userDefinedModelVersionIdentifier="">
                    <entity name="Sketch" representedClassName="Sketch" syncable="YES">
                        <attribute name="preview" optional="YES" transient="YES"/>
                        1️⃣<attribute name="strokes" optional="YES"/>
                    </entity>
                </model>
                """,
            reports: [ExpectedDiagnostic("S126", .error, at: "1️⃣", mentioning: "'strokes'")])
    }
}
