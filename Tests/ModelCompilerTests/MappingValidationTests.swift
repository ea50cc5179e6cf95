import Foundation
import ModelCompiler
import ModelSchema
import ModelXML
import Testing
import _ModelTestSupport

/// One test per mapping-model diagnostic (`P3xx`), each on a real mapping model (CoreDataPlus's
/// `V2toV3`) changed in one place.
@Suite(Corpus.required)
struct MappingValidationTests {
    static let original = "alemar11__CoreDataPlus/Tests/Resources/SampleModel/MappingModels/V2toV3.xcmappingmodel"

    /// The codes reading `V2toV3` reports once `replacing` has been applied to its XML.
    func codes(replacing changes: [(String, String)]) throws -> [String] {
        var text = try String(contentsOfFile: Corpus.path("\(Self.original)/xcmapping.xml"), encoding: .utf8)
        for (old, new) in changes {
            #expect(text.contains(old), "the original has '\(old)'")
            text = text.replacingOccurrences(of: old, with: new)
        }
        return try withTemporaryDirectory { folder in
            let file = try writeFile("V2toV3.xcmappingmodel/xcmapping.xml", text, in: folder)
            return MappingCompilation.read(at: file.deletingLastPathComponent().path).diagnostics.map(\.code)
        }
    }

    @Test func theOriginalIsClean() throws {
        #expect(try codes(replacing: []) == [])
    }

    @Test func notAMappingModel() throws {
        try withTemporaryDirectory { folder in
            let read = MappingCompilation.read(at: folder.appendingPathComponent("Empty.xcmappingmodel").path)
            #expect(read.diagnostics.map(\.code) == ["P301"])
        }
    }

    @Test func unreadableSnapshot() throws {
        let codes = try codes(replacing: [
            ("<attribute name=\"sourcemodeldata\" type=\"binary\">", "<attribute name=\"sourcemodeldata\" type=\"binary\">AAAA"),
        ])
        #expect(codes.contains("P302"))
    }

    @Test func unreadableValueExpression() throws {
        let codes = try codes(replacing: [
            ("<attribute name=\"valueexpressiondata\" type=\"binary\">", "<attribute name=\"valueexpressiondata\" type=\"binary\">AAAA"),
        ])
        #expect(codes.contains("P303"))
    }

    @Test func unreadableCompiledMapping() throws {
        try withTemporaryDirectory { folder in
            let file = try writeFile("Broken.cdm", "bplist00 truncated", in: folder)
            #expect(MappingCompilation.read(at: file.path).diagnostics.map(\.code) == ["P304"])
        }
    }

    @Test func snapshotMatchingNoVersion() throws {
        // Model_1_to_2 against the bundle of its destination's successor: neither side matches.
        let catalog = MappingCorpusTests.translationCatalog
        let model = try #require(MappingCompilation.read(at: Corpus.path("\(catalog)/Resources/Model_1_to_2.xcmappingmodel")).model)
        let bundle = try #require(ModelReader().read(at: Corpus.path("\(catalog)/Resources/CatalogModel_3.xcdatamodeld")).bundle)
        let match = MappingVersionMatch.match(model, side: .source, in: bundle)
        let warning = try #require(match.diagnostic(bundle: bundle.name))
        #expect(warning.code == "P310")
        #expect(warning.severity == .warning)
        #expect(match.closest == "CatalogModel")
        #expect(!match.differingEntities.isEmpty)
        #expect(warning.message.contains("subset rule"))
    }

    @Test func entityMissingFromSnapshot() throws {
        let codes = try codes(replacing: [
            ("<attribute name=\"sourcename\" type=\"string\">Person</attribute>", "<attribute name=\"sourcename\" type=\"string\">Personne</attribute>"),
        ])
        #expect(codes == ["P311"])
    }

    @Test func unparsableFilterPredicate() throws {
        let codes = try codes(replacing: [
            ("<attribute name=\"sourcename\" type=\"string\">Person</attribute>",
             "<attribute name=\"sourcename\" type=\"string\">Person</attribute><attribute name=\"sourcefilterpredicatestring\" type=\"string\">firstName ==</attribute>"),
        ])
        #expect(codes == ["P312"])
    }

    @Test func customWithoutPolicyClass() throws {
        let codes = try codes(replacing: [
            ("<attribute name=\"sourcename\" type=\"string\">Person</attribute>\n        <attribute name=\"mappingtypename\" type=\"string\">Undefined</attribute>",
             "<attribute name=\"sourcename\" type=\"string\">Person</attribute>\n        <attribute name=\"mappingtypename\" type=\"string\">Custom</attribute>"),
        ])
        #expect(codes == ["P313"])
    }

    @Test func duplicateMappingNames() throws {
        let codes = try codes(replacing: [
            ("<attribute name=\"sourcename\" type=\"string\">Person</attribute>",
             "<attribute name=\"sourcename\" type=\"string\">Person</attribute><attribute name=\"name\" type=\"string\">CarToCar</attribute>"),
        ])
        #expect(codes == ["P314"])
    }
}
