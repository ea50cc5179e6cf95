import Foundation
import ModelArchive
import ModelCompiler
import ModelSchema
import ModelXML
import Testing
import _ModelTestSupport

/// `compile` and `decompile` on every corpus model, and against Xcode's own output.
@Suite(Corpus.required)
struct CompileCorpusTests {
    static let models = Corpus.isAvailable
        ? Corpus.modelPaths().filter { CorpusValidationTests.expectedErrors[$0] == nil } : []

    @Test(arguments: models)
    func compilesDeterministicallyAndSurvivesDecompiling(_ relative: String) throws {
        let bundle = try #require(ModelSources.reader.read(at: Corpus.path(relative)).bundle)
        let first = ModelCompilation.products(of: bundle)
        let second = ModelCompilation.products(of: bundle)
        #expect(first.map(\.path) == second.map(\.path))
        let deterministic = first.map(\.bytes) == second.map(\.bytes)
        #expect(deterministic, "compiling twice gives the same bytes")
        for file in first where file.path.hasSuffix(".mom") {
            // Foundation reads every archive as a property list.
            #expect(try PropertyListSerialization.propertyList(from: Data(file.bytes), format: nil) is [String: Any])
            let name = String((file.path as NSString).lastPathComponent.dropLast(4))
            let decoded = try ModelUnarchiver.version(from: file.bytes, name: name, path: file.path)
            let xml = ModelXMLWriter.contents(of: decoded)
            let (reread, diagnostics) = ModelReader().readVersion(contents: Array(xml.utf8), name: name, path: "contents")
            #expect(diagnostics.isEmpty)
            let recompiled = ModelArchiver.archive(try #require(reread))
            let identical = recompiled == file.bytes
            #expect(identical, "\(file.path): decompile then compile gives the same bytes")
            if !identical {
                let differences = ArchiveComparison.differences(
                    try KeyedArchiveReader.unarchive(file.bytes), try KeyedArchiveReader.unarchive(recompiled))
                #expect(differences == [])
            }
        }
    }

    /// Compiling Xcode's source as the Xcode that compiled it gives the same `VersionInfo.plist`
    /// keys and values.
    @Test(arguments: XcodeCompiled.all)
    func versionInfoEqualsXcodes(_ golden: XcodeCompiled) throws {
        let bundle = try #require(ModelSources.reader.read(at: Corpus.path(golden.source)).bundle)
        let options = ModelCompilation.Options(compilerVersion: golden.compiler)
        let ours = try #require(ModelCompilation.products(of: bundle, options: options).first { $0.path.hasSuffix("VersionInfo.plist") })
        let apple = try #require(FileManager.default.contents(atPath: Corpus.path("\(golden.momd)/VersionInfo.plist")))
        var expected = try VersionInfo.decode([UInt8](apple))
        if !golden.sourceNamesCurrentVersion {
            #expect(expected.currentVersionName != nil)
            expected.currentVersionName = nil
        }
        #expect(try VersionInfo.decode(ours.bytes) == expected)
        guard golden.sourceNamesCurrentVersion else { return }
        // Foundation reads both the same way.
        let ourPlist = try PropertyListSerialization.propertyList(from: Data(ours.bytes), format: nil) as? NSDictionary
        let applePlist = try PropertyListSerialization.propertyList(from: apple, format: nil) as? NSDictionary
        #expect(ourPlist == applePlist)
    }

    /// The hand-made list of Xcode-compiled bundles (each with its source and its Xcode) is every
    /// `.momd` the corpus holds, found on disk.
    @Test func everyXcodeCompiledBundleIsListed() {
        #expect(Set(XcodeCompiled.all.map(\.momd)) == Set(Corpus.compiledModels()))
        #expect(XcodeCompiled.known.count == 5)
    }

    @Test(arguments: XcodeCompiled.all)
    func decompilingXcodesMomdGivesApplesHashes(_ golden: XcodeCompiled) throws {
        let compiled = try CompiledModelReader.read(at: Corpus.path(golden.momd))
        let info = try VersionInfo.decode([UInt8](try #require(FileManager.default.contents(atPath: Corpus.path("\(golden.momd)/VersionInfo.plist")))))
        // Without a name in VersionInfo.plist the only version is current, and said to be inferred.
        #expect(compiled.currentVersionName == info.currentVersionName ?? compiled.versions.last?.name)
        #expect(compiled.currentVersionIsInferred == (info.currentVersionName == nil))
        let folder = try Modelc.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let written = try ModelBundleWriter.write(compiled, into: folder.path)
        let recovered = try #require(ModelReader().read(at: written).bundle)
        #expect(recovered.versions.count == info.versionHashes.count && !info.versionHashes.isEmpty)
        for version in recovered.versions {
            #expect(VersionHasher(version).entityHashes() == info.versionHashes[version.name], "\(version.name)")
        }
    }
}
