import ModelSchema
import Testing
import _ModelTestSupport

/// The validator as a whole: every rule runs, so one run reports every problem, and a sound
/// model using the features the rules look at reports nothing.
struct ModelValidatorTests {
    @Test func aModelWithManyProblemsReportsThemAllInOneRun() {
        let diagnostics = assertValidation(
            of: """
                <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
                <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" lastSavedToolsVersion="22758" systemVersion="23E224" minimumToolsVersion="Automatic" sourceLanguage="Swift" userDefinedModelVersionIdentifier="">
                    1️⃣<entity name="Note" representedClassName="Note" parentEntity="Document" syncable="YES">
                        2️⃣<attribute name="count" attributeType="Integer 16" defaultValueString="many" usesScalarValueType="YES"/>
                        3️⃣<attribute name="self" optional="YES" attributeType="String"/>
                        4️⃣<attribute name="count" optional="YES" attributeType="String"/>
                        5️⃣<attribute name="body" optional="YES"/>
                        6️⃣<relationship name="folder" optional="YES" maxCount="1" deletionRule="No Action" destinationEntity="Folder"/>
                        7️⃣<relationship name="tags" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Tag" inverseName="notes" inverseEntity="Tag"/>
                    </entity>
                    <entity name="Folder" representedClassName="Folder" syncable="YES">
                        <attribute name="name" optional="YES" attributeType="String"/>
                        <uniquenessConstraints>
                            8️⃣<uniquenessConstraint>
                                <constraint value="title"/>
                            </uniquenessConstraint>
                        </uniquenessConstraints>
                    </entity>
                </model>
                """,
            reports: [
                ExpectedDiagnostic("S102", .error, at: "1️⃣", mentioning: "'Document'"),
                ExpectedDiagnostic("S116", .error, at: "2️⃣", mentioning: "'many'"),
                ExpectedDiagnostic("S120", .error, at: "3️⃣", mentioning: "'self'"),
                ExpectedDiagnostic("S105", .error, at: "4️⃣", mentioning: "'count'"),
                ExpectedDiagnostic("S126", .error, at: "5️⃣", mentioning: "'body'"),
                ExpectedDiagnostic("S107", .warning, at: "6️⃣", mentioning: "'folder'"),
                ExpectedDiagnostic("S123", .warning, at: "6️⃣", mentioning: "'folder'"),
                ExpectedDiagnostic("S101", .error, at: "7️⃣", mentioning: "'Tag'"),
                ExpectedDiagnostic("S112", .error, at: "8️⃣", mentioning: "'title'"),
            ])
        #expect(Set(diagnostics.map(\.code)).count >= 6)
    }

    @Test func aSoundModelWithInheritanceInversesOrderingConstraintsAndIndexesHasNoDiagnostics() {
        assertValidation(
            of: """
                <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
                <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" lastSavedToolsVersion="22758" systemVersion="23E224" minimumToolsVersion="Automatic" sourceLanguage="Swift" userDefinedModelVersionIdentifier="v2">
                    <entity name="Media" representedClassName="Media" isAbstract="YES" syncable="YES">
                        <attribute name="caption" optional="YES" attributeType="String"/>
                        <attribute name="created" attributeType="Date" defaultDateTimeInterval="0" usesScalarValueType="NO"/>
                        <attribute name="uuid" attributeType="UUID" usesScalarValueType="NO"/>
                        <relationship name="tags" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Tag" inverseName="media" inverseEntity="Tag"/>
                    </entity>
                    <entity name="Photo" representedClassName="Photo" parentEntity="Media" syncable="YES">
                        <attribute name="height" attributeType="Integer 32" minValueString="1" maxValueString="100000" defaultValueString="1" usesScalarValueType="YES"/>
                        <attribute name="width" attributeType="Integer 32" minValueString="1" maxValueString="100000" defaultValueString="1" usesScalarValueType="YES"/>
                        <relationship name="album" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Album" inverseName="photos" inverseEntity="Album"/>
                        <fetchIndex name="byCreated">
                            <fetchIndexElement property="created" type="Binary" order="descending"/>
                            <fetchIndexElement property="album" type="Binary" order="ascending"/>
                        </fetchIndex>
                        <uniquenessConstraints>
                            <uniquenessConstraint>
                                <constraint value="uuid"/>
                            </uniquenessConstraint>
                        </uniquenessConstraints>
                    </entity>
                    <entity name="Album" representedClassName="Album" syncable="YES">
                        <attribute name="title" attributeType="String" defaultValueString="Untitled"/>
                        <attribute name="isShared" attributeType="Boolean" defaultValueString="NO" usesScalarValueType="YES"/>
                        <relationship name="photos" optional="YES" toMany="YES" ordered="YES" deletionRule="Cascade" destinationEntity="Photo" inverseName="album" inverseEntity="Photo"/>
                        <fetchedProperty name="recentPhotos" optional="YES">
                            <fetchRequest name="fetchedPropertyFetchRequest" entity="Photo" predicateString="album == $FETCH_SOURCE"/>
                        </fetchedProperty>
                    </entity>
                    <entity name="Tag" representedClassName="Tag" syncable="YES">
                        <attribute name="name" attributeType="String"/>
                        <relationship name="media" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Media" inverseName="tags" inverseEntity="Media"/>
                        <uniquenessConstraints>
                            <uniquenessConstraint>
                                <constraint value="name"/>
                            </uniquenessConstraint>
                        </uniquenessConstraints>
                    </entity>
                    <fetchRequest name="SharedAlbums" entity="Album" predicateString="isShared == YES"/>
                    <configuration name="Local">
                        <memberEntity name="Media"/>
                        <memberEntity name="Photo"/>
                        <memberEntity name="Album"/>
                        <memberEntity name="Tag"/>
                    </configuration>
                </model>
                """,
            reports: [])
    }
}
