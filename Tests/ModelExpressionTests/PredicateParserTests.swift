import ModelExpression
import ModelSchema
import Testing

/// The predicate parser and formatter on the forms models and mapping models use.
struct PredicateParserTests {
    /// Input and its canonical text (as `predicateFormat`, but booleans stay YES/NO so that text round-trips).
    @Test(arguments: [
        ("booleanAttribute = YES", "booleanAttribute == YES"),
        ("booleanAttribute == 1 AND floatAttribute > 5", "booleanAttribute == 1 AND floatAttribute > 5"),
        ("timestamp != nil", "timestamp != nil"),
        ("name BEGINSWITH[cd] 'a'", "name BEGINSWITH[cd] \"a\""),
        ("ANY tags.name IN {\"x\", \"y\"}", "ANY tags.name IN {\"x\", \"y\"}"),
        ("NOT (a < 1 OR b >= 2)", "NOT (a < 1 OR b >= 2)"),
        ("$FETCH_SOURCE.folder == SELF", "$FETCH_SOURCE.folder == SELF"),
        ("TRUEPREDICATE", "TRUEPREDICATE"),
        ("messageID < 10000", "messageID < 10000"),
        ("x > -3.5", "x > -3.5"),
    ])
    func parsesAndPrintsAsNSPredicateDoes(_ input: String, _ expected: String) throws {
        let predicate = try PredicateParser.predicate(input)
        #expect(PredicateFormatter.format(predicate) == expected)
        #expect(try PredicateParser.predicate(expected) == predicate)
    }

    @Test func keyPathsFoldIntoOneKeyPathExpression() throws {
        #expect(try PredicateParser.expression("$source.country.continent") == .keyPath(operand: .variable("source"), path: "country.continent"))
        #expect(try PredicateParser.expression("breads.@count") == .keyPath(operand: .evaluatedObject, path: "breads.@count"))
    }

    @Test func functionsParseInBothSpellings() throws {
        #expect(try PredicateParser.expression("count:(pages)") == .function(operand: nil, selector: "count:", arguments: [.keyPath(operand: .evaluatedObject, path: "pages")]))
        let call = try PredicateParser.expression("FUNCTION($entityPolicy, \"typeForIsSaved:\", $source.big)")
        #expect(call == .function(operand: .variable("entityPolicy"), selector: "typeForIsSaved:", arguments: [.keyPath(operand: .variable("source"), path: "big")]))
        #expect(PredicateFormatter.format(call) == "FUNCTION($entityPolicy, \"typeForIsSaved:\", $source.big)")
    }

    /// Arithmetic as `predicateFormat` prints it and as its functions, multi-part selectors and
    /// `CAST`: each parses into NSExpression's function form and prints back as NSExpression does.
    @Test(arguments: [
        ("$source.price * 100", "$source.price * 100"),
        ("add:to:($source.count, 1)", "$source.count + 1"),
        ("(a + b) * -c", "(a + b) * (0 - c)"),
        ("a - -3", "a - -3"),
        ("2 ** 10 / 4", "(2 ** 10) / 4"),
        ("modulus:by:(pages, 7)", "modulus:by:(pages, 7)"),
        ("CAST(700000000, 'NSDate')", "CAST(700000000, \"NSDate\")"),
    ])
    func arithmeticAndCastParseAsFunctions(_ input: String, _ expected: String) throws {
        let expression = try PredicateParser.expression(input)
        #expect(PredicateFormatter.format(expression) == expected)
        #expect(try PredicateParser.expression(expected) == expression)
    }

    @Test func operatorsMapToNSExpressionSelectors() throws {
        let sum = try PredicateParser.expression("a + 1")
        #expect(sum == .function(operand: nil, selector: "add:to:", arguments: [.keyPath(operand: .evaluatedObject, path: "a"), .constant(.integer(1))]))
        let predicate = try PredicateParser.predicate("(pages + 1) * 2 > 10 AND date < CAST(1.5, \"NSDate\")")
        guard case .and(let terms) = predicate, case .comparison(let left, .greaterThan, _, _, _) = terms[0] else {
            Issue.record("parsed as \(predicate)")
            return
        }
        #expect(PredicateFormatter.format(left) == "(pages + 1) * 2")
    }

    @Test(arguments: ["a ==", "== 1", "a = 'unterminated", "(a == 1", "a <> 1 garbage"])
    func malformedTextIsASyntaxError(_ input: String) {
        #expect(throws: PredicateParser.SyntaxError.self) { try PredicateParser.predicate(input) }
    }
}

/// The expression forms of mapping models (FORMATS.md §9.2), as Xcode's `.cdm` files hold them.
struct MappingExpressionParserTests {
    @Test func managerFunctionWithAKeyPathThroughAVariable() throws {
        let text = "FUNCTION($manager, \"destinationInstancesForEntityMappingNamed:sourceInstances:\", \"PersonToPerson\", $source.owner)"
        let expression = try PredicateParser.expression(text)
        #expect(expression == .function(
            operand: .variable("manager"), selector: "destinationInstancesForEntityMappingNamed:sourceInstances:",
            arguments: [.constant(.string("PersonToPerson")), .keyPath(operand: .variable("source"), path: "owner")]))
        #expect(PredicateFormatter.format(expression) == text)
    }

    @Test func entityPolicyFunctionWithoutArguments() throws {
        let expression = try PredicateParser.expression("FUNCTION($entityPolicy, \"migrateIdentifier\")")
        #expect(expression == .function(operand: .variable("entityPolicy"), selector: "migrateIdentifier", arguments: []))
    }

    @Test func collectionOperatorInAKeyPath() throws {
        let expression = try PredicateParser.expression("$source.countries.@distinctUnionOfSets.moods")
        #expect(expression == .keyPath(operand: .variable("source"), path: "countries.@distinctUnionOfSets.moods"))
    }

    @Test func propertyMappingsAndSourceFetchesParse() throws {
        let mapping = PropertyMapping(name: "isSaved", valueExpression: "FUNCTION($entityPolicy, \"typeForIsSaved:\", $source.big)")
        #expect(try mapping.parsedValueExpression() == .function(
            operand: .variable("entityPolicy"), selector: "typeForIsSaved:",
            arguments: [.keyPath(operand: .variable("source"), path: "big")]))
        #expect(try PropertyMapping(name: "createdBy").parsedValueExpression() == nil)
        let fetch = SourceExpression(entityName: "Message", predicate: "messageID < 10000")
        #expect(try fetch.parsedPredicate() == .comparison(
            .keyPath(operand: .evaluatedObject, path: "messageID"), .lessThan, .constant(.integer(10000)),
            options: [], modifier: .direct))
    }
}
