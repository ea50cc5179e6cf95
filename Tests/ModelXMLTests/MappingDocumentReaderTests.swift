import Foundation
import ModelSchema
import ModelXML
import Testing
import _ModelTestSupport

/// Reading `xcmapping.xml`: the editor's objects as Xcode's XML store writes them.
@Suite(Corpus.required)
struct MappingDocumentReaderTests {
    /// LoopKit's file holds 22 entity-mapping objects, of which the mapping model reaches 6.
    @Test func onlyObjectsReachableFromTheMappingModelCount() throws {
        let (document, diagnostics) = MappingDocumentReader().read(at: Corpus.path("LoopKit__LoopKit/LoopKit/Persistence/Modelv1v4.xcmappingmodel"))
        #expect(diagnostics == [])
        let read = try #require(document)
        #expect(read.entityMappings.count == 6)
        #expect(read.orphanCount > 16)
        #expect(read.entityMappings.map(\.number) == read.entityMappings.map(\.number).sorted())
    }

    /// The store writes `<` as `\u3c00`: the two bytes of the UTF-16 unit swapped.
    @Test func swappedUnicodeEscapesAreDecoded() throws {
        let (document, _) = MappingDocumentReader().read(at: Corpus.path("Mioke__CoreDataMigrationHelper/CoreDataTest/v1_to_v2.xcmappingmodel"))
        let filters = try #require(document).entityMappings.compactMap(\.filterPredicate)
        #expect(filters == ["messageID < 10000"])
    }

    @Test func writingAndReadingBackKeepsTheObjects() throws {
        let (original, _) = MappingDocumentReader().read(at: Corpus.path("alemar11__CoreDataPlus/Tests/Resources/SampleModel/MappingModels/V2toV3.xcmappingmodel"))
        var document = try #require(original)
        document.entityMappings[0].filterPredicate = "model < \"X\" && numberPlate != nil"
        let xml = MappingDocumentWriter.xml(document, uuid: "00000000-0000-0000-0000-000000000000")
        let (reread, diagnostics) = MappingDocumentReader().read(bytes: Array(xml.utf8), path: "xcmapping.xml")
        #expect(diagnostics == [])
        let copy = try #require(reread)
        #expect(copy.sourceModelData == document.sourceModelData)
        #expect(copy.destinationModelPath == document.destinationModelPath)
        #expect(copy.entityMappings.map(\.sourceName) == document.entityMappings.map(\.sourceName))
        #expect(copy.entityMappings[0].filterPredicate == document.entityMappings[0].filterPredicate)
        #expect(copy.entityMappings.map { $0.relationshipMappings.map(\.valueExpressionData) }
            == document.entityMappings.map { $0.relationshipMappings.map(\.valueExpressionData) })
    }
}
