import Foundation
import GRDB
import ModelExpression
import ModelSchema
import ModelStore
import Testing

/// The SQL a fetch's predicate becomes on the Library model (Documentation/Predicates.md), and
/// that it runs on a store of that model.
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
}
