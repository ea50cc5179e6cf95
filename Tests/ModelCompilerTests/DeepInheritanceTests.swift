import Foundation
import ModelArchive
import ModelCompiler
import ModelSchema
import ModelStore
import Testing
import _ModelTestSupport

/// Inheritance chains 20,000 entities deep, each entity the parent of the next (issue 25), compile,
/// hash and make a store (or are refused one by SQLite's column limit) without exhausting the
/// stack. A chain's hashes cover 6.4 GB of SHA-256 input (each entity hashes all its inherited
/// properties' hashes), so each test takes up to 40 s of CPU in a debug build, where the SHA-2 C
/// code is not optimized; the limit leaves room for a machine loaded with the other tests.
@Suite(.serialized)
struct DeepInheritanceTests {
    static let depth = 20_000

    /// A model whose entities `E1` … `E<count>` each inherit from the one before and declare
    /// what `properties` writes for their number, as XML.
    static func chain(_ count: Int, properties: (Int) -> String) -> String {
        var text = """
            <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
            <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" lastSavedToolsVersion="22758" \
            systemVersion="23E224" minimumToolsVersion="Automatic" sourceLanguage="Swift" userDefinedModelVersionIdentifier="">

            """
        for index in 1...count {
            let parent = index > 1 ? " parentEntity=\"E\(index - 1)\"" : ""
            text += "    <entity name=\"E\(index)\" representedClassName=\"E\(index)\"\(parent) syncable=\"YES\">\n"
            text += properties(index)
            text += "    </entity>\n"
        }
        return text + "</model>\n"
    }

    /// The chain of `Benchmarks/inheritance-chain.py`: one attribute each, `E1` to-many to the
    /// last entity and the last one's to-one inverse.
    static func attributeChain(_ count: Int) -> String {
        chain(count) { index in
            var lines = "        <attribute name=\"a\(index)\" optional=\"YES\" attributeType=\"String\"/>\n"
            if index == 1 {
                lines += "        <relationship name=\"children\" optional=\"YES\" toMany=\"YES\" deletionRule=\"Nullify\" "
                    + "destinationEntity=\"E\(count)\" inverseName=\"up\" inverseEntity=\"E\(count)\"/>\n"
            }
            if index == count {
                lines += "        <relationship name=\"up\" optional=\"YES\" maxCount=\"1\" deletionRule=\"Nullify\" "
                    + "destinationEntity=\"E1\" inverseName=\"children\" inverseEntity=\"E1\"/>\n"
            }
            return lines
        }
    }

    /// A chain of subentities with one relationship each, of the entity to itself and its own
    /// inverse: to-one, which takes a column (and one for the destination's entity number), or
    /// to-many, which takes a join table of its own.
    static func relationshipChain(_ count: Int, toMany: Bool) -> String {
        chain(count) { index in
            "        <relationship name=\"r\(index)\" optional=\"YES\" \(toMany ? "toMany=\"YES\"" : "maxCount=\"1\"") "
                + "deletionRule=\"Nullify\" destinationEntity=\"E\(index)\" inverseName=\"r\(index)\" inverseEntity=\"E\(index)\"/>\n"
        }
    }

    /// Compiles the model `contents` as a one-version bundle; returns its version and the entity
    /// hashes `VersionInfo.plist` records for it, which the compile computes with ``VersionHasher``.
    static func compile(_ contents: String, in folder: URL) throws -> (ModelVersion, [String: VersionHash]) {
        let bundle = folder.appendingPathComponent("Chain.xcdatamodeld").path
        try writeFile("Chain.xcdatamodeld/Chain.xcdatamodel/contents", contents, in: folder)
        let result = try ModelCompilation.compile(modelAt: bundle, into: folder.appendingPathComponent("out").path)
        #expect(!result.diagnostics.contains { $0.severity == .error })
        let output = try #require(result.outputPath)
        #expect(FileManager.default.fileExists(atPath: output + "/Chain.mom"))
        let info = try VersionInfo.decode(try [UInt8](Data(contentsOf: URL(fileURLWithPath: output + "/VersionInfo.plist"))))
        let version = try #require(ModelSources.reader.read(at: bundle).bundle?.versions.first)
        return (version, info.versionHashes["Chain"] ?? [:])
    }

    @Test(.timeLimit(.minutes(5)))
    func aChainOfEntitiesWithOneAttributeEachCompilesHashesAndIsRefusedAStore() throws {
        try withTemporaryDirectory { folder in
            let (version, hashes) = try Self.compile(Self.attributeChain(Self.depth), in: folder)
            #expect(hashes.count == Self.depth)
            // The root's hash covers only its own properties: a model of it alone hashes it alike.
            var alone = version
            alone.entities = [version.entities[0]]
            #expect(VersionHasher(alone).entityHashes()["E1"] == hashes["E1"])
            // One table holds the whole chain: 20,000 attribute columns, where SQLite allows 2,000.
            let store = folder.appendingPathComponent("Chain.sqlite").path
            #expect {
                try StoreCreator.create(at: store, version: version)
            } throws: { error in
                (error as? StoreError)?.errorClass == .tooManyColumns
            }
            #expect(!FileManager.default.fileExists(atPath: store))
        }
    }

    @Test(.timeLimit(.minutes(5)))
    func aChainOfSubentitiesWithOneRelationshipEachCompilesHashesAndIsRefusedAStore() throws {
        try withTemporaryDirectory { folder in
            let (version, hashes) = try Self.compile(Self.relationshipChain(Self.depth, toMany: false), in: folder)
            #expect(hashes.count == Self.depth)
            #expect(Set(hashes.values).count == Self.depth)
            #expect {
                try StoreCreator.create(at: folder.appendingPathComponent("Chain.sqlite").path, version: version)
            } throws: { error in
                (error as? StoreError)?.errorClass == .tooManyColumns
            }
        }
    }

    /// A mapping model keeps snapshots of its models, where each entity refers to its parent: the
    /// archive writer numbers such a graph with a work list, not one call per level.
    @Test(.timeLimit(.minutes(5)))
    func theMappingModelSnapshotOfAChainIsArchived() throws {
        try withTemporaryDirectory { folder in
            let bundle = folder.appendingPathComponent("Chain.xcdatamodel").path
            try writeFile("Chain.xcdatamodel/contents", Self.relationshipChain(Self.depth, toMany: false), in: folder)
            var version = try #require(ModelSources.reader.read(at: bundle).bundle?.versions.first)
            // Subentities first: each entity's snapshot then meets its parent before it is written.
            version.entities.reverse()
            #expect(!ModelSnapshotArchiver.archive(version).isEmpty)
        }
    }

    /// With a join table per relationship a chain's store has no column limit, but SQLite reads
    /// its whole schema table again after each `CREATE`, so a store of 20,000 join tables takes
    /// minutes, in Core Data as here; 2,000 show the layout itself is no longer the cost.
    @Test(.timeLimit(.minutes(5)))
    func aChainOfSubentitiesWithAJoinTableEachMakesAStore() throws {
        try withTemporaryDirectory { folder in
            let depth = 2_000
            let (version, recorded) = try Self.compile(Self.relationshipChain(depth, toMany: true), in: folder)
            #expect(VersionHasher(version).entityHashes() == recorded)
            let layout = try StoreCreator.create(at: folder.appendingPathComponent("Chain.sqlite").path, version: version)
            #expect(layout.entities.count == depth)
            #expect(layout.entities.last?.superNumber == depth - 1)
            // Entity numbers follow the chain, so each table is named after its own entity.
            let tables = Set(layout.joinTables.map(\.table.name))
            #expect(tables.count == depth && tables.contains("Z_1R1") && tables.contains("Z_\(depth)R\(depth)"))
        }
    }
}
