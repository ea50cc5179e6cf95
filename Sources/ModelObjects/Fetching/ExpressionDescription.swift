import Foundation
import ModelExpression
import ModelSchema

/// An expression in Core Data's format (`NSExpression`): a key path, a constant, or a function
/// of them such as `sum:(amount)`. (Foundation on Linux has an `Expression` of its own and no
/// format strings, hence the name.)
public struct FetchExpression: Sendable, Hashable, CustomStringConvertible {
    /// The parsed expression.
    public let node: ExpressionNode
    /// The expression as its format reads.
    public let description: String

    /// Parses `format` (`"sum:(pages)"`, `"count:(title)"`); throws the syntax error with its offset.
    public init(format: String) throws {
        node = try PredicateParser.expression(format)
        description = format
    }

    /// `NSExpression(forKeyPath:)`.
    public init(forKeyPath keyPath: String) {
        node = .keyPath(operand: .evaluatedObject, path: keyPath)
        description = keyPath
    }

    /// `NSExpression(forFunction:arguments:)`: `"sum:"`, `"count:"`, `"min:"`, `"max:"`, `"average:"`.
    public init(forFunction name: String, arguments: [FetchExpression]) {
        node = .function(operand: nil, selector: name, arguments: arguments.map(\.node))
        description = "\(name)(\(arguments.map(\.description).joined(separator: ", ")))"
    }
}

/// A named expression a dictionary fetch returns beside attributes (`NSExpressionDescription`),
/// such as the sum of an attribute over each group of `propertiesToGroupBy`.
public final class ExpressionDescription: @unchecked Sendable {
    /// The key of the value in each dictionary.
    public var name: String
    /// The expression whose value each dictionary holds under ``name``.
    public var expression: FetchExpression?
    /// The type the value is given in: integers, double, float, decimal, date, string.
    public var expressionResultType: AttributeType

    /// A named expression whose value has `expressionResultType`.
    public init(name: String = "", expression: FetchExpression? = nil, expressionResultType: AttributeType = .undefined) {
        self.name = name
        self.expression = expression
        self.expressionResultType = expressionResultType
    }
}
