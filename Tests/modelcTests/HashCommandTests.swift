import Foundation
import ModelStore
import Testing
import _ModelTestSupport

/// `modelc hash`, run as a built binary, against values Apple wrote into a real store.
struct HashCommandTests {
    static let model = "alemar11__CoreDataPlus/Tests/Resources/SampleModel3/SampleModel3.xcdatamodeld"
    static let store = "alemar11__CoreDataPlus/Tests/Resources/SampleModel3/Fixtures/SampleModel3_V1.sqlite"

    @Test(Corpus.required)
    func jsonCarriesTheHashesCoreDataStoredForTheVersion() throws {
        let run = try Modelc.run(["hash", Corpus.path(Self.model), "--model-version", "SampleModel3", "--json"])
        #expect(run.status == 0)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(run.standardOutput.utf8)) as? [String: Any])
        let versions = try #require(object["versions"] as? [[String: Any]])
        #expect(versions.count == 1)
        let version = versions[0]
        let metadata = try StoreMetadata.read(at: Corpus.path(Self.store))
        #expect(version["name"] as? String == "SampleModel3")
        #expect(version["entities"] as? [String: String] == metadata.versionHashes.mapValues(\.hex))
        #expect(version["versionChecksum"] as? String == metadata.versionChecksum)
        #expect(version["hashesDigest"] as? String == metadata.hashesDigest)
    }

    @Test func everyVersionIsHashedByDefault() throws {
        let run = try Modelc.run(["hash", "Models/Library.xcdatamodeld", "--json"])
        #expect(run.status == 0)
        let versions = try #require(try run.json()["versions"] as? [[String: Any]])
        #expect(versions.compactMap { $0["name"] as? String } == ["Library", "Library 2", "Library 3"])
    }

    /// Every version of SampleModel3, hashed by default, against the hashes Xcode wrote into the
    /// `VersionInfo.plist` of the `.momd` it compiled from that bundle.
    @Test(Corpus.required)
    func everyVersionHashesAsXcodeRecorded() throws {
        let run = try Modelc.run(["hash", Corpus.path(Self.model), "--json"])
        #expect(run.status == 0)
        let versions = try #require(try run.json()["versions"] as? [[String: Any]])
        let plist = Corpus.path("alemar11__CoreDataPlus/Tests/Resources/SampleModel3/Fixtures/SampleModel3.momd/VersionInfo.plist")
        let data = try #require(FileManager.default.contents(atPath: plist))
        let info = try #require(try PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any])
        let apple = try #require(info["NSManagedObjectModel_VersionHashes"] as? [String: [String: Data]])
        #expect(versions.count == apple.count && apple.count == 3)
        for version in versions {
            let name = try #require(version["name"] as? String)
            let expected = try #require(apple[name], "Xcode compiled no version '\(name)'")
            #expect(version["entities"] as? [String: String] == expected.mapValues { $0.map { String(format: "%02x", $0) }.joined() }, "\(name)")
        }
    }

    @Test func textOutputMarksTheCurrentVersion() throws {
        let run = try Modelc.run(["hash", "Models/Library.xcdatamodeld"])
        #expect(run.status == 0)
        #expect(run.standardOutput.contains("Library 3 (current)"))
        #expect(run.standardOutput.contains("versionChecksum"))
    }

    @Test func anUnknownVersionIsAUsageError() throws {
        let run = try Modelc.run(["hash", "Models/Library.xcdatamodeld", "--model-version", "Library 9"])
        #expect(run.status == 64)
        #expect(run.standardError.contains("[X015]"))
    }
}
