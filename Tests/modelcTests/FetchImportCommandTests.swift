import Foundation
import GRDB
import ModelCompiler
import ModelSchema
import ModelStore
import Testing
import _ModelTestSupport

/// `fetch --json` then `import` then `fetch --json` on every corpus store with a known version
/// prints the same text, ids aside: every value to the bit (dates, doubles, binary), every link,
/// ordered to-manys in their order; and the new store is the version it was made for. A bad
/// file is refused with its place and the store left alone.
@Suite(Corpus.required)
struct FetchImportCommandTests {
    /// Every object of the store, by root entity (a root's fetch includes its subentities').
    static func fetchAll(_ store: String, _ model: String, _ roots: [String]) throws -> [[String: Any]] {
        try roots.flatMap { entity -> [[String: Any]] in
            (try fetchText(store, model, entity).json()["objects"] as? [[String: Any]]) ?? []
        }
    }

    /// One `fetch --json` of `entity`, expected to succeed.
    static func fetchText(_ store: String, _ model: String, _ entity: String) throws -> Modelc.Run {
        let run = try Modelc.run(["fetch", store, "--model", model, "--entity", entity, "--json"])
        #expect(run.status == 0, "\(entity): \(run.standardOutput)")
        return run
    }

    /// The objects of a `fetch --json` output as their printed text, by id (mapped through
    /// `ids`), with the lines of each unordered to-many sorted: those come in primary-key
    /// order, and an import need not give its objects the keys they had.
    static func objectTexts(_ output: String, ids: [String: String], isOrdered: (String, String) -> Bool) -> [String: String] {
        var objects = [String: String]()
        var lines = [String](), entity = "", id = "", list: (key: String, items: [String])?
        for line in output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            var line = line
            if let range = line.range(of: #"x-coredata://[^"]*"#, options: .regularExpression) {
                let original = String(line[range])
                line.replaceSubrange(range, with: ids[original] ?? original)
            }
            if line == "    {" { lines = [] }
            if line.hasPrefix("      \"entity\" : ") { entity = line }
            if line.hasPrefix("      \"id\" : ") { id = line }
            if var open = list {
                guard line.hasPrefix("        ]") else {
                    if !line.isEmpty { open.items.append(line.hasSuffix(",") ? String(line.dropLast()) : line) }
                    list = open
                    continue
                }
                let items = isOrdered(entity, open.key) ? open.items : open.items.sorted()
                lines += items.enumerated().map { $0.offset < items.count - 1 ? $0.element + "," : $0.element }
                list = nil
            } else if line.hasPrefix("        \""), line.hasSuffix(" : [") {
                list = (String(line.dropFirst(9).prefix { $0 != "\"" }), [])
            }
            // The last object has no comma after it.
            lines.append(line == "    }," ? "    }" : line)
            if line == "    }" || line == "    }," {
                objects[id] = lines.joined(separator: "\n")
                lines = []
            }
        }
        return objects
    }

    /// The values of every date, double, float and decimal attribute (stored as reals) of every
    /// row, read with SQL: entity name → primary key → attribute → column value.
    static func reals(_ store: String, _ version: ModelVersion) throws -> [String: [Int64: [String: DatabaseValue]]] {
        let layout = StoreLayout(version)
        let byName = Dictionary(version.entities.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        let queue = try DatabaseQueue(path: store)
        defer { try? queue.close() }
        var result = [String: [Int64: [String: DatabaseValue]]]()
        for entity in version.entities {
            guard let table = layout.entity(named: entity.name) else { continue }
            var attributes = [Attribute](), name: String? = entity.name
            while let current = name.flatMap({ byName[$0] }) {
                attributes += current.attributes.filter { [.date, .double, .float, .decimal].contains($0.type) && !$0.isTransient && !$0.isDerived }
                name = current.parentEntityName
            }
            let columns = attributes.compactMap { attribute in table.columns[attribute.name].map { (attribute.name, $0) } }
            guard !columns.isEmpty else { continue }
            let rows = try queue.read { db in
                try Row.fetchAll(db, sql: "SELECT Z_PK, \(columns.map(\.1).joined(separator: ", ")) FROM \(table.table) WHERE Z_ENT = \(table.number)")
            }
            for row in rows {
                let key: Int64 = row[0]
                result[entity.name, default: [:]][key] = Dictionary(uniqueKeysWithValues: columns.enumerated().map { ($0.element.0, row[$0.offset + 1] as DatabaseValue) })
            }
        }
        return result
    }

    /// Whether two column values are the same bits (a real's bit pattern, not its `==`).
    static func sameBits(_ one: DatabaseValue, _ other: DatabaseValue) -> Bool {
        if case .double(let a) = one.storage, case .double(let b) = other.storage { return a.bitPattern == b.bitPattern }
        return one == other
    }

    /// Every corpus store whose model is known: all of them come back the same.
    static let stores = CorpusStores.known + [CorpusStores.recipes] + CorpusStores.translationCatalogStores

    @Test(arguments: stores)
    func fetchImportFetchPrintsTheSameText(_ known: KnownStore) throws {
        let bundle = try #require(ModelSources.reader.read(at: Corpus.path(known.model)).bundle)
        let version = try #require(bundle.version(named: known.version))
        let model = Corpus.path(known.model)
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
        let originals = try roots.map { try Self.fetchText(source, model, $0).standardOutput }
        // The objects go into the file as printed, so that no JSON parser in between rounds them.
        let objects = originals.map { output -> String in
            guard let start = output.range(of: "\"objects\" : ["), let end = output.range(of: "]", options: .backwards) else { return "" }
            return String(output[start.upperBound..<end.lowerBound])
        }.filter { !$0.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty }
        // A store with no rows prints no objects and has nothing more to compare; one with rows must print them.
        #expect(objects.count == roots.count, "\(roots.count) hierarchies with rows printed \(objects.count) lists of objects")
        guard !objects.isEmpty else { return }
        let file = folder.appendingPathComponent("objects.json")
        try Data("{\"objects\": [\(objects.joined(separator: ","))]}".utf8).write(to: file)
        let target = folder.appendingPathComponent("imported.sqlite").path
        // Batches of three, so that links of real stores (required ones too) cross batches.
        let run = try Modelc.run(["import", target, "--model", model, file.path, "--model-version", known.version, "--json", "--batch-size", "3"])
        #expect(run.status == 0, "\(run.standardOutput)\(run.standardError)")
        let ids = try run.json()["ids"] as? [String: String] ?? [:]
        let check = try Modelc.run(["store", "info", target, "--model", model, "--json"])
        #expect((try check.json()["matchedVersion"] as? String) == known.version)
        let entities = Dictionary(version.entities.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        func isOrdered(_ entityLine: String, _ key: String) -> Bool {
            var name: String? = entityLine.split(separator: "\"").dropFirst(3).first.map(String.init)
            while let current = name.flatMap({ entities[$0] }) {
                if let relationship = current.relationships.first(where: { $0.name == key }) { return relationship.isOrdered }
                name = current.parentEntityName
            }
            return false
        }
        // The reals the import wrote are those Core Data wrote, bit for bit.
        let (before, after) = (try Self.reals(source, version), try Self.reals(target, version))
        var changed = [String]()
        for (original, copy) in ids {
            let (from, to) = (original.split(separator: "/"), copy.split(separator: "/"))
            guard let entity = from.dropLast().last.map(String.init), let key = Int64(from.last?.dropFirst() ?? ""), let newKey = Int64(to.last?.dropFirst() ?? ""),
                let values = before[entity]?[key]
            else { continue }
            let copied = after[entity]?[newKey] ?? [:]
            for (attribute, value) in values where !Self.sameBits(value, copied[attribute] ?? .null) {
                changed.append("\(original).\(attribute): \(value) stored, \(copied[attribute] ?? .null) imported")
            }
        }
        #expect(changed.isEmpty, "\(changed.count) values changed: \(changed.sorted().prefix(3))")
        for (root, original) in zip(roots, originals) {
            let imported = try Self.fetchText(target, model, root).standardOutput
            let before = Self.objectTexts(original, ids: ids, isOrdered: isOrdered)
            let after = Self.objectTexts(imported, ids: [:], isOrdered: isOrdered)
            #expect(before.count == after.count, "\(root): \(before.count) objects before, \(after.count) after")
            for (id, text) in before.sorted(by: { $0.key < $1.key }) where after[id] != text {
                Issue.record("\(root) \(id) differs:\n\(text)\n---\n\(after[id] ?? "missing")")
                break
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
