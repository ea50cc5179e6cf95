import Foundation
import ModelExpression
import Testing

/// `MATCHES` on a pattern that backtracks without end: the regular-expression engine gives up,
/// which must be an error and never a "no match". `((a+)+$)|(.*!)` matches any text that ends in
/// `!` through its second alternative, but the first one tries 2^n ways to split n `a`s first.
struct RegexLimitTests {
    static let pattern = "((a+)+$)|(.*!)"

    @Test func aPatternTheEngineAnswersMatches() throws {
        #expect(try StringOperators.holds(String(repeating: "a", count: 12) + "!", .matches, Self.pattern, options: []))
        #expect(try !StringOperators.holds(String(repeating: "a", count: 12) + "?", .matches, Self.pattern, options: []))
    }

    @Test func aPatternTheEngineGivesUpOnIsAnErrorNamingIt() throws {
        let text = String(repeating: "a", count: 40) + "!"
        let error = try #require(throws: EvaluationError.self) {
            try StringOperators.holds(text, .matches, Self.pattern, options: [])
        }
        #expect(error.message.contains(Self.pattern) && error.message.contains("gave up"), "\(error.message)")
    }

    /// The evaluator answers as `StringOperators` does: the same error, not `false`.
    @Test func theEvaluatorReportsTheLimitToo() throws {
        let predicate = try PredicateParser.predicate("SELF MATCHES '\(Self.pattern)'")
        let evaluator = ExpressionEvaluator(context: EvaluationSemanticsTests.Typed())
        #expect(throws: EvaluationError.self) {
            try evaluator.evaluate(predicate, on: .string(String(repeating: "a", count: 40) + "!"))
        }
    }
}
