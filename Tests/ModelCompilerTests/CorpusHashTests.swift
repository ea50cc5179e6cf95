import Foundation
import ModelSchema
import ModelStore
import ModelXML
import Testing
import _ModelTestSupport

/// Our hashes against the values Apple wrote: every entity hash in each store's
/// `NSStoreModelVersionHashes` (plus checksum and digest where the store has them), and every
/// Xcode-compiled `VersionInfo.plist` of the corpus. Expected values are read from the files.
@Suite(Corpus.required)
struct CorpusHashTests {

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

    /// Every `.momd` Xcode compiled in the corpus with the source it was compiled from: the
    /// `.xcdatamodeld` of the same name in the same repository, and SampleModel's source at the
    /// commit that produced its `.momd` as well.
    static let compiledWithSources: [(String, String)] = Corpus.isAvailable
        ? Corpus.compiledModels().flatMap { momd -> [(String, String)] in
            let stem = ((momd as NSString).lastPathComponent as NSString).deletingPathExtension
            let repository = String(momd.prefix { $0 != "/" })
            let sources = Corpus.modelPaths().filter { $0.hasPrefix(repository + "/") && $0.hasSuffix("/\(stem).xcdatamodeld") }
            let extra = stem == "SampleModel" ? ["alemar11__CoreDataPlus@c42926a7797e/Tests/Resources/SampleModel/SampleModel.xcdatamodeld"] : []
            return (sources + extra).map { (momd, $0) }
        } : []

    @Test func everyCompiledModelHasItsSource() {
        #expect(Self.compiledWithSources.count == 6, "\(Self.compiledWithSources)")
        #expect(Set(Self.compiledWithSources.map(\.0)) == Set(Corpus.compiledModels()))
    }

    @Test(arguments: compiledWithSources)
    func hashesEqualXcodesVersionInfo(_ momd: String, _ source: String) throws {
        let data = try #require(FileManager.default.contents(atPath: Corpus.path("\(momd)/VersionInfo.plist")))
        let info = try #require(try PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any])
        let hashesByVersion = try #require(info["NSManagedObjectModel_VersionHashes"] as? [String: [String: Data]])
        let checksums = info["NSManagedObjectModel_VersionChecksums"] as? [String: String]
        let bundle = try #require(ModelReader().read(at: Corpus.path(source)).bundle)
        // Xcode 16.4 leaves the name out when the source has no .xccurrentversion.
        if let current = info["NSManagedObjectModel_CurrentVersionName"] as? String {
            #expect(bundle.currentVersionName == current)
        }
        #expect(!hashesByVersion.isEmpty)
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
