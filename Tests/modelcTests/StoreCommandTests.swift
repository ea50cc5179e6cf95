import Foundation
import ModelStore
import Testing
import _ModelTestSupport

/// `modelc store create | info | check` as a user runs them, on the fixtures and the corpus.
/// Every read-only command runs on the fixture files themselves, which must keep every byte.
@Suite(.serialized)
struct StoreCommandTests {
    static let library = Corpus.packagePath("Models/Library.xcdatamodeld")
    static let fixtures = ["Library-v1", "Library-v2", "Library-v3"].map { Corpus.packagePath("Fixtures/\($0).sqlite") }

    /// Runs `body` and checks that the files (and the absence of sidecars) are unchanged.
    func unchanged(_ paths: [String], _ body: () throws -> Void) throws {
        let read = { (path: String) in FileManager.default.contents(atPath: path) }
        let sidecars = { (path: String) in ["-wal", "-shm", "-journal"].filter { FileManager.default.fileExists(atPath: path + $0) } }
        let before = paths.map { (read($0), sidecars($0)) }
        for (path, (bytes, _)) in zip(paths, before) {
            #expect(bytes != nil, "\(path) cannot be read, so its bytes cannot be compared")
        }
        try body()
        for (path, (bytes, files)) in zip(paths, before) {
            #expect(read(path) == bytes, "\(path) changed")
            #expect(sidecars(path) == files, "\(path) gained or lost sidecar files")
        }
    }

    func json(_ run: Modelc.Run) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(run.standardOutput.utf8)) as? [String: Any])
    }

    func check(_ store: String, model: String = library, wrapper: [String] = []) throws -> (status: Int32, report: [String: Any]) {
        let run = try Modelc.run(["store", "check", store, "--model", model, "--json"], wrapper: wrapper)
        return (run.status, try json(run))
    }

    // MARK: create

    @Test func createWritesAStoreOfTheVersionAndRefusesToReplaceAFile() throws {
        try withTemporaryDirectory { folder in
            let path = folder.appendingPathComponent("New.sqlite").path
            let run = try Modelc.run(["store", "create", "--model", Self.library, "--model-version", "Library 2", path])
            #expect(run.status == 0, "\(run.standardError)")
            #expect(run.standardOutput.contains("version 'Library 2'"))
            let info = try json(try Modelc.run(["store", "info", path, "--model", Self.library, "--json"]))
            #expect(info["matchedVersion"] as? String == "Library 2")
            #expect(info["journalMode"] as? String == "wal")
            #expect(!FileManager.default.fileExists(atPath: path + "-wal"))

            try unchanged([path]) {
                let again = try Modelc.run(["store", "create", "--model", Self.library, path])
                #expect(again.status == 1)
                #expect(again.standardError.contains("[alreadyExists, 516]"))
            }
        }
    }

    // MARK: info

    @Test func infoNamesTheVersionOfEveryFixture() throws {
        try unchanged(Self.fixtures) {
            for (fixture, version) in zip(Self.fixtures, ["Library", "Library 2", "Library 3"]) {
                let run = try Modelc.run(["store", "info", fixture, "--model", Self.library, "--json"])
                #expect(run.status == 0)
                let info = try json(run)
                #expect(info["matchedVersion"] as? String == version)
                let tables = try #require(info["tables"] as? [[String: Any]])
                #expect(tables.contains { $0["name"] as? String == "ZPUBLICATION" && $0["rows"] as? Int == 5 })
            }
            let text = try Modelc.run(["store", "info", Self.fixtures[0], "--model", Self.library])
            #expect(text.standardOutput.contains("version      'Library' (all 5 entity hashes equal)"))
        }
    }

    @Test(Corpus.required, arguments: CorpusStores.known)
    func infoNamesTheVersionThatMadeEachCorpusStore(_ known: KnownStore) throws {
        let store = Corpus.path(known.store)
        try unchanged([store]) {
            let run = try Modelc.run(["store", "info", store, "--model", Corpus.path(known.model), "--json"])
            #expect(run.status == 0, "\(run.standardError)")
            #expect(try json(run)["matchedVersion"] as? String == known.version)
        }
    }

    /// `store info` compares the store's tables with Core Data's layout of its version: a store
    /// Core Data created as it is matches; Wire 2.98's, renamed in place when the other side of
    /// `trustedClients` came to name its join table, shows the columns it kept.
    @Test(Corpus.required) func infoComparesTheStoresTablesWithCoreDatasLayout() throws {
        let easyLife = try #require(CorpusStores.known.first { $0.store.contains("EasyLife 1.5.0") })
        let clean = try json(Modelc.run(["store", "info", Corpus.path(easyLife.store), "--model", Corpus.path(easyLife.model), "--json"]))
        #expect(clean["schemaDifferences"] as? [String] == [])
        let text = try Modelc.run(["store", "info", Corpus.path(easyLife.store), "--model", Corpus.path(easyLife.model)])
        #expect(text.standardOutput.contains("layout       as build 849 lays out this version"))
        let wire = try #require(CorpusStores.wireStores.first { $0.store.contains("store2-98-0") })
        let migrated = try json(Modelc.run(["store", "info", Corpus.path(wire.store), "--model", Corpus.path(wire.model), "--json"]))
        let differences = try #require(migrated["schemaDifferences"] as? [String])
        #expect(differences.contains { $0.contains("Z_25TRUSTEDBYCLIENTS") && $0.contains("columns") })
    }

    @Test(Corpus.required, arguments: [
        ("larromba__EasyLife/EasyLifeTests/EasyLife.sqlite", "larromba__EasyLife/EasyLife/EasyLife.xcdatamodeld"),
        ("\(CorpusStores.wire)/Tests/Resources/store1-24.wiredatabase", CorpusStores.wireModel),
    ])
    func infoGivesTheNearestVersionWhenNoneMadeTheStore(_ store: String, _ model: String) throws {
        let run = try Modelc.run(["store", "info", Corpus.path(store), "--model", Corpus.path(model), "--json"])
        let info = try json(run)
        #expect(info.keys.contains("matchedVersion"))
        #expect(info["matchedVersion"] is NSNull)
        #expect(info["nearestVersion"] is String)
        let differences = try #require(info["differences"] as? [[String: Any]])
        #expect(!differences.isEmpty)
        if store.contains("EasyLife") {
            #expect(info["nearestVersion"] as? String == "EasyLife")
            #expect(differences.map { "\($0["entity"]!) \($0["change"]!)" } == ["Project onlyInStore"])
        }
    }

    @Test(Corpus.required, arguments: [
        "LoopKit__LoopKit/LoopKitHostedTests/TestCoreData/Model.sqlite.v1.original",
        "\(CorpusStores.plus)/SampleModel2/Fixtures/SampleModel2_V1.sqlite",
        "\(CorpusStores.wibosco)/CoreDataMigration-ExampleTests/Resources/SQLite/CoreDataMigration_Example_WAL.sqlite",
        "\(CorpusStores.wire)/Tests/Resources/store1-24.wiredatabase",
    ])
    func dumpModelRecoversAModelWithTheStoresHashes(_ store: String) throws {
        let path = Corpus.path(store)
        try withTemporaryDirectory { folder in
            try unchanged([path, path + "-wal"].filter { FileManager.default.fileExists(atPath: $0) }) {
                let run = try Modelc.run(["store", "info", path, "--dump-model", folder.path])
                #expect(run.status == 0, "\(run.standardError)")
            }
            let name = URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
            let hash = try Modelc.run(["hash", folder.appendingPathComponent("\(name).xcdatamodeld").path, "--json"])
            #expect(hash.status == 0, "\(hash.standardError)")
            let versions = try #require(try json(hash)["versions"] as? [[String: Any]])
            let entities = try #require(versions.first?["entities"] as? [String: String])
            let expected = try StoreMetadata.read(at: path).versionHashes.mapValues(\.hex)
            #expect(entities == expected)
        }
    }

    // MARK: check

    @Test func checkAcceptsAStoreOfTheCurrentVersion() throws {
        try unchanged(Self.fixtures) {
            let (status, report) = try check(Self.fixtures[2])
            #expect(status == 0)
            #expect(report["class"] as? String == "compatible")
            #expect(report["code"] as? Int == 0)
            let text = try Modelc.run(["store", "check", Self.fixtures[2], "--model", Self.library])
            #expect(text.standardOutput.contains("opens with the current version 'Library 3'"))
        }
    }

    @Test func checkClassifiesAStoreOfAnOlderVersion() throws {
        try unchanged(Self.fixtures) {
            let (status, report) = try check(Self.fixtures[0])
            #expect(status == 2)
            #expect(report["class"] as? String == "incompatibleVersionHash")
            #expect(report["code"] as? Int == 134100)
            #expect(report["matchedVersion"] as? String == "Library")
            #expect((report["advice"] as? String)?.contains("migrate") == true)
        }
    }

    @Test func checkClassifiesAStoreWithNoMatchingModel() throws {
        try unchanged(Self.fixtures) {
            try withTemporaryDirectory { folder in
                let model = try writeFile(
                    "Unrelated.xcdatamodel/contents",
                    #"<?xml version="1.0" encoding="UTF-8" standalone="yes"?><model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0"><entity name="Note" representedClassName="Note" syncable="YES"><attribute name="text" optional="YES" attributeType="String"/></entity></model>"#,
                    in: folder
                ).deletingLastPathComponent().path
                let (status, report) = try check(Self.fixtures[1], model: model)
                #expect(status == 2)
                #expect(report["class"] as? String == "missingSourceModel")
                #expect(report["code"] as? Int == 134130)
            }
        }
    }

    @Test func checkClassifiesAStoreOfANewerVersion() throws {
        try withTemporaryDirectory { folder in
            let bundle = folder.appendingPathComponent("Library.xcdatamodeld")
            try FileManager.default.copyItem(atPath: Self.library, toPath: bundle.path)
            try FileManager.default.removeItem(at: bundle.appendingPathComponent("Library 3.xcdatamodel"))
            try writeFile(".xccurrentversion", ModelFiles.xccurrentversion("Library 2"), in: bundle)
            try unchanged(Self.fixtures) {
                let (status, report) = try check(Self.fixtures[2], model: bundle.path)
                #expect(status == 2)
                #expect(report["class"] as? String == "newerModel")
                #expect(report["code"] as? Int == 134130)
            }
        }
    }

    @Test func checkClassifiesAMissingFile() throws {
        let (status, report) = try check(Corpus.packagePath("Fixtures/NoSuchStore.sqlite"))
        #expect(status == 2)
        #expect(report["class"] as? String == "notFound")
        #expect(report["code"] as? Int == 260)
    }

    @Test func checkClassifiesDamagedFiles() throws {
        try withTemporaryDirectory { folder in
            let original = try Data(contentsOf: URL(fileURLWithPath: Self.fixtures[2]))
            var damaged: [(String, Data)] = [
                ("truncated", original.prefix(original.count / 2)),
                ("text", Data("This is not a database, just a text file.\n".utf8)),
                ("empty", Data()),
            ]
            var garbage = original
            var generator = TestSeed.generator(for: "checkClassifiesDamagedFiles")
            for offset in 4096..<16384 { garbage[offset] = UInt8.random(in: 0...255, using: &generator) }
            damaged.append(("garbage", garbage))
            for (name, bytes) in damaged {
                let path = folder.appendingPathComponent("\(name).sqlite").path
                try bytes.write(to: URL(fileURLWithPath: path))
                try unchanged([path]) {
                    let (status, report) = try check(path)
                    #expect(status == 2, "\(name)")
                    #expect(report["class"] as? String == "corrupt", "\(name): \(report)")
                    #expect(report["code"] as? Int == 259, "\(name)")
                }
            }
        }
    }

    @Test func checkClassifiesASQLiteDatabaseThatIsNotAStore() throws {
        try withTemporaryDirectory { folder in
            let path = folder.appendingPathComponent("plain.sqlite").path
            try python("import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); c.execute('CREATE TABLE t (x)'); c.commit()", path)
            let (status, report) = try check(path)
            #expect(status == 2)
            #expect(report["class"] as? String == "notACoreDataStore")
            #expect(report["code"] as? Int == 134010)
        }
    }

    @Test(arguments: ["delete", "wal"])
    func checkClassifiesAStoreLockedByAnotherProcess(_ journal: String) throws {
        try withTemporaryDirectory { folder in
            let path = folder.appendingPathComponent("Locked.sqlite").path
            #expect(try Modelc.run(["store", "create", "--model", Self.library, "--journal-mode", journal, path]).status == 0)
            let locker = try StoreLocker(path)
            defer { locker.stop() }
            let (status, report) = try check(path)
            #expect(status == 2)
            #expect(report["class"] as? String == "locked", "\(report)")
            #expect(report["code"] as? Int == 134090)
        }
    }

    /// Runs the check as an unprivileged user when the tests run as root, whom file permissions
    /// do not stop; otherwise as the current user.
    @Test func checkClassifiesAnUnreadableFile() throws {
        try withTemporaryDirectory { folder in
            let path = folder.appendingPathComponent("Unreadable.sqlite").path
            try FileManager.default.copyItem(atPath: Self.fixtures[2], toPath: path)
            try FileManager.default.setAttributes([.posixPermissions: 0o000], ofItemAtPath: path)
            defer { try? FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: path) }
            let wrapper = getuid() == 0 ? ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"] : []
            let (status, report) = try check(path, model: Self.library, wrapper: wrapper)
            #expect(status == 2)
            #expect(report["class"] as? String == "permissionDenied")
            #expect(report["code"] as? Int == 257)
        }
    }

    func python(_ script: String, _ argument: String) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script, argument]
        try Spawn.run(process)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
    }
}
