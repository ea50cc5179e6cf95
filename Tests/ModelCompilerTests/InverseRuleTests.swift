import ModelArchive
import ModelSchema
import ModelXML
import Testing
import _ModelTestSupport

/// Inverse relationships: present, found on the destination, naming each other, and equally
/// transient (S107–S110).
struct InverseRuleTests {
    @Test func aRelationshipWithoutAnInverseIsWarnedAbout() {
        assertValidation(
            of: """
                <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
                <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" lastSavedToolsVersion="22758" systemVersion="23E224" minimumToolsVersion="Automatic" sourceLanguage="Swift" userDefinedModelVersionIdentifier="">
                    <entity name="Folder" representedClassName="Folder" syncable="YES">
                        <attribute name="name" optional="YES" attributeType="String"/>
                    </entity>
                    <entity name="Note" representedClassName="Note" syncable="YES">
                        1️⃣<relationship name="folder" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Folder"/>
                    </entity>
                </model>
                """,
            reports: [ExpectedDiagnostic("S107", .warning, at: "1️⃣", mentioning: "'folder'", "'Note'")])
    }

    @Test func anInverseThatIsNotARelationshipOfTheDestinationIsAnError() {
        assertValidation(
            of: """
                <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
                <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" lastSavedToolsVersion="22758" systemVersion="23E224" minimumToolsVersion="Automatic" sourceLanguage="Swift" userDefinedModelVersionIdentifier="">
                    <entity name="Folder" representedClassName="Folder" syncable="YES">
                        <attribute name="notes" optional="YES" attributeType="String"/>
                    </entity>
                    <entity name="Note" representedClassName="Note" syncable="YES">
                        1️⃣<relationship name="folder" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Folder" inverseName="notes" inverseEntity="Folder"/>
                    </entity>
                </model>
                """,
            reports: [ExpectedDiagnostic("S108", .error, at: "1️⃣", mentioning: "'notes'", "'folder'", "'Folder'")])
    }

    /// Account.owner names Person.accounts, but Person.accounts is the inverse of Account.holder.
    static let thirdRelationshipModel = """
                <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
                <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" lastSavedToolsVersion="22758" systemVersion="23E224" minimumToolsVersion="Automatic" sourceLanguage="Swift" userDefinedModelVersionIdentifier="">
                    <entity name="Account" representedClassName="Account" syncable="YES">
                        <relationship name="holder" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Person" inverseName="accounts" inverseEntity="Person"/>
                        1️⃣<relationship name="owner" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Person" inverseName="accounts" inverseEntity="Person"/>
                    </entity>
                    <entity name="Person" representedClassName="Person" syncable="YES">
                        <relationship name="accounts" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Account" inverseName="holder" inverseEntity="Account"/>
                    </entity>
                </model>
                """

    @Test func anInverseThatNamesAThirdRelationshipIsAWarning() {
        // Xcode compiles such models (S128 in Documentation/Diagnostics.md).
        let diagnostics = assertValidation(
            of: Self.thirdRelationshipModel,
            reports: [ExpectedDiagnostic("S128", .warning, at: "1️⃣", mentioning: "'owner'", "'accounts'", "'holder'")])
        #expect(diagnostics.first?.notes.map(\.location.description) == ["8:9"])
    }

    @Test func aThirdRelationshipModelCompilesAndHashesWithEachSideAsWritten() throws {
        let text = MarkedText(Self.thirdRelationshipModel).text
        let version = try #require(ModelReader().readVersion(contents: Array(text.utf8), name: "Bank", path: "contents").0)
        let decoded = try ModelUnarchiver.version(from: ModelArchiver.archive(version), name: "Bank", path: "Bank.mom")
        let inverses = { (version: ModelVersion) in
            version.entities.flatMap { entity in entity.relationships.map { "\(entity.name).\($0.name) -> \($0.inverseName ?? "-")" } }
        }
        #expect(inverses(decoded) == ["Account.holder -> accounts", "Account.owner -> accounts", "Person.accounts -> holder"])
        #expect(VersionHasher(decoded).entityHashes() == VersionHasher(version).entityHashes())
        // The written inverse of `owner` is part of Account's hash, as for any relationship.
        let withoutOwnerInverse = text.replacingOccurrences(
            of: #"name="owner" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Person" inverseName="accounts" inverseEntity="Person""#,
            with: #"name="owner" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Person""#)
        #expect(withoutOwnerInverse != text)
        let other = try #require(ModelReader().readVersion(contents: Array(withoutOwnerInverse.utf8), name: "Bank", path: "contents").0)
        #expect(VersionHasher(other).entityHashes()["Account"] != VersionHasher(version).entityHashes()["Account"])
        #expect(VersionHasher(other).entityHashes()["Person"] == VersionHasher(version).entityHashes()["Person"])
    }

    @Test func anInverseWithoutAnInverseOfItsOwnIsAnError() {
        assertValidation(
            of: """
                <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
                <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" lastSavedToolsVersion="22758" systemVersion="23E224" minimumToolsVersion="Automatic" sourceLanguage="Swift" userDefinedModelVersionIdentifier="">
                    <entity name="Account" representedClassName="Account" syncable="YES">
                        1️⃣<relationship name="owner" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Person" inverseName="accounts" inverseEntity="Person"/>
                    </entity>
                    <entity name="Person" representedClassName="Person" syncable="YES">
                        2️⃣<relationship name="accounts" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Account"/>
                    </entity>
                </model>
                """,
            reports: [
                ExpectedDiagnostic("S109", .error, at: "1️⃣", mentioning: "'owner'", "'accounts'", "no inverse"),
                ExpectedDiagnostic("S107", .warning, at: "2️⃣", mentioning: "'accounts'", "'Person'"),
            ])
    }

    @Test func aTransientRelationshipWithAPersistentInverseIsAnErrorOnBothSides() {
        assertValidation(
            of: """
                <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
                <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" lastSavedToolsVersion="22758" systemVersion="23E224" minimumToolsVersion="Automatic" sourceLanguage="Swift" userDefinedModelVersionIdentifier="">
                    <entity name="Cart" representedClassName="Cart" syncable="YES">
                        1️⃣<relationship name="items" optional="YES" transient="YES" toMany="YES" deletionRule="Cascade" destinationEntity="Item" inverseName="cart" inverseEntity="Item"/>
                    </entity>
                    <entity name="Item" representedClassName="Item" syncable="YES">
                        2️⃣<relationship name="cart" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Cart" inverseName="items" inverseEntity="Cart"/>
                    </entity>
                </model>
                """,
            reports: [
                ExpectedDiagnostic("S110", .error, at: "1️⃣", mentioning: "'items'", "'cart'"),
                ExpectedDiagnostic("S110", .error, at: "2️⃣", mentioning: "'cart'", "'items'"),
            ])
    }
}
