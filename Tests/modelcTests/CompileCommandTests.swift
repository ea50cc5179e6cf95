import Foundation
import ModelArchive
import ModelSchema
import Testing
import _ModelTestSupport

/// `modelc compile`, `decompile` and `inspect`, run as a built binary.
struct CompileCommandTests {
    @Test func compilingTheSampleModelWritesAMomdWithEveryVersion() throws {
        let output = try Modelc.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: output) }
        let run = try Modelc.run(["compile", "Models/Library.xcdatamodeld", "-o", output.path])
        #expect(run.status == 0)
        let momd = output.appendingPathComponent("Library.momd")
        let files = try FileManager.default.contentsOfDirectory(atPath: momd.path).sorted()
        #expect(files == ["Library 2.mom", "Library 3.mom", "Library.mom", "VersionInfo.plist"])
        let info = try VersionInfo.decode([UInt8](try Data(contentsOf: momd.appendingPathComponent("VersionInfo.plist"))))
        #expect(info.currentVersionName == "Library 3")
        // The hashes in VersionInfo.plist are the ones `modelc hash` prints.
        let hash = try Modelc.run(["hash", "Models/Library.xcdatamodeld", "--json"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(hash.standardOutput.utf8)) as? [String: Any])
        for version in try #require(object["versions"] as? [[String: Any]]) {
            let name = try #require(version["name"] as? String)
            #expect(info.versionHashes[name]?.mapValues(\.hex) == version["entities"] as? [String: String])
            #expect(info.versionChecksums?[name] == version["versionChecksum"] as? String)
        }
    }

    @Test func compilingTwiceGivesTheSameBytes() throws {
        let first = try Modelc.temporaryFolder(), second = try Modelc.temporaryFolder()
        defer {
            try? FileManager.default.removeItem(at: first)
            try? FileManager.default.removeItem(at: second)
        }
        try Modelc.run(["compile", "Models/Library.xcdatamodeld", "-o", first.path])
        try Modelc.run(["compile", "Models/Library.xcdatamodeld", "-o", second.path])
        for name in ["Library.mom", "Library 2.mom", "Library 3.mom", "VersionInfo.plist"] {
            let a = try Data(contentsOf: first.appendingPathComponent("Library.momd/\(name)"))
            let b = try Data(contentsOf: second.appendingPathComponent("Library.momd/\(name)"))
            #expect(a == b, "\(name)")
        }
    }

    @Test func aLoneVersionCompilesToAMom() throws {
        let output = try Modelc.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: output) }
        let run = try Modelc.run(["compile", "Models/Library.xcdatamodeld/Library 2.xcdatamodel", "-o", output.path])
        #expect(run.status == 0)
        #expect(FileManager.default.fileExists(atPath: output.appendingPathComponent("Library 2.mom").path))
    }

    @Test func errorsStopTheCompileAndWriteNothing() throws {
        let folder = try Modelc.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let model = folder.appendingPathComponent("Broken.xcdatamodel")
        try FileManager.default.createDirectory(at: model, withIntermediateDirectories: true)
        try ValidateCommandTests.brokenModel.write(to: model.appendingPathComponent("contents"), atomically: true, encoding: .utf8)
        let output = folder.appendingPathComponent("out")
        let run = try Modelc.run(["compile", model.path, "-o", output.path])
        #expect(run.status == 1 && run.standardOutput.isEmpty)
        #expect(run.standardError.contains("[S101]"))
        #expect(run.standardError.contains("error: the model has 2 errors [invalidModel, S116]"), "\(run.standardError)")
        #expect(!FileManager.default.fileExists(atPath: output.appendingPathComponent("Broken.mom").path))
        // With --json: the one error object, with the model's diagnostics.
        let json = try Modelc.run(["compile", model.path, "-o", output.path, "--json"])
        #expect(json.status == 1)
        let error = try #require(try json.json()["error"] as? [String: Any])
        #expect(error["class"] as? String == "invalidModel")
        #expect(error["code"] as? String == "S116", "the first error's code")
        #expect(error["path"] as? String == model.path)
        #expect(error["advice"] is String)
        let codes = (try json.json()["diagnostics"] as? [[String: Any]])?.compactMap { $0["code"] as? String }
        #expect(codes == ["S116", "S101", "S107"])
        #expect(!FileManager.default.fileExists(atPath: output.path), "nothing written")
    }

    // MARK: - --json

    @Test func jsonReportsWhatWasWrittenAndTheWarnings() throws {
        let folder = try Modelc.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try Modelc.run(["compile", "Models/Library.xcdatamodeld", "-o", folder.path, "--json"])
        #expect(run.status == 0, "\(run.standardError)")
        let report = try run.json()
        let written = try #require(report["written"] as? [String])
        #expect(written == [folder.appendingPathComponent("Library.momd").path])
        #expect(FileManager.default.fileExists(atPath: written[0] + "/Library 3.mom"))
        #expect(report["errorCount"] as? Int == 0)
        let validate = try Modelc.run(["validate", "Models/Library.xcdatamodeld", "--json"]).json()
        #expect(report["warningCount"] as? Int == validate["warningCount"] as? Int, "the warnings validate reports")
        #expect((report["diagnostics"] as? [Any])?.count == (validate["diagnostics"] as? [Any])?.count)
    }

    @Test(arguments: [false, true])
    func anOutputThatIsAFileIsAClearError(json: Bool) throws {
        let folder = try Modelc.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("taken")
        try Data("not a folder".utf8).write(to: output)
        let run = try Modelc.run(["compile", "Models/Library.xcdatamodeld", "-o", output.path] + (json ? ["--json"] : []))
        #expect(run.status == 1)
        #expect(!(run.standardOutput + run.standardError).contains("NSCocoaErrorDomain"), "\(run.standardOutput) \(run.standardError)")
        if json {
            let error = try #require(try run.json()["error"] as? [String: Any])
            #expect(error["class"] as? String != nil && error["class"] as? String != "failed", "\(error)")
            #expect(Int(error["code"] as? String ?? "") != nil)
        } else {
            #expect(run.standardError.firstMatch(of: /\[\w+, \d+\]/) != nil, "\(run.standardError)")
        }
        #expect(try Data(contentsOf: output) == Data("not a folder".utf8))
    }

    @Test func aFolderWithoutModelsIsNotFound() throws {
        let folder = try Modelc.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try Modelc.run(["compile", folder.path, "-o", folder.appendingPathComponent("out").path, "--json"])
        #expect(run.status == 1)
        let error = try #require(try run.json()["error"] as? [String: Any])
        #expect(error["class"] as? String == "notFound" && error["code"] as? String == "X013")
    }

    @Test func decompileRecoversAModelThatCompilesToTheSameBytes() throws {
        let folder = try Modelc.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Modelc.run(["compile", "Models/Library.xcdatamodeld", "-o", folder.appendingPathComponent("a").path])
        let decompile = try Modelc.run([
            "decompile", folder.appendingPathComponent("a/Library.momd").path, "-o", folder.appendingPathComponent("src").path,
        ])
        #expect(decompile.status == 0)
        let source = folder.appendingPathComponent("src/Library.xcdatamodeld")
        #expect(try Modelc.run(["validate", source.path]).status == 0)
        try Modelc.run(["compile", source.path, "-o", folder.appendingPathComponent("b").path])
        for name in ["Library.mom", "Library 2.mom", "Library 3.mom", "VersionInfo.plist"] {
            let a = try Data(contentsOf: folder.appendingPathComponent("a/Library.momd/\(name)"))
            let b = try Data(contentsOf: folder.appendingPathComponent("b/Library.momd/\(name)"))
            #expect(a == b, "\(name)")
        }
    }

    @Test func inspectShowsSourceAndCompiledModelsAlike() throws {
        let folder = try Modelc.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Modelc.run(["compile", "Models/Library.xcdatamodeld", "-o", folder.path])
        let source = try Modelc.run(["inspect", "Models/Library.xcdatamodeld", "--json"])
        let compiled = try Modelc.run(["inspect", folder.appendingPathComponent("Library.momd").path, "--json"])
        #expect(source.status == 0 && compiled.status == 0)
        let a = try #require(try JSONSerialization.jsonObject(with: Data(source.standardOutput.utf8)) as? [String: Any])
        let b = try #require(try JSONSerialization.jsonObject(with: Data(compiled.standardOutput.utf8)) as? [String: Any])
        #expect(a["current"] as? String == "Library 3")
        #expect(b["current"] as? String == "Library 3")
        let checksums = { (object: [String: Any]) in
            (object["versions"] as? [[String: Any]] ?? []).compactMap { $0["versionChecksum"] as? String }
        }
        #expect(checksums(a) == checksums(b))
        #expect(checksums(a).count == 3)
        let text = try Modelc.run(["inspect", "Models/Library.xcdatamodeld"])
        #expect(text.standardOutput.contains("abstract entity Publication"))
    }

    @Test func aCorruptMomIsAClearError() throws {
        let folder = try Modelc.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("Bad.mom").path
        #expect(FileManager.default.createFile(atPath: path, contents: Data("bplist00 not really".utf8)))
        let run = try Modelc.run(["decompile", path, "-o", folder.path])
        #expect(run.status == 1)
        #expect(run.standardError.contains("cannot read compiled model"))
        #expect(run.standardError.contains("[X001]"))
    }
}
