import Testing
import _ModelTestSupport

/// Property and entity names: unique, not inherited twice, not reserved, usable in SQL, and not
/// too many (S105, S106, S120–S122).
struct PropertyNameRuleTests {
    @Test func twoPropertiesWithTheSameNameAreAnErrorAtTheSecond() {
        let diagnostics = assertValidation(
            of: """
                <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
                <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" lastSavedToolsVersion="22758" systemVersion="23E224" minimumToolsVersion="Automatic" sourceLanguage="Swift" userDefinedModelVersionIdentifier="">
                    <entity name="Event" representedClassName="Event" syncable="YES">
                        <attribute name="date" optional="YES" attributeType="Date" usesScalarValueType="NO"/>
                        <attribute name="title" optional="YES" attributeType="String"/>
                        1️⃣<attribute name="date" optional="YES" attributeType="String"/>
                    </entity>
                </model>
                """,
            reports: [ExpectedDiagnostic("S105", .error, at: "1️⃣", mentioning: "'date'", "'Event'")])
        #expect(diagnostics.first?.notes.map(\.location.description) == ["4:9"])
    }

    @Test func aPropertyWithTheNameOfAnInheritedOneIsAnError() {
        let diagnostics = assertValidation(
            of: """
                <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
                <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" lastSavedToolsVersion="22758" systemVersion="23E224" minimumToolsVersion="Automatic" sourceLanguage="Swift" userDefinedModelVersionIdentifier="">
                    <entity name="Media" representedClassName="Media" isAbstract="YES" syncable="YES">
                        <attribute name="caption" optional="YES" attributeType="String"/>
                    </entity>
                    <entity name="Photo" representedClassName="Photo" parentEntity="Media" syncable="YES">
                        <attribute name="pixels" optional="YES" attributeType="Integer 64" defaultValueString="0" usesScalarValueType="YES"/>
                    </entity>
                    <entity name="Panorama" representedClassName="Panorama" parentEntity="Photo" syncable="YES">
                        1️⃣<attribute name="caption" optional="YES" attributeType="String"/>
                    </entity>
                </model>
                """,
            reports: [ExpectedDiagnostic("S106", .error, at: "1️⃣", mentioning: "'caption'", "'Panorama'", "'Media'")])
        #expect(diagnostics.first?.notes.map(\.location.description) == ["4:9"])
    }

    @Test func aPropertyNameThatNSManagedObjectUsesIsAnError() {
        assertValidation(
            of: """
                <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
                <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" lastSavedToolsVersion="22758" systemVersion="23E224" minimumToolsVersion="Automatic" sourceLanguage="Swift" userDefinedModelVersionIdentifier="">
                    <entity name="Product" representedClassName="Product" syncable="YES">
                        <attribute name="name" optional="YES" attributeType="String"/>
                        1️⃣<attribute name="description" optional="YES" attributeType="String"/>
                    </entity>
                </model>
                """,
            reports: [ExpectedDiagnostic("S120", .error, at: "1️⃣", mentioning: "'description'")])
    }

    @Test func namesThatAreNotSQLIdentifiersAreErrors() {
        assertValidation(
            of: """
                <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
                <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" lastSavedToolsVersion="22758" systemVersion="23E224" minimumToolsVersion="Automatic" sourceLanguage="Swift" userDefinedModelVersionIdentifier="">
                    1️⃣<entity name="2Do" representedClassName="ToDo" syncable="YES">
                        2️⃣<attribute name="due-date" optional="YES" attributeType="Date" usesScalarValueType="NO"/>
                        <attribute name="done" optional="YES" attributeType="Boolean" usesScalarValueType="YES"/>
                    </entity>
                </model>
                """,
            reports: [
                ExpectedDiagnostic("S121", .error, at: "1️⃣", mentioning: "entity name '2Do'"),
                ExpectedDiagnostic("S121", .error, at: "2️⃣", mentioning: "property name 'due-date'"),
            ])
    }

    @Test func anEntityWithMoreThanAHundredPropertiesIsWarnedAbout() {
        // 60 inherited and 41 own: the limit counts what the entity sees.
        let inherited = (1...60).map { "        <attribute name=\"p\($0)\" optional=\"YES\" attributeType=\"String\"/>" }
        let own = (1...41).map { "        <attribute name=\"c\($0)\" optional=\"YES\" attributeType=\"String\"/>" }
        assertValidation(
            of: """
                <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
                <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" lastSavedToolsVersion="22758" systemVersion="23E224" minimumToolsVersion="Automatic" sourceLanguage="Swift" userDefinedModelVersionIdentifier="">
                    <entity name="Base" representedClassName="Base" isAbstract="YES" syncable="YES">
                \(inherited.joined(separator: "\n"))
                    </entity>
                    1️⃣<entity name="Survey" representedClassName="Survey" parentEntity="Base" syncable="YES">
                \(own.joined(separator: "\n"))
                    </entity>
                </model>
                """,
            reports: [ExpectedDiagnostic("S122", .warning, at: "1️⃣", mentioning: "'Survey'", "101")])
    }
}
