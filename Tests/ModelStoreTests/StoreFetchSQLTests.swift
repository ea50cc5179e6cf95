import Foundation
import GRDB
import ModelExpression
import ModelSchema
import ModelStore
import Testing

/// The SQL a fetch's predicate becomes on the Library model (Documentation/Predicates.md), and
/// that it runs on a store of that model; beside each group of statements, the rows they select
/// on a small store (``LibraryRows``), so that a change of the SQL's meaning fails too.
struct StoreFetchSQLTests {
    let version: ModelVersion
    let layout: StoreLayout

    init() throws {
        version = try SafetyTests.libraryVersion()
        layout = StoreLayout(version)
    }

    /// The `WHERE` clause of a fetch of `entity` after its entity test; the statement is run on
    /// an in-memory store of the model to show SQLite accepts it.
    func condition(_ entity: String, _ format: String, _ arguments: EvaluatedValue...) throws -> String {
        var fetch = StoreFetch(entity: entity)
        fetch.predicate = try PredicateParser.predicate(format, arguments: arguments)
        let statement = try fetch.count(layout: layout, entities: EntityHierarchy(version))
        let queue = try StoreCreator.createInMemory(version: version)
        _ = try queue.read { try Int.fetchOne($0, sql: statement.sql, arguments: statement.arguments) }
        let clause = try #require(statement.sql.range(of: " WHERE "))
        var rest = statement.sql[clause.upperBound...]
        if rest.hasPrefix("t0.Z_ENT IN ("), let test = rest.range(of: ") AND ") { rest = rest[test.upperBound...] }
        return String(rest)
    }

    @Test func theEntityTestIsLeftOutWhenTheWholeTableMatches() throws {
        let entities = EntityHierarchy(version)
        #expect(try StoreFetch(entity: "Author").count(layout: layout, entities: entities).sql == "SELECT COUNT(*) FROM ZAUTHOR t0")
        #expect(try StoreFetch(entity: "Publication").count(layout: layout, entities: entities).sql == "SELECT COUNT(*) FROM ZPUBLICATION t0")
        #expect(try StoreFetch(entity: "Book").count(layout: layout, entities: entities).sql.hasSuffix("FROM ZPUBLICATION t0 WHERE t0.Z_ENT IN (\(layout.entity(named: "Book")!.number))"))
        var publication = StoreFetch(entity: "Publication")
        publication.includesSubentities = false
        #expect(try publication.count(layout: layout, entities: entities).sql.contains("WHERE t0.Z_ENT IN ("))
    }

    /// What those counts mean on rows (``LibraryRows``): every author; every publication, Books
    /// and Magazines, the abstract Publication having none of its own; Books or Magazines only.
    @Test func theCountsCountTheEntitysRowsAndItsSubentities() throws {
        try LibraryRows.with { (rows) throws in
            #expect(try rows.count("Author") == 6)
            #expect(try rows.count("Publication") == 8)
            #expect(try rows.count("Book") == 5)
            #expect(try rows.count("Magazine") == 3)
            #expect(try rows.count("Publication", includesSubentities: false) == 0)
        }
    }

    /// `NSCoreDataMatches` fails the statement, naming the pattern, where the regular-expression
    /// engine gives up (as the evaluator throws), and never answers 0 for it; a pattern it can
    /// answer gives 1 or 0.
    @Test func aMatchTheEngineGivesUpOnFailsTheStatement() throws {
        let queue = try DatabaseQueue(configuration: CoreDataFunctions.registering(in: Configuration()))
        let pattern = "((a+)+$)|(.*!)"
        let answer = { (text: String) in
            try queue.read { try Int.fetchOne($0, sql: "SELECT NSCoreDataMatches(?, ?, 0)", arguments: [text, pattern]) }
        }
        #expect(try answer(String(repeating: "a", count: 12) + "!") == 1)
        #expect(try answer(String(repeating: "a", count: 12) + "?") == 0)
        let error = try #require(throws: DatabaseError.self) { try answer(String(repeating: "a", count: 40) + "!") }
        #expect(error.message?.contains(pattern) == true && error.message?.contains("gave up") == true, "\(error)")
    }

    @Test func attributesAndToOnesAreColumnsAndJoins() throws {
        #expect(try condition("Author", "born != nil AND name ==[c] %@", .string("a"))
            == "(t0.ZBORN IS NOT NULL AND NSCoreDataStringCompare(t0.ZNAME, ?1, 1) = 0)")
        #expect(try condition("Publication", "author.name CONTAINS[cd] 'x' AND author.email LIKE 'a*' AND author.born > %@", .date(Date(timeIntervalSinceReferenceDate: 5)))
            == "(NSCoreDataStringSearch(t1.ZNAME, ?1, 129, 99) AND NSCoreDataLike(t1.ZEMAIL, ?2, 0) AND t1.ZBORN > ?3)")
        var fetch = StoreFetch(entity: "Review")
        fetch.predicate = try PredicateParser.predicate("publication.author.name BEGINSWITH 'a'")
        fetch.sortKeys = [SortKey("publication.title", ascending: false, comparison: .localizedStandard)]
        #expect(try fetch.select(["t0.Z_PK"], layout: layout, entities: EntityHierarchy(version)).sql == """
            SELECT t0.Z_PK FROM ZREVIEW t0 LEFT OUTER JOIN ZPUBLICATION t1 ON t1.Z_PK = t0.ZPUBLICATION \
            LEFT OUTER JOIN ZAUTHOR t2 ON t2.Z_PK = t1.ZAUTHOR WHERE NSCoreDataStringSearch(t2.ZNAME, ?1, 0, 8) \
            ORDER BY t1.ZTITLE COLLATE NSCollateFinderlike DESC, t0.Z_PK
            """)
        #expect(try condition("Review", "publication.author.name BEGINSWITH 'a' OR rating BETWEEN {1, 3}")
            == "(NSCoreDataStringSearch(t2.ZNAME, ?1, 0, 8) OR t0.ZRATING BETWEEN ?2 AND ?3)")
        #expect(try condition("Publication", "entity.name IN {'Book', 'Magazine'} AND NOT (title IN {})") == "(t0.Z_ENT IN (3, 4) AND (NOT 0))")
    }

    /// The rows those predicates select (``LibraryRows``), worked out from the inserted values.
    @Test func attributesAndToOnesSelectTheRowsTheyMean() throws {
        try LibraryRows.with { (rows) throws in
            // Ann is born and named "ann" whatever the case; "ann" has no birth date.
            #expect(try rows.matches("Author", "born != nil AND name ==[c] %@", .string("ANN")) == [1])
            #expect(try rows.matches("Author", "name == 'ann'") == [2])
            // FÉLIX's publications: Max's email fails the LIKE, Rex was born before 5, no x in Ann.
            #expect(try rows.matches(
                "Publication", "author.name CONTAINS[cd] 'x' AND author.email LIKE 'a*' AND author.born > %@",
                .date(Date(timeIntervalSinceReferenceDate: 5))) == [3, 4])
            // Ratings 2 and 1, and the review of ann's magazine (BEGINSWITH minds case: not Ann's).
            #expect(try rows.matches("Review", "publication.author.name BEGINSWITH 'a' OR rating BETWEEN {1, 3}") == [3, 6, 8])
            #expect(try rows.matches("Publication", "entity.name IN {'Book', 'Magazine'} AND NOT (title IN {})") == Set(Int64(1)...8))
            #expect(try rows.matches("Publication", "entity.name == 'Magazine'") == [3, 5, 8])
            // By title in Finder's order, descending ("Issue 10" before "Issue 9"), then by key.
            let byTitle = SortKey("publication.title", ascending: false, comparison: .localizedStandard)
            #expect(try rows.keys("Review", "rating >= 0", sortedBy: [byTitle]) == [5, 4, 3, 6, 7, 1, 2, 8])
        }
    }

    @Test func toManysAreCorrelatedSubqueries() throws {
        let publications = "FROM ZPUBLICATION t1 WHERE t1.ZAUTHOR = t0.Z_PK AND t1.Z_ENT IN (2, 3, 4)"
        #expect(try condition("Author", "ALL publications.title MATCHES 'A.*'")
            == "NOT EXISTS (SELECT 1 \(publications) AND NOT COALESCE(NSCoreDataMatches(t1.ZTITLE, ?1, 0), 0))")
        #expect(try condition("Author", "NONE publications.title == 'A'") == "(NOT EXISTS (SELECT 1 \(publications) AND t1.ZTITLE = ?1))")
        #expect(try condition("Publication", "ANY topics.name == 'swift'")
            == "EXISTS (SELECT 1 FROM Z_2TOPICS t2 JOIN ZTOPIC t1 ON t1.Z_PK = t2.Z_6TOPICS WHERE t2.Z_2PUBLICATIONS = t0.Z_PK AND t1.ZNAME = ?1)")
        #expect(try condition("Author", "publications.@count > 1") == "(SELECT COUNT(*) \(publications)) > ?1")
        #expect(try condition("Author", "SUBQUERY(publications, $p, $p.reviews.@avg.rating > 3).@count > 0")
            == "(SELECT COUNT(*) \(publications) AND (SELECT AVG(t2.ZRATING) FROM ZREVIEW t2 WHERE t2.ZPUBLICATION = t1.Z_PK AND t2.Z_ENT IN (5)) > ?1) > ?2")
        #expect(try condition("Publication", "reviews.@sum.rating >= 4")
            == "(SELECT IFNULL(SUM(t1.ZRATING), 0) FROM ZREVIEW t1 WHERE t1.ZPUBLICATION = t0.Z_PK AND t1.Z_ENT IN (5)) >= ?1")
    }

    /// The rows those predicates select (``LibraryRows``), worked out from the inserted values.
    @Test func toManysSelectTheRowsTheyMean() throws {
        try LibraryRows.with { (rows) throws in
            // Every title of Ann's and ann's starts with A, and Zoë has none (ALL of nothing holds);
            // FÉLIX has "Issue 9".
            #expect(try rows.matches("Author", "ALL publications.title MATCHES 'A.*'") == [1, 2, 6])
            #expect(try rows.matches("Author", "NONE publications.title == 'A'") == [1, 3, 4, 5, 6])
            #expect(try rows.matches("Publication", "ANY topics.name == 'swift'") == [1, 5])
            #expect(try rows.matches("Author", "publications.@count > 1") == [1, 3])
            // Alpha (4.5), Arch (5) and Omega (4) average above 3.
            #expect(try rows.matches("Author", "SUBQUERY(publications, $p, $p.reviews.@avg.rating > 3).@count > 0") == [1, 3, 5])
            #expect(try rows.matches("Publication", "reviews.@sum.rating >= 4") == [1, 4, 6])
            // Apple has no review: its sum is 0, as a sum of nothing is.
            #expect(try rows.matches("Publication", "reviews.@sum.rating == 0") == [2, 5, 8])
        }
    }

    @Test func objectsCompareByKeyAndEntity() throws {
        let book = EvaluatedValue.object(ObjectReference(side: .source, entity: "Book", primaryKey: 7))
        let author = EvaluatedValue.object(ObjectReference(side: .source, entity: "Author", primaryKey: 3))
        #expect(try condition("Review", "publication == %@", book) == "(t0.ZPUBLICATION = ?1 AND t0.Z2_PUBLICATION = ?2)")
        #expect(try condition("Review", "publication != %@", author) == "(NOT (t0.ZPUBLICATION IS NULL AND NULL))")
        #expect(try condition("Publication", "SELF IN %@ AND author == %@", .collection([book]), author)
            == "(((t0.Z_PK = ?1 AND t0.Z_ENT = ?2)) AND t0.ZAUTHOR = ?3)")
        #expect(try condition("Author", "publications CONTAINS %@", book)
            == "EXISTS (SELECT 1 FROM ZPUBLICATION t1 WHERE t1.ZAUTHOR = t0.Z_PK AND t1.Z_ENT IN (2, 3, 4) AND (t1.Z_PK = ?1 AND t1.Z_ENT = ?2))")
    }

    /// The rows those predicates select (``LibraryRows``): an object is its key and its entity.
    @Test func objectsSelectTheRowsOfTheirKeyAndEntity() throws {
        try LibraryRows.with { (rows) throws in
            let object = { (entity: String, key: Int64) in EvaluatedValue.object(ObjectReference(side: .source, entity: entity, primaryKey: key)) }
            #expect(try rows.matches("Review", "publication == %@", object("Book", 7)) == [6])
            // Row 7 is a book: a magazine with its key is another object.
            #expect(try rows.matches("Review", "publication == %@", object("Magazine", 7)) == [])
            // No publication is an author, so every review's differs.
            #expect(try rows.matches("Review", "publication != %@", object("Author", 3)) == Set(Int64(1)...8))
            let some = EvaluatedValue.collection([object("Book", 4), object("Magazine", 3), object("Book", 7)])
            #expect(try rows.matches("Publication", "SELF IN %@ AND author == %@", some, object("Author", 3)) == [3, 4])
            #expect(try rows.matches("Publication", "SELF IN %@", .collection([object("Magazine", 4), object("Book", 3)])) == [])
            #expect(try rows.matches("Author", "publications CONTAINS %@", object("Book", 4)) == [3])
        }
    }
}
