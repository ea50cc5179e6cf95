import Testing
import _ModelTestSupport

/// Uniqueness constraints and indexes name properties the entity has, never to-many
/// relationships (S112–S115).
struct ConstraintAndIndexRuleTests {
    @Test func aUniquenessConstraintOnAnUnknownPropertyIsAnError() {
        assertValidation(
            of: """
                <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
                <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" lastSavedToolsVersion="22758" systemVersion="23E224" minimumToolsVersion="Automatic" sourceLanguage="Swift" userDefinedModelVersionIdentifier="">
                    <entity name="User" representedClassName="User" syncable="YES">
                        <attribute name="email" optional="YES" attributeType="String"/>
                        <uniquenessConstraints>
                            <uniquenessConstraint>
                                <constraint value="email"/>
                            </uniquenessConstraint>
                            1️⃣<uniquenessConstraint>
                                <constraint value="login"/>
                            </uniquenessConstraint>
                        </uniquenessConstraints>
                    </entity>
                </model>
                """,
            reports: [ExpectedDiagnostic("S112", .error, at: "1️⃣", mentioning: "'User'", "'login'")])
    }

    @Test func aUniquenessConstraintOnAToManyRelationshipIsAnError() {
        assertValidation(
            of: """
                <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
                <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" lastSavedToolsVersion="22758" systemVersion="23E224" minimumToolsVersion="Automatic" sourceLanguage="Swift" userDefinedModelVersionIdentifier="">
                    <entity name="Group" representedClassName="Group" syncable="YES">
                        <attribute name="name" optional="YES" attributeType="String"/>
                        <relationship name="members" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Member" inverseName="group" inverseEntity="Member"/>
                        <uniquenessConstraints>
                            1️⃣<uniquenessConstraint>
                                <constraint value="name"/>
                                <constraint value="members"/>
                            </uniquenessConstraint>
                        </uniquenessConstraints>
                    </entity>
                    <entity name="Member" representedClassName="Member" syncable="YES">
                        <relationship name="group" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Group" inverseName="members" inverseEntity="Group"/>
                    </entity>
                </model>
                """,
            reports: [ExpectedDiagnostic("S113", .error, at: "1️⃣", mentioning: "'Group'", "'members'")])
    }

    @Test func anIndexOnAnUnknownPropertyIsAnError() {
        // A fetch index is reported at its element, a legacy compound index at its entity.
        assertValidation(
            of: """
                <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
                <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" lastSavedToolsVersion="22758" systemVersion="23E224" minimumToolsVersion="Automatic" sourceLanguage="Swift" userDefinedModelVersionIdentifier="">
                    1️⃣<entity name="Song" representedClassName="Song" syncable="YES">
                        <attribute name="title" optional="YES" attributeType="String"/>
                        <fetchIndex name="byTitleAndArtist">
                            <fetchIndexElement property="title" type="Binary" order="ascending"/>
                            2️⃣<fetchIndexElement property="artist" type="Binary" order="ascending"/>
                        </fetchIndex>
                        <compoundIndexes>
                            <compoundIndex>
                                <index value="title"/>
                                <index value="album"/>
                            </compoundIndex>
                        </compoundIndexes>
                    </entity>
                </model>
                """,
            reports: [
                ExpectedDiagnostic("S114", .error, at: "1️⃣", mentioning: "'title,album'", "'album'"),
                ExpectedDiagnostic("S114", .error, at: "2️⃣", mentioning: "'byTitleAndArtist'", "'artist'"),
            ])
    }

    @Test func anIndexOnAToManyRelationshipIsWarnedAbout() {
        assertValidation(
            of: """
                <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
                <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" lastSavedToolsVersion="22758" systemVersion="23E224" minimumToolsVersion="Automatic" sourceLanguage="Swift" userDefinedModelVersionIdentifier="">
                    <entity name="Album" representedClassName="Album" syncable="YES">
                        <attribute name="title" optional="YES" attributeType="String"/>
                        <relationship name="tracks" optional="YES" toMany="YES" deletionRule="Cascade" destinationEntity="Track" inverseName="album" inverseEntity="Track"/>
                        <fetchIndex name="byTracks">
                            1️⃣<fetchIndexElement property="tracks" type="Binary" order="ascending"/>
                        </fetchIndex>
                    </entity>
                    <entity name="Track" representedClassName="Track" syncable="YES">
                        <relationship name="album" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Album" inverseName="tracks" inverseEntity="Album"/>
                    </entity>
                </model>
                """,
            reports: [ExpectedDiagnostic("S115", .warning, at: "1️⃣", mentioning: "'byTracks'", "'tracks'")])
    }
}
