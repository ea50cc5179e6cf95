import Foundation
import Testing
import _ModelTestSupport

/// README options and documented codes of `validate` and `store create` not covered elsewhere,
/// run through the binary: several paths at once, X012, X014, `--framework-version` against a
/// store Core Data wrote, and 513 when the folder cannot be written.
struct ModelAndStoreOptionTests {
    static let library = Corpus.packagePath("Models/Library.xcdatamodeld")

    // MARK: - validate

    @Test func validateReportsEveryModelGivenInOneRun() throws {
        try withTemporaryDirectory { folder in
            let broken = try writeFile("Broken.xcdatamodel/contents", ValidateCommandTests.brokenModel, in: folder).deletingLastPathComponent().path
            let run = try Modelc.run(["validate", Self.library, broken, "--json"])
            #expect(run.status == 1)
            let report = try run.json()
            let items = try #require(report["diagnostics"] as? [[String: Any]])
            #expect(items.compactMap { $0["path"] as? String }.allSatisfy { $0.hasPrefix(broken) })
            #expect(items.compactMap { $0["code"] as? String } == ["S116", "S101", "S107"])
            let text = try Modelc.run(["validate", broken, Self.library])
            #expect(text.status == 1)
            #expect(text.standardError.contains("2 errors, 1 warning in 2 models"), "\(text.standardError)")
        }
    }

    /// `.xccurrentversion` without a current version name: a warning, and the last version is
    /// used.
    @Test func x012ACurrentVersionFileWithoutAName() throws {
        try withTemporaryDirectory { folder in
            let bundle = folder.appendingPathComponent("Library.xcdatamodeld")
            try FileManager.default.copyItem(atPath: Self.library, toPath: bundle.path)
            try writeFile(
                ".xccurrentversion",
                #"<?xml version="1.0" encoding="UTF-8"?><plist version="1.0"><dict></dict></plist>"#, in: bundle)
            let run = try Modelc.run(["validate", bundle.path])
            #expect(run.status == 0, "\(run.standardError)")
            #expect(run.standardError.contains("warning: ") && run.standardError.contains("[X012]"), "\(run.standardError)")
            let hash = try Modelc.run(["hash", bundle.path])
            #expect(hash.standardOutput.contains("Library 3 (current)"))
        }
    }

    @Test func x014AVersionFolderWithoutContents() throws {
        try withTemporaryDirectory { folder in
            let bundle = folder.appendingPathComponent("Library.xcdatamodeld")
            try FileManager.default.copyItem(atPath: Self.library, toPath: bundle.path)
            try FileManager.default.removeItem(at: bundle.appendingPathComponent("Library 2.xcdatamodel/contents"))
            let run = try Modelc.run(["validate", bundle.path])
            #expect(run.status == 1)
            #expect(run.standardError.contains("Library 2.xcdatamodel") && run.standardError.contains("error: "))
            #expect(run.standardError.contains("[X014]"), "\(run.standardError)")
        }
    }

    // MARK: - store create

    /// `--framework-version` imitates the Core Data build that wrote SampleModel_V1.sqlite: the
    /// store created for the same (current) version has that build's metadata keys, index
    /// names, tables and hashes, read from Apple's file.
    @Test(Corpus.required)
    func storeCreateImitatesTheBuildThatWroteAStore() throws {
        try withTemporaryDirectory { folder in
            let known = try #require(CorpusStores.known.first { $0.store.hasSuffix("SampleModel_V1.sqlite") })
            let apple = try SQLiteProbe.read(try copyStore(Corpus.path(known.store), into: folder, as: "apple.sqlite"))
            let build = try #require(apple.frameworkVersion)
            let path = folder.appendingPathComponent("ours.sqlite").path
            let run = try Modelc.run(["store", "create", "--model", Corpus.path(known.model), "--framework-version", build, path])
            #expect(run.status == 0, "\(run.standardError)")
            let ours = try SQLiteProbe.read(path)
            #expect(ours.frameworkVersion == build)
            #expect(ours.metadataKeys == apple.metadataKeys)
            #expect(ours.indexes == apple.indexes)
            #expect(Set(ours.rows.keys) == Set(apple.rows.keys))
            #expect(ours.hashes == apple.hashes)
            let info = try Modelc.run(["store", "info", path, "--json"]).json()
            #expect(info["frameworkVersion"].map { "\($0)" } == build)
        }
    }

    /// A folder the user cannot write: Foundation's NSFileWriteNoPermissionError (513). Runs as
    /// an unprivileged user when the tests run as root, whom permissions do not stop.
    @Test func storeCreateInAFolderItCannotWriteIs513() throws {
        try withTemporaryDirectory { folder in
            let locked = folder.appendingPathComponent("locked")
            try FileManager.default.createDirectory(at: locked, withIntermediateDirectories: true)
            try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: locked.path)
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folder.path)
            defer { try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: locked.path) }
            let wrapper = getuid() == 0 ? ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"] : []
            let path = locked.appendingPathComponent("New.sqlite").path
            let run = try Modelc.run(["store", "create", "--model", Self.library, path], wrapper: wrapper)
            #expect(run.status == 1)
            #expect(run.standardError.contains("[permissionDenied, 513]"), "\(run.standardError)")
            #expect(!FileManager.default.fileExists(atPath: path))
        }
    }
}
