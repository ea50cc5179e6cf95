import Foundation
import ModelArchive
import ModelSchema
import ModelXML
import Testing
import _ModelTestSupport

/// Our `.mom` graphs against the ones Xcode compiled from the same sources: any difference in
/// classes, keys, values or references fails, listed by key path.
@Suite(Corpus.required)
struct GoldenMomTests {
    @Test(arguments: XcodeCompiled.all)
    func compiledGraphsEqualXcodes(_ golden: XcodeCompiled) throws {
        let bundle = try #require(ModelReader().read(at: Corpus.path(golden.source)).bundle)
        for version in bundle.versions {
            let path = Corpus.path("\(golden.momd)/\(version.name).mom")
            let apple = try KeyedArchiveReader.unarchive([UInt8](try #require(FileManager.default.contents(atPath: path))))
            let ours = try KeyedArchiveReader.unarchive(
                ModelArchiver.archive(version, options: .init(compilerVersion: golden.compiler)))
            #expect(ArchiveComparison.differences(apple, ours) == [], "\(version.name)")
        }
    }
}
