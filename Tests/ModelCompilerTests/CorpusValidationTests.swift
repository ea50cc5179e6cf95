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
    static let expectedErrors: [String: (codes: Set<String>, reason: String)] = [
        "Automattic__simplenote-ios/Simplenote/Simplenote.xcdatamodeld": (
            ["X004"], "its first version is the pre-Xcode 4 binary format (elements/layout)"
        ),
        "thepost__iPhoneCoreDataRecipesMigration/Recipes.xcdatamodeld": (
            ["X004"], "both versions are in the pre-Xcode 4 binary format (elements/layout, no contents)"
        ),
    ]

    @Test func theCorpusHasItsModels() {
        #expect(Corpus.modelPaths().count >= 40)
    }

    @Test(arguments: Corpus.isAvailable ? Corpus.modelPaths() : [])
    func modelReadsAndValidatesWithoutErrors(_ relative: String) {
        let result = ModelReader().read(at: Corpus.path(relative))
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
