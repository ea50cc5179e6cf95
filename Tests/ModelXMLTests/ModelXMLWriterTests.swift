import Foundation
import ModelSchema
import ModelXML
import Testing
import _ModelTestSupport

/// The XML writer on every corpus model: what it writes reads back as the same model.
@Suite(Corpus.required)
struct ModelXMLWriterTests {
    @Test(arguments: Corpus.isAvailable ? Corpus.modelPaths() : [])
    func writtenXMLReadsBackAsTheSameModel(_ relative: String) throws {
        let reading = ModelReader().read(at: Corpus.path(relative))
        let errors = Set(reading.diagnostics.filter { $0.severity == .error }.map(\.code))
        guard let bundle = reading.bundle else {
            // Only a bundle of Xcode 3 binary versions (X004) has no XML to write back.
            #expect(errors == ["X004"], "\(relative) cannot be read: \(reading.diagnostics.map(\.message))")
            return
        }
        for version in bundle.versions {
            let written = ModelXMLWriter.contents(of: version)
            let (reread, diagnostics) = ModelReader().readVersion(
                contents: Array(written.utf8), name: version.name, path: "contents")
            #expect(diagnostics.isEmpty)
            let copy = try #require(reread)
            // A fixed point: writing the re-read model gives the same text.
            #expect(ModelXMLWriter.contents(of: copy) == written, "\(version.name)")
            #expect(VersionHasher(copy).entityHashes() == VersionHasher(version).entityHashes())
            #expect(copy.entities.map(\.name).sorted() == version.entities.map(\.name).sorted())
            #expect(Self.propertyCount(copy) == Self.propertyCount(version))
        }
    }

    static func propertyCount(_ version: ModelVersion) -> Int {
        var count = 0
        for entity in version.entities {
            count += entity.attributes.count + entity.relationships.count + entity.fetchedProperties.count
        }
        return count
    }

    @Test func xcodesOwnFilesAreReproducedExactlyWhenTheyHaveNoLayoutSection() throws {
        let path = Corpus.path("alemar11__CoreDataPlus/Tests/Resources/SampleModel/SampleModel.xcdatamodeld/SampleModel2.xcdatamodel/contents")
        let original = try String(contentsOfFile: path, encoding: .utf8)
        let (version, _) = ModelReader().readVersion(contents: Array(original.utf8), name: "SampleModel2", path: path)
        #expect(ModelXMLWriter.contents(of: try #require(version)) == original)
    }
}
