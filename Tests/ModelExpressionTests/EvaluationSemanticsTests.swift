import Foundation
import ModelExpression
import Testing

/// The evaluator's typed semantics, each checked against what Foundation answers for the same
/// NSExpression or NSPredicate (the expected values are Foundation's documented results).
struct EvaluationSemanticsTests {
    /// A context with one object, `SELF`, whose keys hold one value of each attribute type.
    struct Typed: EvaluationContext {
        static let object = ObjectReference(side: .source, entity: "Item", primaryKey: 1)
        static let values: [String: EvaluatedValue] = [
            "count": .integer(3), "big": .integer(Int64.max), "ratio": .double(2.5), "price": .decimal(Decimal(string: "12.50")!),
            "flag": .bool(true), "title": .string("Crème Brûlée"), "none": .null,
            "date": .date(Date(timeIntervalSinceReferenceDate: 1000)), "blob": .data(Data([1, 2, 3])),
            "id": .uuid(UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!), "link": .uri(URL(string: "https://a.example/b.txt")!),
            "tags": .collection([.string("a"), .string("b"), .string("a")]), "scores": .collection([.integer(1), .integer(5), .null]),
            "child": .object(ObjectReference(side: .source, entity: "Item", primaryKey: 2)),
        ]

        func variable(_ name: String) throws -> EvaluatedValue {
            guard name == "source" else { throw EvaluationError("no $\(name)") }
            return .object(Self.object)
        }

        func value(forKey key: String, of target: EvaluatedValue) throws -> EvaluatedValue {
            guard case .object(let object) = target else { throw EvaluationError("no \(key) on \(target)") }
            if object.primaryKey == 2 { return key == "title" ? .string("Child") : .null }
            guard let value = Self.values[key] else { throw EvaluationError("'Item' has no key '\(key)'") }
            return value
        }

        func call(_ selector: String, on receiver: EvaluatedValue, arguments: [EvaluatedValue]) throws -> EvaluatedValue {
            throw EvaluationError("no \(selector)")
        }
    }

    let evaluator = ExpressionEvaluator(context: Typed())

    func value(_ text: String) throws -> EvaluatedValue {
        try evaluator.evaluate(try PredicateParser.expression(text), on: .object(Typed.object))
    }

    func holds(_ text: String) throws -> Bool {
        try evaluator.evaluate(try PredicateParser.predicate(text), on: .object(Typed.object))
    }

    // MARK: - Numbers

    @Test func numbersCompareAcrossTheirTypes() throws {
        #expect(try holds("count == 3.0"))
        #expect(try holds("flag == 1 AND flag == YES"))
        #expect(try holds("price > 12 AND price < 12.6 AND price == 12.5"))
        #expect(try holds("ratio BETWEEN {2, 3}"))
        #expect(try !holds("big == 9223372036854775806"))
        #expect(try holds("count IN {1, 2, 3}"))
    }

    @Test func arithmeticKeepsNSNumberKinds() throws {
        #expect(try value("count + 2") == .integer(5))
        #expect(try value("count / 2") == .double(1.5))
        #expect(try value("count * ratio") == .double(7.5))
        #expect(try value("price * 2") == .decimal(Decimal(25)))
        #expect(try value("-count + 1") == .integer(-2))
        #expect(try value("(count + 1) * 2") == .integer(8))
        #expect(try value("2 ** 10") == .double(1024))
        #expect(try value("big + 1") == .double(Double(Int64.max) + 1))
        #expect(try value("none + 1") == .null)
        #expect(try value("add:to:(count, 4)") == .integer(7))
        #expect(try value("modulus:by:(count, 2)") == .integer(1))
        #expect(throws: EvaluationError("divide:by: by zero")) { try value("count / 0") }
        #expect(throws: EvaluationError("add:to: needs numbers, not a string \"Crème Brûlée\"")) { try value("title + 1") }
    }

    // MARK: - Strings

    @Test func stringOperatorsFoldCaseAndDiacritics() throws {
        #expect(try holds("title ==[cd] 'creme brulee'"))
        #expect(try !holds("title == 'creme brulee'"))
        #expect(try holds("title BEGINSWITH[c] 'CRÈ' AND title ENDSWITH 'lée'"))
        #expect(try holds("title CONTAINS[d] 'Brule'"))
        #expect(try holds("title LIKE 'Cr?me*'"))
        #expect(try !holds("title LIKE 'Cr?me'"))
        #expect(try holds(#"title MATCHES[c] 'crème \\w+'"#))
        #expect(try holds("'a' IN tags AND ANY tags == 'b' AND NOT (ALL tags == 'a')"))
    }

    @Test func foundationMethodsOnValues() throws {
        #expect(try value("FUNCTION(title, 'uppercaseString')") == .string("CRÈME BRÛLÉE"))
        #expect(try value("uppercase:(title)") == .string("CRÈME BRÛLÉE"))
        #expect(try value("title.length") == .integer(12))
        #expect(try value("FUNCTION(title, 'stringByAppendingString:', '!')") == .string("Crème Brûlée!"))
        #expect(try value("FUNCTION('/Developer/Tools/otest', 'lastPathComponent')") == .string("otest"))
        #expect(try value("FUNCTION(count, 'stringValue')") == .string("3"))
        #expect(try value("FUNCTION(tags, 'componentsJoinedByString:', ',')") == .string("a,b,a"))
        #expect(try value("FUNCTION($source, 'valueForKeyPath:', 'child.title')") == .string("Child"))
        #expect(try value("FUNCTION(none, 'uppercaseString')") == .null)
        #expect(try value("link.lastPathComponent") == .string("b.txt"))
        #expect(try value("id.UUIDString") == .string("E621E1F8-C36C-495A-93FC-0C247A3E6E5F"))
        #expect(throws: EvaluationError("a string has no method 'frobnicate:' taking 1 arguments")) {
            try value("FUNCTION(title, 'frobnicate:', 1)")
        }
    }

    // MARK: - Dates, identifiers, data, nil

    @Test func datesCompareAndCastAsPredicateFormatWritesThem() throws {
        #expect(try holds(#"date == CAST(1000, "NSDate")"#))
        #expect(try holds(#"date > CAST(999.5, "NSDate") AND date < CAST(1000.5, "NSDate")"#))
        #expect(try value("date.timeIntervalSinceReferenceDate") == .double(1000))
        #expect(try value("date + 60") == .date(Date(timeIntervalSinceReferenceDate: 1060)))
        #expect(try value(#"CAST("42", "NSNumber")"#) == .integer(42))
        #expect(throws: EvaluationError("cannot order a date 1000.0s after 2001 against an integer 3")) { try holds("date > count") }
    }

    @Test func identifiersAndDataCompareByValue() throws {
        #expect(try holds("id == id AND blob == blob AND link == link"))
        #expect(try !holds("id == 'E621E1F8-C36C-495A-93FC-0C247A3E6E5F'"))
        #expect(try value("blob.length") == .integer(3))
    }

    @Test func nilPassesThroughKeyPathsAndComparesOnlyEqualToNil() throws {
        #expect(try value("child.none.title") == .null)
        #expect(try holds("none == nil AND child.none == nil"))
        #expect(try !holds("none > 1") && !holds("none < 1") && !holds("none BEGINSWITH 'a'"))
        #expect(try holds("none != 1"))
    }

    // MARK: - Collections

    @Test func collectionOperators() throws {
        #expect(try value("scores.@count") == .integer(3))
        #expect(try value("scores.@sum") == .integer(6))
        #expect(try value("scores.@avg") == .double(3))
        #expect(try value("scores.@max") == .integer(5))
        #expect(try value("tags.@distinctUnionOfObjects") == .collection([.string("a"), .string("b")]))
        #expect(try value("sum:(scores)") == .integer(6))
        #expect(try value("median:({1, 2, 10})") == .double(2))
        #expect(try value("FUNCTION(tags, 'count')") == .integer(3))
        #expect(throws: EvaluationError("unknown collection operator '@frob'")) { try value("tags.@frob") }
    }

    /// A key path as long as input can make it fails with an error, not a stack overflow.
    @Test func longKeyPathsAreRefused() throws {
        let path = Array(repeating: "tags.@count", count: 50_000).joined(separator: ".")
        #expect(throws: EvaluationError.self) { try evaluator.value(atPath: path, of: .object(Typed.object)) }
        #expect(try evaluator.value(atPath: "child.child.title", of: .object(Typed.object)) == .null)
    }
}
