import Testing
import _ModelTestSupport

/// The entity graph: destinations, parents, inheritance cycles, entity names and the entities
/// configurations, fetch requests and fetched properties name (S101–S104, S124).
struct EntityGraphRuleTests {
    @Test func aRelationshipToAnUnknownEntityIsAnError() {
        assertValidation(
            of: """
                <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
                <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" lastSavedToolsVersion="22758" systemVersion="23E224" minimumToolsVersion="Automatic" sourceLanguage="Swift" userDefinedModelVersionIdentifier="">
                    <entity name="Note" representedClassName="Note" syncable="YES">
                        <attribute name="title" optional="YES" attributeType="String"/>
                        1️⃣<relationship name="folder" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Folder" inverseName="notes" inverseEntity="Folder"/>
                    </entity>
                </model>
                """,
            reports: [ExpectedDiagnostic("S101", .error, at: "1️⃣", mentioning: "'folder'", "'Folder'")])
    }

    @Test func anUnknownParentEntityIsAnError() {
        assertValidation(
            of: """
                <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
                <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" lastSavedToolsVersion="22758" systemVersion="23E224" minimumToolsVersion="Automatic" sourceLanguage="Swift" userDefinedModelVersionIdentifier="">
                    1️⃣<entity name="Photo" representedClassName="Photo" parentEntity="Media" syncable="YES">
                        <attribute name="pixels" optional="YES" attributeType="Integer 64" usesScalarValueType="YES"/>
                    </entity>
                </model>
                """,
            reports: [ExpectedDiagnostic("S102", .error, at: "1️⃣", mentioning: "'Photo'", "'Media'")])
    }

    @Test func anInheritanceCycleIsReportedOnceAtTheEntityWhoseNameSortsFirst() {
        assertValidation(
            of: """
                <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
                <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" lastSavedToolsVersion="22758" systemVersion="23E224" minimumToolsVersion="Automatic" sourceLanguage="Swift" userDefinedModelVersionIdentifier="">
                    <entity name="Hen" representedClassName="Hen" parentEntity="Egg" syncable="YES">
                        <attribute name="name" optional="YES" attributeType="String"/>
                    </entity>
                    1️⃣<entity name="Egg" representedClassName="Egg" parentEntity="Hen" syncable="YES">
                        <attribute name="size" optional="YES" attributeType="Double" defaultValueString="0.0" usesScalarValueType="YES"/>
                    </entity>
                    <entity name="Chick" representedClassName="Chick" parentEntity="Hen" syncable="YES">
                        <attribute name="age" optional="YES" attributeType="Integer 16" defaultValueString="0" usesScalarValueType="YES"/>
                    </entity>
                </model>
                """,
            reports: [ExpectedDiagnostic("S103", .error, at: "1️⃣", mentioning: "'Egg' -> 'Hen' -> 'Egg'")])
    }

    @Test func twoEntitiesWithTheSameNameAreAnErrorAtTheSecond() {
        let diagnostics = assertValidation(
            of: """
                <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
                <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" lastSavedToolsVersion="22758" systemVersion="23E224" minimumToolsVersion="Automatic" sourceLanguage="Swift" userDefinedModelVersionIdentifier="">
                    1️⃣<entity name="Tag" representedClassName="Tag" syncable="YES">
                        <attribute name="label" optional="YES" attributeType="String"/>
                    </entity>
                    2️⃣<entity name="Tag" representedClassName="Tag" syncable="YES">
                        <attribute name="color" optional="YES" attributeType="String"/>
                    </entity>
                </model>
                """,
            reports: [ExpectedDiagnostic("S104", .error, at: "2️⃣", mentioning: "'Tag'")])
        #expect(diagnostics.first?.notes.map(\.location.description) == ["3:5"])
    }

    @Test func configurationsFetchRequestsAndFetchedPropertiesMustNameKnownEntities() {
        assertValidation(
            of: """
                <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
                <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" lastSavedToolsVersion="22758" systemVersion="23E224" minimumToolsVersion="Automatic" sourceLanguage="Swift" userDefinedModelVersionIdentifier="">
                    <entity name="Author" representedClassName="Author" syncable="YES">
                        <attribute name="name" optional="YES" attributeType="String"/>
                        1️⃣<fetchedProperty name="drafts" optional="YES">
                            <fetchRequest name="fetchedPropertyFetchRequest" entity="Draft" predicateString="author == $FETCH_SOURCE"/>
                        </fetchedProperty>
                    </entity>
                    2️⃣<fetchRequest name="AllBooks" entity="Book"/>
                    3️⃣<configuration name="Cloud">
                        <memberEntity name="Author"/>
                        <memberEntity name="Publisher"/>
                    </configuration>
                </model>
                """,
            reports: [
                ExpectedDiagnostic("S124", .error, at: "1️⃣", mentioning: "fetched property 'drafts'", "'Draft'"),
                ExpectedDiagnostic("S124", .error, at: "2️⃣", mentioning: "fetch request 'AllBooks'", "'Book'"),
                ExpectedDiagnostic("S124", .error, at: "3️⃣", mentioning: "configuration 'Cloud'", "'Publisher'"),
            ])
    }
}
