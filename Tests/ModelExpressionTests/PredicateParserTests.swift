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
