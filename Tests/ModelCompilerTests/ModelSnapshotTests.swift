import Foundation
import ModelArchive
import ModelCompiler
import ModelSchema
import ModelXML
import Testing
import _ModelTestSupport

/// The model snapshots `decompile` writes into a `.xcmappingmodel` read back with the hashes of
/// the model they were written from, for every version of the corpus models of projects that
/// have mapping models, as the snapshots Xcode wrote do for the versions they equal.
@Suite(Corpus.required)
struct ModelSnapshotTests {
    static let models: [String] = {
        let projects = Set(CorpusMappings.all.map { $0.split(separator: "/")[0] })
        return Corpus.modelPaths().filter { projects.contains($0.split(separator: "/")[0]) }
    }()

    @Test(arguments: models)
    func snapshotsKeepTheVersionHashes(_ relative: String) throws {
        let bundle = try #require(ModelSources.reader.read(at: Corpus.path(relative)).bundle, "\(relative) does not read")
        for version in bundle.versions {
            let bytes = ModelSnapshotArchiver.archive(version)
            let snapshot = try ModelSnapshotUnarchiver.version(bytes, name: version.name, path: "")
            var expected = VersionHasher(version).entityHashes()
            // Snapshots cannot express derived and composite attributes (nor history
            // preservation): entities with such attributes hash otherwise, as in Xcode's.
            for entity in version.entities where entity.attributes.contains(where: {
                $0.isDerived || $0.type == .composite || $0.preservesValueInHistoryOnDeletion
            }) {
                expected[entity.name] = nil
            }
            let hashes = VersionHasher(snapshot).entityHashes().filter { expected[$0.key] != nil }
            #expect(hashes == expected, "\(version.name)")
        }
    }
}
