import Testing
import _ModelTestSupport

/// Relationship settings: counts in order, and the No Action delete rule (S111, S123).
struct RelationshipRuleTests {
    @Test func aMinimumCountAboveTheMaximumIsAnError() {
        assertValidation(
            of: """
                <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
                <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" lastSavedToolsVersion="22758" systemVersion="23E224" minimumToolsVersion="Automatic" sourceLanguage="Swift" userDefinedModelVersionIdentifier="">
                    <entity name="Team" representedClassName="Team" syncable="YES">
                        1️⃣<relationship name="players" toMany="YES" minCount="11" maxCount="5" deletionRule="Nullify" destinationEntity="Player" inverseName="team" inverseEntity="Player"/>
                    </entity>
                    <entity name="Player" representedClassName="Player" syncable="YES">
                        <relationship name="team" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Team" inverseName="players" inverseEntity="Team"/>
                    </entity>
                </model>
                """,
            reports: [ExpectedDiagnostic("S111", .error, at: "1️⃣", mentioning: "'players'", "11", "5")])
    }

    @Test func theNoActionDeleteRuleIsWarnedAbout() {
        assertValidation(
            of: """
                <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
                <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" lastSavedToolsVersion="22758" systemVersion="23E224" minimumToolsVersion="Automatic" sourceLanguage="Swift" userDefinedModelVersionIdentifier="">
                    <entity name="Order" representedClassName="Order" syncable="YES">
                        1️⃣<relationship name="lines" optional="YES" toMany="YES" deletionRule="No Action" destinationEntity="OrderLine" inverseName="order" inverseEntity="OrderLine"/>
                    </entity>
                    <entity name="OrderLine" representedClassName="OrderLine" syncable="YES">
                        <relationship name="order" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Order" inverseName="lines" inverseEntity="Order"/>
                    </entity>
                </model>
                """,
            reports: [ExpectedDiagnostic("S123", .warning, at: "1️⃣", mentioning: "'lines'")])
    }
}
