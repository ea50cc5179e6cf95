import Foundation
import GRDB
import ModelSchema
import ModelStore
import ModelXML
import Testing
import _ModelTestSupport

/// `fetch` then `import` then `fetch` on every corpus store with a known version gives back the
/// same objects, attribute for attribute and link for link (ids mapped), and the new store is
/// the version it was made for; a bad file is refused with its place and the store left alone.
@Suite(Corpus.required)
struct FetchImportCommandTests {
    /// Every object of the store, by root entity (a root's fetch includes its subentities').
    static func fetchAll(_ store: String, _ model: String, _ roots: [String]) throws -> [[String: Any]] {
        try roots.flatMap { entity -> [[String: Any]] in
            let run = try Modelc.run(["fetch", store, "--model", model, "--entity", entity, "--json"])
            #expect(run.status == 0, "\(entity): \(run.standardOutput)")
            return (try run.json()["objects"] as? [[String: Any]]) ?? []
        }
    }

    @Test(arguments: CorpusStores.known)
    func fetchImportFetchGivesTheSameObjects(_ known: KnownStore) throws {
        let bundle = try #require(ModelReader().read(at: Corpus.path(known.model)).bundle)
        let version = try #require(bundle.version(named: known.version))
        let folder = try Modelc.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let source = try copyStore(Corpus.path(known.store), into: folder)
        // Only the hierarchies with rows: each fetch is a process that reads the whole model.
        let layout = StoreLayout(version)
        let queue = try DatabaseQueue(path: source)
        let roots = try queue.read { db in
            try version.entities.filter { $0.parentEntityName == nil }.map(\.name).sorted().filter { root in
                guard let table = layout.entity(named: root)?.table else { return false }
                return try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(table)") ?? 0 > 0
            }
        }
        try queue.close()
        let original = try Self.fetchAll(source, Corpus.path(known.model), roots)
        guard !original.isEmpty else { return }
        let file = folder.appendingPathComponent("objects.json")
        try JSONSerialization.data(withJSONObject: ["objects": original]).write(to: file)
        let target = folder.appendingPathComponent("imported.sqlite").path
        // Batches of three, so that links of real stores (required ones too) cross batches.
        let run = try Modelc.run(["import", target, "--model", Corpus.path(known.model), file.path, "--model-version", known.version, "--json", "--batch-size", "3"])
        #expect(run.status == 0, "\(run.standardOutput)\(run.standardError)")
        let ids = try run.json()["ids"] as? [String: String] ?? [:]
        #expect(ids.count == original.count)
        let check = try Modelc.run(["store", "info", target, "--model", Corpus.path(known.model), "--json"])
        #expect((try check.json()["matchedVersion"] as? String) == known.version)
        let imported = try Self.fetchAll(target, Corpus.path(known.model), roots)
        let byID = Dictionary(imported.map { ($0["id"] as? String ?? "", $0) }, uniquingKeysWith: { first, _ in first })
        for object in original {
            let id = object["id"] as? String ?? ""
            guard let copy = ids[id].flatMap({ byID[$0] }) else {
                Issue.record("\(id) was not imported")
                continue
            }
            #expect(copy["entity"] as? String == object["entity"] as? String)
            #expect(NSDictionary(dictionary: copy["attributes"] as? [String: Any] ?? [:]) == NSDictionary(dictionary: object["attributes"] as? [String: Any] ?? [:]), "\(id)")
            let mapped = (object["relationships"] as? [String: Any] ?? [:]).mapValues { value -> Any in
                if let link = value as? String { return ids[link] ?? "?" }
                if let links = value as? [String] { return links.map { ids[$0] ?? "?" } }
                return value
            }
            let copied = (copy["relationships"] as? [String: Any] ?? [:]).mapValues { value -> Any in
                (value as? [String]).map { $0 as Any } ?? value
            }
            for (key, value) in mapped {
                let mine = copied[key]
                if let list = value as? [String], let other = mine as? [String] {
                    #expect(Set(list) == Set(other), "\(id).\(key)")
                } else {
                    #expect("\(value)" == "\(mine ?? "nil")", "\(id).\(key)")
                }
            }
        }
    }

    @Test func aBadFileIsRefusedWithItsPlaceAndLeavesNoStore() throws {
        let folder = try Modelc.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("bad.json")
        let model = Corpus.packagePath("Models/Library.xcdatamodeld")
        let target = folder.appendingPathComponent("new.sqlite").path
        for (objects, place, code) in [
            ("[{\"id\": \"a\", \"entity\": \"Nope\"}]", "objects[0].entity", "1550"),
            ("[{\"id\": \"a\", \"entity\": \"Topic\", \"attributes\": {\"name\": 3}}]", "objects[0].attributes.name", "1550"),
            ("[{\"id\": \"a\", \"entity\": \"Review\", \"relationships\": {\"publication\": \"b\"}}]", "objects[0].relationships.publication", "133000"),
            ("[{\"id\": \"a\", \"entity\": \"Review\", \"attributes\": {\"rating\": 2}}]", "objects[0].publication", "1570"),
        ] {
            try Data("{\"objects\": \(objects)}".utf8).write(to: file)
            let run = try Modelc.run(["import", target, "--model", model, file.path, "--json"])
            #expect(run.status == 1)
            let error = try run.json()["error"] as? [String: Any]
            #expect((error?["message"] as? String)?.hasPrefix(place) == true, "\(error ?? [:])")
            #expect(error?["code"] as? String == code)
            #expect(!FileManager.default.fileExists(atPath: target))
        }
    }
}
