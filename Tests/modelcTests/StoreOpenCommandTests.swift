import Foundation
import Testing
import _ModelTestSupport

/// `modelc store open` on copies of corpus stores: it changes nothing it was not told to.
@Suite(Corpus.required)
struct StoreOpenCommandTests {
    static let bookStore = "hwaxxer__BookMigration/BookMigration/Model1.sqlite"
    static let bookModel = Corpus.path("hwaxxer__BookMigration/BookMigration/Model.xcdatamodeld")

    /// Every file in `folder` with its bytes.
    static func files(in folder: URL) throws -> [String: Data] {
        var result = [String: Data]()
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) {
            result[name] = try Data(contentsOf: folder.appendingPathComponent(name))
        }
        return result
    }

    static func open(_ store: String, _ options: [String] = [], wrapper: [String] = []) throws -> (Int32, [String: Any]) {
        let run = try Modelc.run(["store", "open", store, "--model", bookModel, "--json"] + options, wrapper: wrapper)
        return (run.status, try run.json())
    }

    @Test func anOldStoreFailsWith134100UnlessToldToMigrate() throws {
        try withTemporaryDirectory { folder in
            let store = try copyStore(Corpus.path(Self.bookStore), into: folder, as: "Books.sqlite")
            let before = try Self.files(in: folder)
            let (status, report) = try Self.open(store)
            #expect(status == 2)
            let error = try #require(report["error"] as? [String: Any])
            #expect(error["class"] as? String == "incompatibleVersion" && error["code"] as? Int == 134100)
            #expect(error["storeVersion"] as? String == "Model1" && error["modelVersion"] as? String == "Model3")
            #expect(try Self.files(in: folder) == before, "byte for byte")

            let (migrated, done) = try Self.open(store, ["--migrate"])
            #expect(migrated == 0)
            #expect(done["migratedFrom"] as? String == "Model1" && done["version"] as? String == "Model3")
            #expect(done["loaded"] as? Bool == true)
        }
    }

    @Test func aDamagedStoreFailsWith259UnlessToldToQuarantine() throws {
        try withTemporaryDirectory { folder in
            let store = folder.appendingPathComponent("Books.sqlite").path
            try Data(repeating: 0x41, count: 4096).write(to: URL(fileURLWithPath: store))
            try Data("wal".utf8).write(to: URL(fileURLWithPath: store + "-wal"))
            try Data("shm".utf8).write(to: URL(fileURLWithPath: store + "-shm"))
            let before = try Self.files(in: folder)
            let (status, report) = try Self.open(store, ["--migrate"])
            #expect(status == 2)
            #expect((report["error"] as? [String: Any])?["code"] as? Int == 259)
            #expect(try Self.files(in: folder) == before)

            let (recovered, done) = try Self.open(store, ["--recover", "quarantine"])
            #expect(recovered == 0)
            let moved = try #require(done["quarantinedTo"] as? String)
            for suffix in ["", "-wal", "-shm"] {
                #expect(FileManager.default.contents(atPath: moved + suffix) == before["Books.sqlite" + suffix])
            }
            #expect(try Self.open(store).0 == 0, "the fresh store opens as is")
        }
    }

    @Test func aMissingStoreIsNotCreated() throws {
        try withTemporaryDirectory { folder in
            let store = folder.appendingPathComponent("Missing.sqlite").path
            for options in [[], ["--migrate"], ["--recover", "quarantine"]] {
                let (status, report) = try Self.open(store, options)
                #expect(status == 2)
                #expect((report["error"] as? [String: Any])?["code"] as? Int == 260, "\(options)")
            }
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
        }
    }

    /// Runs as an unprivileged user when the tests run as root, whom permissions do not stop.
    @Test func aFolderItCannotWriteFailsWithThePermissionClass() throws {
        try withTemporaryDirectory { folder in
            let locked = folder.appendingPathComponent("locked")
            try FileManager.default.createDirectory(at: locked, withIntermediateDirectories: true)
            let store = try copyStore(Corpus.path(Self.bookStore), into: locked, as: "Books.sqlite")
            try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: store)
            try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: locked.path)
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folder.path)
            defer { try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: locked.path) }
            let before = try Self.files(in: locked)
            let wrapper = getuid() == 0 ? ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"] : []
            let (status, report) = try Self.open(store, ["--migrate"], wrapper: wrapper)
            #expect(status == 2)
            let error = try #require(report["error"] as? [String: Any])
            #expect(error["class"] as? String == "permissionDenied" && error["code"] as? Int == 513, "\(error)")
            #expect(try Self.files(in: locked) == before)
        }
    }
}
