import ModelSchema
import Testing
import _ModelTestSupport

@testable import ModelXML

/// A malformed document, with a marker where libxml2 reports the error.
struct MalformedDocument: Sendable, CustomTestStringConvertible {
    var testDescription: String
    var markedXML: String
    /// Words of libxml2's message.
    var fragment: String
}

/// Parsing: malformed XML reported where it is, attribute values decoded, and every element
/// placed at its `<`.
struct XMLDocumentParserTests {
    static let malformed: [MalformedDocument] = [
        MalformedDocument(
            testDescription: "unquoted attribute value",
            markedXML: """
                <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
                <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
                    <entity name=1️⃣Note representedClassName="Note" syncable="YES"/>
                </model>
                """,
            fragment: "AttValue"),
        MalformedDocument(
            testDescription: "content after the root element",
            markedXML: """
                <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
                <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
                    <entity name="Note" representedClassName="Note" syncable="YES"/>
                </model>
                1️⃣<model/>
                """,
            fragment: "Extra content"),
        // libxml2 sees the mismatch once it has read the whole end tag, and reports the column
        // just past it.
        MalformedDocument(
            testDescription: "unclosed element",
            markedXML: """
                <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
                <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
                    <entity name="Note" representedClassName="Note" syncable="YES">
                </model>1️⃣
                """,
            fragment: "tag mismatch: entity line 3 and model"),
    ]

    @Test(arguments: malformed)
    func malformedXMLIsReportedWhereLibxml2FindsTheError(_ document: MalformedDocument) throws {
        let marked = MarkedText(document.markedXML)
        let (version, diagnostics) = ModelReader().readVersion(contents: marked.bytes, name: "Note", path: "contents")
        #expect(version == nil)
        let diagnostic = try #require(diagnostics.first)
        #expect(diagnostics.count == 1)
        #expect(diagnostic.code == "X002")
        #expect(diagnostic.severity == .error)
        #expect(diagnostic.location == marked.location(of: "1️⃣"))
        #expect(diagnostic.message.contains(document.fragment), "\(diagnostic.message)")
        #expect(diagnostic.path == "contents")
    }

    @Test(arguments: ["", "   \n", "\u{FEFF}"])
    func anEmptyFileIsMalformedXMLNotACrash(_ text: String) {
        let (version, diagnostics) = ModelReader().readVersion(
            contents: Array(text.utf8), name: "Empty", path: "contents")
        #expect(version == nil)
        #expect(diagnostics.map(\.code) == ["X002"])
    }

    @Test func theFiveEntitiesAndCharacterReferencesAreDecodedOnceInAttributeValues() throws {
        let xml = """
            <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
            <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
                <entity name="Fish &amp; Chips" predicate="a &lt; b &amp;&amp; b &gt; c" note="&#38;&#x41;&#65;&#x00E9;" quoted="&quot;&apos;" escaped="&amp;lt; &amp;#38;"/>
            </model>
            """
        let root = try XMLDocumentParser.parse(Array(xml.utf8))
        let entity = try #require(root.firstChild(named: "entity"))
        #expect(entity["name"] == "Fish & Chips")
        #expect(entity["predicate"] == "a < b && b > c")
        #expect(entity["note"] == "&AAé")
        #expect(entity["quoted"] == "\"'")
        #expect(entity["escaped"] == "&lt; &#38;")
    }

    @Test func decodedValuesReachTheModel() throws {
        let xml = """
            <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
            <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
                <entity name="Rule" representedClassName="Rule" syncable="YES">
                    <attribute name="limit" optional="YES" attributeType="String" defaultValueString="&lt;&#x41;&amp;&#66;&gt;"/>
                </entity>
            </model>
            """
        let (version, diagnostics) = ModelReader().readVersion(
            contents: Array(xml.utf8), name: "Rule", path: "contents")
        #expect(diagnostics.isEmpty)
        let attribute = try #require(version?.entity(named: "Rule")?.attributes.first)
        #expect(attribute.defaultValueString == "<A&B>")
    }

    @Test func everyElementIsPlacedAtItsLessThanSignEvenWhenItsStartTagSpansLines() throws {
        let marked = MarkedText(
            """
            <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
            <!-- a comment with < and > in it -->
            1️⃣<model type="com.apple.IDECoreDataModeler.DataModel"
                   documentVersion="1.0">
                2️⃣<entity
                    name="Book"
                    representedClassName="Book"
                    syncable="YES">
                    3️⃣<attribute name="title" optional="YES" attributeType="String"/>4️⃣<attribute
                        name="pages"
                        attributeType="Integer 32"
                        defaultValueString="0"
                    />
            \t\t5️⃣<fetchedProperty name="longer" optional="YES"
            >6️⃣<fetchRequest name="fetchedPropertyFetchRequest" entity="Book"
                            predicateString="pages > $FETCH_SOURCE.pages"/>
                    </fetchedProperty>
                </entity>
                7️⃣<configuration name="All"><![CDATA[<not an element>]]>8️⃣<memberEntity
            name="Book"/></configuration>
            </model>
            """)
        let root = try XMLDocumentParser.parse(marked.bytes)
        let elements = Self.preorder(root)
        #expect(elements.map(\.name) == [
            "model", "entity", "attribute", "attribute", "fetchedProperty", "fetchRequest", "configuration",
            "memberEntity",
        ])
        let expected = try marked.markersInOrder.map { try #require(marked.location(of: $0)) }
        #expect(elements.map(\.location) == expected)
    }

    @Test func positionsStayExactThroughALargeDocument() throws {
        // Enough entities to cross libxml2's input buffers many times over; columns count bytes,
        // so the `é` before each attribute's `<` moves it one column further than its characters.
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?>\n<model documentVersion=\"1.0\">\n"
        for index in 0..<2_000 {
            xml += "    <entity name=\"E\(index)\"\n            note=\"café\" syncable=\"YES\">"
            xml += String(repeating: " ", count: index % 7)
            xml += "<attribute name=\"é\(index)\"\n                   attributeType=\"String\"/>\n    </entity>\n"
        }
        xml += "</model>\n"
        let bytes = Array(xml.utf8)
        let root = try XMLDocumentParser.parse(bytes)
        let elements = Self.preorder(root)
        #expect(elements.count == 4_001)
        var lineStarts = [0]
        for (offset, byte) in bytes.enumerated() where byte == UInt8(ascii: "\n") {
            lineStarts.append(offset + 1)
        }
        var misplaced = [String]()
        for element in elements {
            let offset = lineStarts[element.location.line - 1] + element.location.column - 1
            let tag = Array("<\(element.name)".utf8)
            if Array(bytes[offset..<min(offset + tag.count, bytes.count)]) != tag {
                misplaced.append("\(element.name) \(element["name"] ?? "") at \(element.location)")
            }
        }
        #expect(misplaced == [])
    }

    static func preorder(_ node: XMLElementNode) -> [XMLElementNode] {
        [node] + node.children.flatMap(preorder)
    }
}
