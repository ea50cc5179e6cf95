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
    /// Xcode's `.momd`, the source it was compiled from, and the compiler identity it records.
    static let goldens: [(momd: String, source: String, compiler: CompilerVersion?)] = [
        (
            "alemar11__CoreDataPlus/Tests/Resources/SampleModel/Fixtures/SampleModel.momd",
            "alemar11__CoreDataPlus@c42926a7797e/Tests/Resources/SampleModel/SampleModel.xcdatamodeld", nil
        ),
        (
            "alemar11__CoreDataPlus/Tests/Resources/SampleModel3/Fixtures/SampleModel3.momd",
            "alemar11__CoreDataPlus/Tests/Resources/SampleModel3/SampleModel3.xcdatamodeld", .xcode15_4
        ),
    ]

    @Test(arguments: 0..<2)
    func compiledGraphsEqualXcodes(_ index: Int) throws {
        let golden = Self.goldens[index]
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
