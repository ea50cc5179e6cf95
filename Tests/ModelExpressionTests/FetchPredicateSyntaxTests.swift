import Foundation
import ModelExpression
import Testing

/// The fetch-only grammar (format arguments, `SUBQUERY`, `NONE`) and the store's rule for `nil`.
struct FetchPredicateSyntaxTests {
    func parse(_ text: String, _ arguments: EvaluatedValue...) throws -> PredicateNode {
        try PredicateParser.predicate(text, arguments: arguments)
    }

    func key(_ path: String) -> ExpressionNode { .keyPath(operand: .evaluatedObject, path: path) }

    // MARK: - Arguments

    @Test func formatArgumentsTakeTheirPlaceInTheTree() throws {
        #expect(try parse("%K == %@", .string("name"), .string("Ann")) == .comparison(key("name"), .equal, .constant(.string("Ann")), options: [], modifier: .direct))
        #expect(try parse("%K.title BEGINSWITH[cd] %@", .string("owner"), .string("a"))
            == .comparison(key("owner.title"), .beginsWith, .constant(.string("a")), options: [.caseInsensitive, .diacriticInsensitive], modifier: .direct))
        let date = Date(timeIntervalSinceReferenceDate: 100)
        #expect(try parse("born < %@", .date(date)) == .comparison(key("born"), .lessThan, .value(.date(date)), options: [], modifier: .direct))
        #expect(try parse("age > %d AND age < %ld AND ratio > %f AND ratio < %lf", .integer(3), .integer(9), .double(0.5), .integer(2))
            == .and([
                .comparison(key("age"), .greaterThan, .constant(.integer(3)), options: [], modifier: .direct),
                .comparison(key("age"), .lessThan, .constant(.integer(9)), options: [], modifier: .direct),
                .comparison(key("ratio"), .greaterThan, .constant(.real(0.5)), options: [], modifier: .direct),
                .comparison(key("ratio"), .lessThan, .constant(.real(2)), options: [], modifier: .direct),
            ]))
        #expect(try parse("tag IN %@", .collection([.string("a"), .string("b")]))
            == .comparison(key("tag"), .in, .value(.collection([.string("a"), .string("b")])), options: [], modifier: .direct))
        #expect(try parse("owner == %@", .null) == .comparison(key("owner"), .equal, .constant(.null), options: [], modifier: .direct))
        // Quoted specifiers are literals, as NSPredicate documents.
        #expect(try parse("name == '%@'") == .comparison(key("name"), .equal, .constant(.string("%@")), options: [], modifier: .direct))
    }

    @Test func wrongArgumentsFailNamingThem() throws {
        #expect(throws: PredicateParser.SyntaxError.self) { try parse("name == %@") }
        #expect { try parse("name == %@") } throws: { ($0 as? PredicateParser.SyntaxError)?.message == "missing argument 1 for %@ (0 given)" }
        #expect { try parse("name == %@", .string("a"), .string("b")) } throws: {
            ($0 as? PredicateParser.SyntaxError)?.message == "2 arguments given, but the format uses 1"
        }
        #expect { try parse("%K == 1", .integer(1)) } throws: {
            ($0 as? PredicateParser.SyntaxError)?.message == "argument 1 for %K must be a key path string, not an integer"
        }
        #expect { try parse("age == %d", .string("x")) } throws: {
            ($0 as? PredicateParser.SyntaxError)?.message == "argument 1 for %d must be an integer, not a string"
        }
        #expect { try parse("age == %y") } throws: { ($0 as? PredicateParser.SyntaxError)?.message == "unknown format specifier '%y'" }
        #expect { try parse("age == %%") } throws: { ($0 as? PredicateParser.SyntaxError)?.message == "unexpected '%'" }
        // A model's predicate takes no arguments and no SUBQUERY.
        #expect(throws: PredicateParser.SyntaxError.self) { try PredicateParser.predicate("name == %@") }
        #expect(throws: PredicateParser.SyntaxError.self) { try PredicateParser.predicate("SUBQUERY(items, $x, $x.a == 1).@count > 0") }
    }

    // MARK: - Modifiers and subqueries

    @Test func noneIsNotAny() throws {
        #expect(try parse("NONE items.price > 5")
            == .not(.comparison(key("items.price"), .greaterThan, .constant(.integer(5)), options: [], modifier: .any)))
        #expect(try parse("none == nil") == .comparison(key("none"), .equal, .constant(.null), options: [], modifier: .direct))
    }

    @Test func subqueriesParseAndPrint() throws {
        let node = try parse("SUBQUERY(items, $item, $item.price > %d AND $item.name CONTAINS[c] 'a').@count >= 1", .integer(5))
        let inner = PredicateNode.and([
            .comparison(.keyPath(operand: .variable("item"), path: "price"), .greaterThan, .constant(.integer(5)), options: [], modifier: .direct),
            .comparison(.keyPath(operand: .variable("item"), path: "name"), .contains, .constant(.string("a")), options: .caseInsensitive, modifier: .direct),
        ])
        let subquery = ExpressionNode.subquery(collection: key("items"), variable: "item", predicate: inner)
        #expect(node == .comparison(.keyPath(operand: subquery, path: "@count"), .greaterThanOrEqual, .constant(.integer(1)), options: [], modifier: .direct))
        #expect(PredicateFormatter.format(node) == #"SUBQUERY(items, $item, $item.price > 5 AND $item.name CONTAINS[c] "a").@count >= 1"#)
    }

    @Test func nestingStaysBounded() throws {
        let deep = String(repeating: "SUBQUERY(items, $x, ", count: 120) + "TRUEPREDICATE" + String(repeating: ").@count > 0", count: 120)
        #expect { try parse(deep) } throws: { ($0 as? PredicateParser.SyntaxError)?.message.contains("nested more than") == true }
    }

    // MARK: - Evaluation

    /// One object whose `name` is nil, `age` 30 and `items` three elements.
    struct Row: EvaluationContext {
        func variable(_ name: String) throws -> EvaluatedValue { throw EvaluationError("no $\(name)") }
        func value(forKey key: String, of target: EvaluatedValue) throws -> EvaluatedValue {
            guard case .object(let object) = target else { throw EvaluationError("no \(key)") }
            switch (object.primaryKey, key) {
            case (1, "name"): return .null
            case (1, "age"): return .integer(30)
            case (1, "items"): return .collection((2...4).map { .object(ObjectReference(side: .source, entity: "Item", primaryKey: $0)) })
            case (let key, "price"): return .integer(key * 10)
            case (let key, "label"): return key == 4 ? .null : .string("Item \(key)")
            default: throw EvaluationError("no \(key)")
            }
        }
        func call(_ selector: String, on receiver: EvaluatedValue, arguments: [EvaluatedValue]) throws -> EvaluatedValue {
            throw EvaluationError("no \(selector)")
        }
    }

    func holds(_ text: String, _ semantics: ExpressionEvaluator.NilSemantics, _ arguments: EvaluatedValue...) throws -> Bool {
        try ExpressionEvaluator(context: Row(), nilSemantics: semantics)
            .evaluate(try PredicateParser.predicate(text, arguments: arguments), on: .object(ObjectReference(side: .source, entity: "Owner", primaryKey: 1)))
    }

    @Test func theStoreRuleLeavesOutNilForInequality() throws {
        #expect(try holds("name != 'a'", .inMemory))
        #expect(try !holds("name != 'a'", .store))
        #expect(try !holds("NOT (name == 'a')", .store))
        #expect(try holds("name == nil AND NOT (name != nil)", .store))
        #expect(try holds("name == 'a' OR age == 30", .store))
        #expect(try !holds("NOT (name == 'a' OR age == 31)", .store))
        #expect(try !holds("name IN {'a', 'b'}", .store) && !holds("NOT (name IN {'a'})", .store))
        #expect(try holds("age IN {}", .store) == false && holds("NOT (age IN %@)", .store, .collection([])))
    }

    @Test func modifiersAndSubqueriesRangeOverToManys() throws {
        for semantics in [ExpressionEvaluator.NilSemantics.inMemory, .store] {
            #expect(try holds("ANY items.price > 35", semantics) && !holds("ALL items.price > 25", semantics))
            #expect(try holds("NONE items.price > 40", semantics) && holds("items.@sum.price == 90 AND items.@count == 3", semantics))
            #expect(try holds("SUBQUERY(items, $i, $i.price >= 30 AND $i.label BEGINSWITH 'Item').@count == 1", semantics))
            #expect(try holds("ANY items.label ==[c] 'ITEM 2' AND ANY items.label LIKE 'I?em*' AND ANY items.label MATCHES 'Item [0-9]'", semantics))
        }
        #expect(try holds("ALL items.label != 'x'", .inMemory) && !holds("ALL items.label != 'x'", .store))
    }
}
