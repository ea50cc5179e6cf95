import Foundation
import GRDB
import ModelArchive
import ModelCompiler
import ModelSchema
import ModelStore
import Testing
import _ModelTestSupport

/// The custom mapping of the Shelf fixture (`Fixtures/Shelf.xcdatamodeld`, `Shelf` → `Shelf 2`),
/// which the custom-mapping kill test and benchmark migrate through: `Author` becomes `Writer`
/// (a transform mapping, as Xcode makes for a renamed entity), `Book.title` is upper-cased, and
/// both sides of the author ↔ books relationship are re-linked through `$manager` (`Book` keeps
/// its name but its `author` now leads to `Writer`, so mapc makes it a transform too).
///
/// The committed `Fixtures/ShelfToShelf2.xcmappingmodel` is this definition written by the
/// library (`.cdm`, then decompiled with the bundle's snapshots, as `modelc decompile` does);
/// ``ShelfMappingTests`` fails when it is stale and says how to rewrite it.
enum ShelfMapping {
    static let bundlePath = Corpus.packagePath("Fixtures/Shelf.xcdatamodeld")
    static let mappingPath = Corpus.packagePath("Fixtures/ShelfToShelf2.xcmappingmodel")

    /// The mapping model, with the entity hashes of the bundle's two versions.
    static func model(_ bundle: ModelBundle) throws -> MappingModel {
        let source = VersionHasher(try #require(bundle.version(named: "Shelf"))).entityHashes()
        let destination = VersionHasher(try #require(bundle.version(named: "Shelf 2"))).entityHashes()
        let instances = "destinationInstancesForEntityMappingNamed:sourceInstances:"
        let writer = EntityMapping(
            name: "AuthorToWriter", type: .transform, sourceEntityName: "Author", destinationEntityName: "Writer",
            sourceEntityVersionHash: source["Author"], destinationEntityVersionHash: destination["Writer"],
            sourceExpression: SourceExpression(entityName: "Author"),
            attributeMappings: [
                PropertyMapping(name: "born", valueExpression: "$source.born"),
                PropertyMapping(name: "name", valueExpression: "$source.name"),
            ],
            relationshipMappings: [
                PropertyMapping(name: "books", valueExpression: #"FUNCTION($manager, "\#(instances)", "BookToBook", $source.books)"#)
            ])
        let book = EntityMapping(
            name: "BookToBook", type: .transform, sourceEntityName: "Book", destinationEntityName: "Book",
            sourceEntityVersionHash: source["Book"], destinationEntityVersionHash: destination["Book"],
            sourceExpression: SourceExpression(entityName: "Book"),
            attributeMappings: [
                PropertyMapping(name: "pages", valueExpression: "$source.pages"),
                PropertyMapping(name: "price", valueExpression: "$source.price"),
                PropertyMapping(name: "title", valueExpression: #"FUNCTION($source.title, "uppercaseString")"#),
            ],
            relationshipMappings: [
                PropertyMapping(name: "author", valueExpression: #"FUNCTION($manager, "\#(instances)", "AuthorToWriter", $source.author)"#)
            ])
        return MappingModel(name: "ShelfToShelf2", path: "ShelfToShelf2.cdm", entityMappings: [writer, book])
    }

    /// Writes the mapping model as `folder/ShelfToShelf2.xcmappingmodel` and returns its path.
    static func write(into folder: URL) throws -> String {
        let bundle = try MigrationTestSupport.bundle(bundlePath)
        let compiled = folder.appendingPathComponent("ShelfToShelf2.cdm")
        try Data(try MappingModelArchiver.archive(try model(bundle))).write(to: compiled)
        let result = try MappingDecompilation.decompile(mappingAt: compiled.path, into: folder.path, bundle: bundle)
        try FileManager.default.removeItem(at: compiled)
        #expect(result.diagnostics.filter { $0.severity == .error } == [])
        return try #require(result.outputPath)
    }

    // MARK: - Stores

    /// Creates a `Shelf` store at `path` with `books` books and one author per ten books (each
    /// book the author's, titles `title <i>`, pages `i % 900`, prices `i/100`, authors born
    /// `i` days after 2001).
    static func makeStore(at path: String, books: Int) throws {
        let bundle = try MigrationTestSupport.bundle(bundlePath)
        try StoreCreator.create(at: path, version: try #require(bundle.version(named: "Shelf")))
        let layout = try DatabaseQueue(path: path).read { db in
            var entities = [String: Int]()
            for row in try Row.fetchAll(db, sql: "SELECT Z_NAME, Z_ENT FROM Z_PRIMARYKEY") {
                let name: String = row["Z_NAME"]
                entities[name] = row["Z_ENT"]
            }
            return entities
        }
        let authors = max(1, books / 10)
        try DatabaseQueue(path: path).write { db in
            let numbers = "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < \(books))"
            try db.execute(sql: """
                \(numbers) INSERT INTO ZAUTHOR (Z_PK, Z_ENT, Z_OPT, ZNAME, ZBORN)
                SELECT i, \(layout["Author"] ?? 1), 1, 'author ' || i, i * 86400.0 FROM n WHERE i <= \(authors)
                """)
            try db.execute(sql: """
                \(numbers) INSERT INTO ZBOOK (Z_PK, Z_ENT, Z_OPT, ZAUTHOR, ZPAGES, ZPRICE, ZTITLE)
                SELECT i, \(layout["Book"] ?? 2), 1, (i - 1) % \(authors) + 1, i % 900, i / 100.0, 'title ' || i FROM n
                """)
            try db.execute(sql: "UPDATE Z_PRIMARYKEY SET Z_MAX = CASE Z_NAME WHEN 'Author' THEN \(authors) ELSE \(books) END")
        }
    }

    // MARK: - What the mapping defines

    /// How the migrated store breaks the mapping's values, if it does: the rows per entity, every
    /// title upper-cased, every book linked to the writer its source author became (names
    /// match), pages and prices carried over. Empty when all hold.
    static func violations(in store: String, books: Int) throws -> [String] {
        try DatabaseQueue(path: store).read { db in
            var problems = [String]()
            let authors = max(1, books / 10)
            let count = { (sql: String) in try Int.fetchOne(db, sql: sql) ?? -1 }
            if try count("SELECT COUNT(*) FROM ZWRITER") != authors { problems.append("writers: \(try count("SELECT COUNT(*) FROM ZWRITER"))") }
            if try count("SELECT COUNT(*) FROM ZBOOK") != books { problems.append("books: \(try count("SELECT COUNT(*) FROM ZBOOK"))") }
            let titles = try count("SELECT COUNT(*) FROM ZBOOK WHERE ZTITLE NOT GLOB 'TITLE [1-9]*'")
            if titles != 0 { problems.append("\(titles) titles not upper-cased from their source") }
            if try count("SELECT COUNT(DISTINCT ZTITLE) FROM ZBOOK") != books { problems.append("titles repeat or are missing") }
            let unlinked = try count("""
                SELECT COUNT(*) FROM ZBOOK b LEFT JOIN ZWRITER w ON w.Z_PK = b.ZAUTHOR
                WHERE w.ZNAME IS NOT 'author ' || ((CAST(SUBSTR(b.ZTITLE, 7) AS INTEGER) - 1) % \(authors) + 1)
                """)
            if unlinked != 0 { problems.append("\(unlinked) books not linked to their author's writer") }
            let values = try count("SELECT COUNT(*) FROM ZBOOK WHERE ZPAGES != CAST(SUBSTR(ZTITLE, 7) AS INTEGER) % 900 OR ABS(ZPRICE * 100 - CAST(SUBSTR(ZTITLE, 7) AS INTEGER)) > 0.001")
            if values != 0 { problems.append("\(values) books whose pages or price changed") }
            let born = try count("SELECT COUNT(*) FROM ZWRITER WHERE ZBORN IS NOT CAST(SUBSTR(ZNAME, 8) AS INTEGER) * 86400.0")
            if born != 0 { problems.append("\(born) writers whose birth date changed") }
            return problems
        }
    }
}
