import ModelSchema
import Testing
import _ModelTestSupport

@testable import ModelXML

/// The streaming reader: what it takes from where, what it ignores, and where its problems are
/// reported, for the shapes a tree-walking reader handled by looking around.
struct ModelDocumentReaderTests {
    func read(_ xml: String) -> (ModelVersion?, [Diagnostic]) {
        ModelReader().readVersion(contents: Array(xml.utf8), name: "M", path: "contents")
    }

    @Test func elementsOnlyCountWhereTheyBelong() throws {
        let (version, diagnostics) = read(
            """
            <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
            <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
                <entity name="A" representedClassName="A" syncable="YES">
                    <attribute name="x" optional="YES" attributeType="String">
                        <attribute name="nested" attributeType="String"/>
                    </attribute>
                    <unknown><attribute name="hidden" attributeType="String"/></unknown>
                </entity>
                <elements>
                    <element name="A" positionX="0" positionY="0" width="128" height="44"/>
                    <entity name="NotAnEntity"/>
                </elements>
                <fetchRequest name="All" entity="A"><fetchRequest name="Inner" entity="A"/></fetchRequest>
            </model>
            """)
        #expect(diagnostics.isEmpty)
        let model = try #require(version)
        #expect(model.entities.map(\.name) == ["A"])
        #expect(model.entities[0].attributes.map(\.name) == ["x"])
        #expect(model.fetchRequests.map(\.name) == ["All"])
    }

    @Test func aPropertyTakesItsFirstUserInfoAndAnEntityItsLast() throws {
        let (version, _) = read(
            """
            <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
            <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
                <entity name="A" syncable="YES">
                    <attribute name="x" optional="YES" attributeType="String">
                        <userInfo><entry key="k" value="first"/></userInfo>
                        <userInfo><entry key="k" value="second"/></userInfo>
                    </attribute>
                    <relationship name="r" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="A">
                        <userInfo/>
                        <userInfo><entry key="k" value="second"/></userInfo>
                    </relationship>
                    <userInfo><entry key="e" value="first"/></userInfo>
                    <userInfo><entry key="e" value="last"/></userInfo>
                </entity>
            </model>
            """)
        let entity = try #require(version?.entities.first)
        #expect(entity.attributes[0].userInfo == [UserInfoEntry(key: "k", value: "first")])
        #expect(entity.relationships[0].userInfo == [])
        #expect(entity.userInfo == [UserInfoEntry(key: "e", value: "last")])
    }

    @Test func indexesConstraintsAndMembersAreCollected() throws {
        let marked = MarkedText(
            """
            <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
            <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
                <entity name="A" syncable="YES">
                    <attribute name="x" attributeType="String"/>
                    <attribute name="y" attributeType="String"/>
                    <fetchIndex name="byX">
                        <fetchIndexElement property="x" type="Binary" order="descending"/>
                        <fetchIndexElement expression="y" expressionType="String" type="RTree"/>
                    </fetchIndex>
                    <compoundIndexes><compoundIndex><index value="stale"/></compoundIndex></compoundIndexes>
                    <compoundIndexes>
                        <compoundIndex><index value="x"/><index value="y"/></compoundIndex>
                        <compoundIndex><index value="y"/></compoundIndex>
                    </compoundIndexes>
                    <uniquenessConstraints>
                        1️⃣<uniquenessConstraint><constraint value="x"/></uniquenessConstraint>
                    </uniquenessConstraints>
                    <uniquenessConstraints>
                        2️⃣<uniquenessConstraint><constraint value="x"/><constraint value="y"/></uniquenessConstraint>
                    </uniquenessConstraints>
                </entity>
                <configuration name="Cloud" usedWithCloudKit="YES"><memberEntity name="A"/><memberEntity/></configuration>
            </model>
            """)
        let (version, diagnostics) = ModelReader().readVersion(contents: marked.bytes, name: "M", path: "contents")
        #expect(diagnostics.isEmpty)
        let entity = try #require(version?.entities.first)
        #expect(entity.fetchIndexes.map(\.name) == ["byX"])
        #expect(entity.fetchIndexes[0].elements.map(\.propertyName) == ["x", nil])
        #expect(entity.fetchIndexes[0].elements.map(\.isAscending) == [false, true])
        #expect(entity.fetchIndexes[0].elements.map(\.type) == ["Binary", "RTree"])
        #expect(entity.compoundIndexes == [["x", "y"], ["y"]])
        #expect(entity.uniquenessConstraints == [["x"], ["x", "y"]])
        #expect(entity.uniquenessConstraintLocations == [marked.location(of: "1️⃣"), marked.location(of: "2️⃣")])
        #expect(version?.configurations.map(\.memberEntityNames) == [["A"]])
        #expect(version?.configurations.first?.usedWithCloudKit == true)
    }

    @Test func problemsAreReportedInReadingOrderAtTheirElements() throws {
        let marked = MarkedText(
            """
            <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
            <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
                <entity name="A" syncable="YES">
                    1️⃣<attribute attributeType="Text"/>
                    2️⃣<relationship name="r" minCount="few" deletionRule="Explode" destinationEntity="A"/>
                    3️⃣<fetchedProperty optional="YES">
                        4️⃣<fetchRequest name="fetchedPropertyFetchRequest" fetchLimit="ten"/>
                    </fetchedProperty>
                </entity>
            </model>
            """)
        let (version, diagnostics) = ModelReader().readVersion(contents: marked.bytes, name: "M", path: "contents")
        #expect(version != nil)
        #expect(diagnostics.map(\.code) == ["X007", "X006", "X008", "X009", "X006", "X009", "X006"])
        #expect(diagnostics.map(\.location) == [
            marked.location(of: "1️⃣"), marked.location(of: "1️⃣"), marked.location(of: "2️⃣"),
            marked.location(of: "2️⃣"), marked.location(of: "4️⃣"), marked.location(of: "4️⃣"),
            marked.location(of: "3️⃣"),
        ])
        #expect(diagnostics[4].message.contains("'fetchRequest' has no 'entity'"))
        #expect(diagnostics[6].message.contains("'fetchedProperty' has no 'name'"))
    }

    @Test func aValueWrittenWithReferencesReadsAsItsText() throws {
        let (version, diagnostics) = read(
            """
            <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
            <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
                <entity name="A" syncable="YES">
                    <attribute name="x" attributeType="&#73;nteger 32" optional="&#89;ES"/>
                </entity>
            </model>
            """)
        #expect(diagnostics.isEmpty)
        #expect(version?.entities.first?.attributes.first?.type == .integer32)
        #expect(version?.entities.first?.attributes.first?.isOptional == true)
    }

    @Test func aRootThatIsNoModelIsReportedOnce() {
        let (version, diagnostics) = read("<plist><model><entity name=\"A\"/></model></plist>")
        #expect(version == nil)
        #expect(diagnostics.map(\.code) == ["X005"])
    }
}
