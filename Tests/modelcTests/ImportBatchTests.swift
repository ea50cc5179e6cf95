import Foundation
import Testing
import _ModelTestSupport

#if canImport(Glibc)
import Glibc
#endif

/// `modelc import` saves a large file in batches: links across batches (a required to-one whose
/// target comes later in the file, an ordered to-many, a many-to-many) come back whole through
/// `fetch --json`, and a failure in the last batch leaves the store, or the folder of a store
/// to be made, byte for byte as it was.
@Suite
struct ImportBatchTests {
    static let model = Corpus.packagePath("Models/Library.xcdatamodeld")

    /// A Library 3 file of `books` books with two reviews each (listed before the books they
    /// need), an author per ten books whose ordered `publications` run in reverse file order,
    /// and twenty topics each book shares with others; `badLast` adds a review rated 9 (the
    /// model allows 0–5) at the end.
    static func objects(books: Int, badLast: Bool = false) -> [[String: Any]] {
        let authors = max(1, books / 10), topics = 20
        func book(_ i: Int) -> String { "book\(i)" }
        var reviews = [[String: Any]](), bookObjects = [[String: Any]]()
        for i in 0..<books {
            let ids = ["review\(i)a", "review\(i)b"]
            for (n, id) in ids.enumerated() {
                reviews.append(["id": id, "entity": "Review", "attributes": ["rating": (i + n) % 6, "text": "r\(i)"], "relationships": ["publication": book(i)]])
            }
            bookObjects.append([
                "id": book(i), "entity": "Book", "attributes": ["title": "Title \(i)", "isbn": "isbn-\(i)", "pages": i],
                "relationships": ["author": "author\(i % authors)", "reviews": ids, "topics": ["topic\(i % topics)", "topic\((i * 7 + 3) % topics)"]],
            ])
        }
        let authorObjects = (0..<authors).map { a -> [String: Any] in
            let publications = stride(from: a, to: books, by: authors).reversed().map(book)
            return ["id": "author\(a)", "entity": "Author", "attributes": ["name": "Author \(a)"], "relationships": ["publications": publications]]
        }
        let topicObjects = (0..<topics).map { t -> [String: Any] in
            let publications = (0..<books).filter { $0 % topics == t || ($0 * 7 + 3) % topics == t }.map(book)
            return ["id": "topic\(t)", "entity": "Topic", "attributes": ["name": "topic \(t)"], "relationships": ["publications": publications]]
        }
        var all = reviews + bookObjects + authorObjects + topicObjects
        if badLast {
            all.append(["id": "bad", "entity": "Review", "attributes": ["rating": 9], "relationships": ["publication": book(0)]])
        }
        return all
    }

    static func write(_ objects: [[String: Any]], to file: URL) throws {
        try JSONSerialization.data(withJSONObject: ["objects": objects]).write(to: file)
    }

    /// Every file of `folder` and its bytes.
    static func snapshot(_ folder: URL) throws -> [String: Data] {
        var files = [String: Data]()
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) {
            files[name] = try Data(contentsOf: folder.appendingPathComponent(name))
        }
        return files
    }

    @Test func aLargeFileComesBackWholeAcrossBatches() throws {
        let folder = try Modelc.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let original = Self.objects(books: 7_000)
        #expect(original.count > 20_000)
        let file = folder.appendingPathComponent("objects.json")
        try Self.write(original, to: file)
        let target = folder.appendingPathComponent("imported.sqlite").path
        let run = try Modelc.run(["import", target, "--model", Self.model, file.path, "--json"])
        #expect(run.status == 0, "\(run.standardOutput)\(run.standardError)")
        let ids = try run.json()["ids"] as? [String: String] ?? [:]
        #expect(ids.count == original.count)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == ["imported.sqlite", "objects.json"])
        let imported = try FetchImportCommandTests.fetchAll(target, Self.model, ["Author", "Publication", "Review", "Topic"])
        #expect(imported.count == original.count)
        let byID = Dictionary(imported.map { ($0["id"] as? String ?? "", $0) }, uniquingKeysWith: { first, _ in first })
        var mismatches = [String]()
        for object in original {
            let id = object["id"] as? String ?? ""
            guard let copy = ids[id].flatMap({ byID[$0] }) else {
                mismatches.append("\(id) missing")
                continue
            }
            let attributes = copy["attributes"] as? [String: Any] ?? [:]
            for (key, value) in object["attributes"] as? [String: Any] ?? [:] where "\(value)" != "\(attributes[key] ?? "nil")" {
                mismatches.append("\(id).\(key)")
            }
            let links = copy["relationships"] as? [String: Any] ?? [:]
            for (key, value) in object["relationships"] as? [String: Any] ?? [:] {
                if let list = value as? [String] {
                    let mapped = list.map { ids[$0] ?? "?" }, other = links[key] as? [String] ?? []
                    // Author.publications is ordered: its order must survive.
                    if key == "publications" && object["entity"] as? String == "Author" ? mapped != other : Set(mapped) != Set(other) {
                        mismatches.append("\(id).\(key)")
                    }
                } else if ids[value as? String ?? ""] != links[key] as? String {
                    mismatches.append("\(id).\(key)")
                }
            }
        }
        #expect(mismatches.count == 0, "first mismatches: \(Array(mismatches.prefix(10)))")
    }

    @Test func aFailureInTheLastBatchLeavesTheStoreByteForByte() throws {
        let folder = try Modelc.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("objects.json")
        let target = folder.appendingPathComponent("store.sqlite").path
        try Self.write(Self.objects(books: 10), to: file)
        #expect(try Modelc.run(["import", target, "--model", Self.model, file.path]).status == 0)
        let bad = Self.objects(books: 1_000, badLast: true).map { object -> [String: Any] in
            // Other ids and unique values than the first file's.
            guard let data = try? JSONSerialization.data(withJSONObject: object), let text = String(data: data, encoding: .utf8) else { return object }
            let renamed = text.replacingOccurrences(of: "isbn-", with: "isbn2-").replacingOccurrences(of: "topic ", with: "topic2 ")
            return (try? JSONSerialization.jsonObject(with: Data(renamed.utf8)) as? [String: Any]) ?? object
        }
        for existing in [true, false] {
            if !existing { try FileManager.default.removeItem(atPath: target) }
            try Self.write(bad, to: file)
            let before = try Self.snapshot(folder)
            let run = try Modelc.run(["import", target, "--model", Self.model, file.path, "--batch-size", "500", "--json"])
            #expect(run.status == 1)
            let error = try run.json()["error"] as? [String: Any]
            #expect((error?["message"] as? String)?.hasPrefix("objects[\(bad.count - 1)].rating") == true, "\(error ?? [:])")
            #expect(error?["code"] as? String == "1610")
            #expect(try Self.snapshot(folder) == before, "existing: \(existing)")
        }
    }

    /// `objects` with other ids and unique values, so that a file can be imported into a store
    /// that holds it already.
    static func renamed(_ objects: [[String: Any]], _ tag: String) -> [[String: Any]] {
        objects.map { object in
            guard let data = try? JSONSerialization.data(withJSONObject: object), let text = String(data: data, encoding: .utf8) else { return object }
            let renamed = text.replacingOccurrences(of: "isbn-", with: "isbn\(tag)-").replacingOccurrences(of: "topic ", with: "topic\(tag) ")
            return (try? JSONSerialization.jsonObject(with: Data(renamed.utf8)) as? [String: Any]) ?? object
        }
    }

    /// The number of publications of the store at `path`, and its integrity check.
    static func publications(_ path: String) throws -> (count: Int, integrity: String) {
        let run = try Modelc.run(["store", "check", path, "--model", model, "--json"])
        let count = try FetchImportCommandTests.fetchAll(path, model, ["Publication"]).count
        return (count, run.status == 0 ? "ok" : run.standardOutput)
    }

    /// `modelc import` killed at random points of its one transaction: the store is always
    /// whole, with none or all of the file's objects (SQLite undoes the killed transaction when
    /// the store is next opened), and nothing is left beside it. Killed while it fills a store
    /// that did not exist, it leaves its staging file, which the next run holding the store's
    /// lock, once the store exists, removes and lists.
    @Test func aKilledImportLeavesTheStoreWholeAndItsCopyIsRemovedNextTime() throws {
        let folder = try Modelc.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let base = folder.appendingPathComponent("base.sqlite").path
        let small = folder.appendingPathComponent("small.json"), big = folder.appendingPathComponent("big.json")
        try Self.write(Self.objects(books: 10), to: small)
        #expect(try Modelc.run(["import", base, "--model", Self.model, small.path]).status == 0)
        try Self.write(Self.renamed(Self.objects(books: 3_000), "2"), to: big)
        var generator = TestSeed.generator(for: "aKilledImport")
        var outcomes = [Int: Int]()
        func startImport(into store: String) throws -> Process {
            let process = Process()
            process.executableURL = Modelc.executable
            process.arguments = ["import", store, "--model", Self.model, big.path, "--batch-size", "500"]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try Spawn.run(process)
            return process
        }
        for trial in 1...6 {
            let store = folder.appendingPathComponent("trial-\(trial).sqlite").path
            try FileManager.default.copyItem(atPath: base, toPath: store)
            let process = try startImport(into: store)
            usleep(UInt32.random(in: 200_000...1_500_000, using: &generator))
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            let (count, integrity) = try Self.publications(store)
            #expect(integrity == "ok", "trial \(trial)")
            #expect(count == 10 || count == 3_010, "trial \(trial): \(count) publications")
            #expect(try Self.copies(beside: store).isEmpty, "trial \(trial)")
            outcomes[count, default: 0] += 1
        }
        // The kills mattered: at least one landed in the middle of the import.
        #expect(outcomes[10, default: 0] >= 1, "\(outcomes)")

        let fresh = folder.appendingPathComponent("fresh.sqlite").path
        let process = try startImport(into: fresh)
        let start = Date()
        while process.isRunning, Date().timeIntervalSince(start) < 60, try Self.copies(beside: fresh).isEmpty { usleep(1_000) }
        usleep(300_000)
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        let left = try Self.copies(beside: fresh)
        #expect(!left.isEmpty && !FileManager.default.fileExists(atPath: fresh))
        #expect(try Modelc.run(["import", fresh, "--model", Self.model, small.path]).status == 0)
        let next = folder.appendingPathComponent("next.json")
        try Self.write(Self.renamed(Self.objects(books: 1), "n"), to: next)
        let run = try Modelc.run(["import", fresh, "--model", Self.model, next.path, "--json"])
        #expect(run.status == 0, "\(run.standardOutput)\(run.standardError)")
        let removed = (try run.json()["removedLeftovers"] as? [String] ?? []).map { URL(fileURLWithPath: $0).lastPathComponent }
        #expect(removed == left)
        #expect(try Self.copies(beside: fresh).isEmpty)
    }

    /// The names of the `.modelc-` files beside `store`.
    static func copies(beside store: String) throws -> [String] {
        let url = URL(fileURLWithPath: store)
        return try FileManager.default.contentsOfDirectory(atPath: url.deletingLastPathComponent().path)
            .filter { $0.hasPrefix(url.lastPathComponent + ".modelc-") }.sorted()
    }

    /// The file's objects are found without parsing the whole file: strings holding brackets
    /// and escaped quotes, and other members of the top level, do not confuse it, and a file
    /// cut short or an object that is not JSON is refused with its place.
    @Test func objectsAreFoundInTheFileWithoutParsingItWhole() throws {
        let folder = try Modelc.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("objects.json")
        let target = folder.appendingPathComponent("store.sqlite").path
        for (text, message) in [
            (#"{"objects": [{"id": "a", "entity": "Topic", "attributes": {"name": "x"}}"#, "the file is not a JSON object"),
            (#"{"objects": [{"id": "a", "entity": "Topic", "attributes": {"name": tru}}]}"#, "objects[0] is not valid JSON"),
            (#"{"objects": [{"id": "a", "entity": "Topic"}], "other": [1, }"#, "the file is not a JSON object"),
        ] {
            try Data(text.utf8).write(to: file)
            let run = try Modelc.run(["import", target, "--model", Self.model, file.path, "--json"])
            #expect(run.status == 1)
            let error = try run.json()["error"] as? [String: Any]
            #expect((error?["message"] as? String)?.hasPrefix(message) == true, "\(error ?? [:])")
            #expect(error?["code"] as? String == "1550")
            #expect(!FileManager.default.fileExists(atPath: target))
        }
        let name = #"a \"]}\" [{ b"#
        try Data(#"{"before": {"x": ["]", "}"]}, "objects": [{"id": "a", "entity": "Topic", "attributes": {"name": "\#(name)"}}], "after": 1}"#.utf8).write(to: file)
        #expect(try Modelc.run(["import", target, "--model", Self.model, file.path]).status == 0)
        let fetched = try FetchImportCommandTests.fetchAll(target, Self.model, ["Topic"])
        #expect((fetched.first?["attributes"] as? [String: Any])?["name"] as? String == #"a "]}" [{ b"#)
    }

    /// Objects that need each other (a cycle of required to-ones) share a batch, and a required
    /// link given only on its other side (the file lists a publication's reviews, not each
    /// review's publication) is set when the review is inserted, as one save would set it.
    @Test func aCycleSharesABatchAndALinkGivenOnItsOtherSideIsSet() throws {
        let folder = try Modelc.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let bundle = folder.appendingPathComponent("Pairs.xcdatamodeld/Pairs.xcdatamodel")
        try FileManager.default.createDirectory(at: bundle, withIntermediateDirectories: true)
        try Data("""
            <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
            <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" lastSavedToolsVersion="22758" systemVersion="23E224" minimumToolsVersion="Automatic" sourceLanguage="Swift" userDefinedModelVersionIdentifier="">
                <entity name="Left" representedClassName="Left" syncable="YES" codeGenerationType="class">
                    <attribute name="name" attributeType="String"/>
                    <relationship name="right" maxCount="1" deletionRule="Nullify" destinationEntity="Right" inverseName="left" inverseEntity="Right"/>
                </entity>
                <entity name="Right" representedClassName="Right" syncable="YES" codeGenerationType="class">
                    <attribute name="name" attributeType="String"/>
                    <relationship name="left" maxCount="1" deletionRule="Nullify" destinationEntity="Left" inverseName="right" inverseEntity="Left"/>
                </entity>
            </model>
            """.utf8).write(to: bundle.appendingPathComponent("contents"))
        let model = bundle.deletingLastPathComponent().path
        let pairs = 50
        var objects = [[String: Any]]()
        for i in 0..<pairs {
            objects.append(["id": "l\(i)", "entity": "Left", "attributes": ["name": "l\(i)"], "relationships": ["right": "r\(i)"]])
        }
        for i in 0..<pairs {
            objects.append(["id": "r\(i)", "entity": "Right", "attributes": ["name": "r\(i)"], "relationships": ["left": "l\(i)"]])
        }
        let file = folder.appendingPathComponent("pairs.json")
        try Self.write(objects, to: file)
        let pairsStore = folder.appendingPathComponent("pairs.sqlite").path
        let run = try Modelc.run(["import", pairsStore, "--model", model, file.path, "--batch-size", "7", "--json"])
        #expect(run.status == 0, "\(run.standardOutput)")
        let ids = try run.json()["ids"] as? [String: String] ?? [:]
        let lefts = try FetchImportCommandTests.fetchAll(pairsStore, model, ["Left"])
        #expect(lefts.count == pairs)
        #expect(lefts.allSatisfy { left in
            let name = (left["attributes"] as? [String: Any])?["name"] as? String ?? ""
            return (left["relationships"] as? [String: Any])?["right"] as? String == ids["r" + name.dropFirst()]
        })

        let oneSided: [[String: Any]] = (0..<20).map { ["id": "review\($0)", "entity": "Review", "attributes": ["rating": 3]] } + [
            ["id": "book", "entity": "Book", "attributes": ["title": "T", "isbn": "1"], "relationships": ["reviews": (0..<20).map { "review\($0)" }]]
        ]
        try Self.write(oneSided, to: file)
        let libraryStore = folder.appendingPathComponent("library.sqlite").path
        let library = try Modelc.run(["import", libraryStore, "--model", Self.model, file.path, "--batch-size", "3"])
        #expect(library.status == 0, "\(library.standardOutput)")
        let reviews = try FetchImportCommandTests.fetchAll(libraryStore, Self.model, ["Review"])
        #expect(reviews.count == 20)
        #expect(reviews.allSatisfy { ($0["relationships"] as? [String: Any])?["publication"] is String })
    }
}
