import ModelCompiler
import ModelSchema
import ModelXML
import Testing
import _ModelTestSupport

/// Every real model reads and validates without an error, except the ones that are genuinely
/// not loadable by modelc, listed here with their reason.
@Suite(Corpus.required)
struct CorpusValidationTests {
    /// Models whose errors are expected, with the codes and the reason.
    /// None since Xcode 3 versions (`elements`/`layout`) are read: simplenote's first version
    /// and both of thepost's are in that format.
    static let expectedErrors: [String: (codes: Set<String>, reason: String)] = [:]

    @Test func theCorpusHasItsModels() {
        #expect(Corpus.modelPaths().count >= 40)
    }

    @Test(arguments: Corpus.isAvailable ? Corpus.modelPaths() : [])
    func modelReadsAndValidatesWithoutErrors(_ relative: String) {
        let result = ModelSources.reader.read(at: Corpus.path(relative))
        var diagnostics = result.diagnostics
        if let bundle = result.bundle {
            diagnostics += ModelValidator().validate(bundle)
            #expect(!bundle.versions.isEmpty)
        }
        let errorCodes = Set(diagnostics.filter { $0.severity == .error }.map(\.code))
        let expected = Self.expectedErrors[relative]?.codes ?? []
        #expect(errorCodes == expected, "\(diagnostics.filter { $0.severity == .error }.map(\.message))")
    }
}
