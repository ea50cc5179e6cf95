import Foundation
import ModelSchema
import ModelStore
import ModelXML
import Testing
import _ModelTestSupport

/// Our hashes against the values Apple wrote: every entity hash in each store's
/// `NSStoreModelVersionHashes` (plus checksum and digest where the store has them), and both
/// Xcode-compiled `VersionInfo.plist` files. Expected values are read from the files.
@Suite(Corpus.required)
struct CorpusHashTests {
    static let plus = CorpusStores.plus

    @Test(arguments: CorpusStores.known)
    func hashesEqualTheStoreMetadata(_ known: KnownStore) throws {
        let metadata = try StoreMetadata.read(at: Corpus.path(known.store))
        let version = try #require(try Self.version(known.version, of: known.model))
        let hasher = VersionHasher(version)
        let ours = hasher.entityHashes()
        #expect(!metadata.versionHashes.isEmpty)
        #expect(Set(ours.keys) == Set(metadata.versionHashes.keys))
        for (entity, apple) in metadata.versionHashes {
            #expect(ours[entity] == apple, "entity '\(entity)' of \(known.version)")
        }
        if let checksum = metadata.versionChecksum {
            #expect(hasher.versionChecksum(ours) == checksum)
        }
        if let digest = metadata.hashesDigest {
            #expect(hasher.hashesDigest(ours) == digest)
        }
    }

    @Test func storesWithChecksumsAndDigestsAreCovered() throws {
        let metadata = try CorpusStores.known.map { try StoreMetadata.read(at: Corpus.path($0.store)) }
        #expect(metadata.filter { $0.versionChecksum != nil }.count >= 1)
        #expect(metadata.filter { $0.hashesDigest != nil }.count >= 4)
    }

    /// Both `.momd` bundles Xcode compiled, against the sources they were compiled from.
    @Test(arguments: [
        ("\(plus)/SampleModel/Fixtures/SampleModel.momd", "alemar11__CoreDataPlus@c42926a7797e/Tests/Resources/SampleModel/SampleModel.xcdatamodeld"),
        ("\(plus)/SampleModel/Fixtures/SampleModel.momd", "\(plus)/SampleModel/SampleModel.xcdatamodeld"),
        ("\(plus)/SampleModel3/Fixtures/SampleModel3.momd", "\(plus)/SampleModel3/SampleModel3.xcdatamodeld"),
    ])
    func hashesEqualXcodesVersionInfo(_ momd: String, _ source: String) throws {
        let data = try #require(FileManager.default.contents(atPath: Corpus.path("\(momd)/VersionInfo.plist")))
        let info = try #require(try PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any])
        let hashesByVersion = try #require(info["NSManagedObjectModel_VersionHashes"] as? [String: [String: Data]])
        let checksums = info["NSManagedObjectModel_VersionChecksums"] as? [String: String]
        let bundle = try #require(ModelReader().read(at: Corpus.path(source)).bundle)
        #expect(bundle.currentVersionName == info["NSManagedObjectModel_CurrentVersionName"] as? String)
        #expect(Set(bundle.versions.map(\.name)) == Set(hashesByVersion.keys))
        for (name, apple) in hashesByVersion {
            let version = try #require(bundle.version(named: name))
            let hasher = VersionHasher(version)
            let ours = hasher.entityHashes()
            #expect(ours.mapValues(\.bytes) == apple.mapValues { [UInt8]($0) }, "version \(name)")
            if let checksum = checksums?[name] {
                #expect(hasher.versionChecksum(ours) == checksum, "checksum of \(name)")
            }
        }
    }

    static func version(_ name: String, of model: String) throws -> ModelVersion? {
        let result = ModelReader().read(at: Corpus.path(model))
        #expect(!result.diagnostics.contains { $0.severity == .error })
        return result.bundle?.version(named: name)
    }
}
