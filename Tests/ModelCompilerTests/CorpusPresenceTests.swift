import Foundation
import Testing
import _ModelTestSupport

/// The corpus is there, and holds what the corpus tests are counted against: under CI its
/// absence is a failure, locally a note that says which tests it disables.
struct CorpusPresenceTests {
    @Test func theCorpusIsPresentUnderCI() {
        if Corpus.isCI {
            #expect(Corpus.isAvailable, "CI=true but the corpus is missing at \(Corpus.root.path): every corpus test would run on nothing")
        } else if !Corpus.isAvailable {
            print("note: \(Corpus.absenceNote) (looked in \(Corpus.root.path); set MODELC_CORPUS to use another folder)")
        }
    }

    /// The Xcode-compiled bundles and mapping models are found, not named: three from
    /// TranslationCatalog (`.momd_precompiled`) and two from CoreDataPlus (`.momd`); two `.cdm`
    /// from TranslationCatalog and one from CoreDataPlus (SOURCES.md).
    @Test(Corpus.required)
    func xcodesCompiledFilesAreDiscovered() {
        let models = Corpus.compiledModels()
        #expect(models.count == 5, "\(models)")
        #expect(models.filter { $0.hasSuffix(".momd_precompiled") }.count == 3)
        for model in models {
            #expect(FileManager.default.fileExists(atPath: Corpus.path("\(model)/VersionInfo.plist")), "\(model)")
        }
        let mappings = Corpus.compiledMappingModels()
        #expect(mappings.count == 3, "\(mappings)")
        #expect(mappings.filter { $0.hasSuffix(".cdm_precompiled") }.count == 2)
    }
}
