import ModelExpression

/// Encodes predicate and expression syntax trees as the NSPredicate and NSExpression objects
/// of a keyed archive, with the classes and keys Core Data's own archives use (checked against
/// the model caches of real stores: comparison and compound predicates, self, constant,
/// variable, key path and function expressions).
enum PredicateArchiver {
    static func archive(_ predicate: PredicateNode) -> ArchivedObject {
        switch predicate {
        case .truePredicate:
            return ArchivedObject(["NSTruePredicate", "NSPredicate", "NSObject"])
        case .falsePredicate:
            return ArchivedObject(["NSFalsePredicate", "NSPredicate", "NSObject"])
        case .and(let terms):
            return compound(1, terms)
        case .or(let terms):
            return compound(2, terms)
        case .not(let inner):
            return compound(0, [inner])
        case .comparison(let left, let op, let right, let options, let modifier):
            return ArchivedObject(
                ["NSComparisonPredicate", "NSPredicate", "NSObject"],
                fields: [
                    ("NSLeftExpression", .object(archive(left))),
                    ("NSRightExpression", .object(archive(right))),
                    ("NSPredicateOperator", .object(operatorObject(op, options: options, modifier: modifier))),
                ])
        }
    }

    private static func compound(_ type: Int64, _ terms: [PredicateNode]) -> ArchivedObject {
        ArchivedObject(
            ["NSCompoundPredicate", "NSPredicate", "NSObject"],
            fields: [
                ("NSCompoundPredicateType", .integer(type)),
                ("NSSubpredicates", .object(ArchiveClass.arrayObject(terms.map { .object(archive($0)) }, chain: .array))),
            ])
    }

    /// The NSPredicateOperator subclass of each operator type, and its keys.
    private static func operatorObject(
        _ op: ComparisonOperator, options: ComparisonOptions, modifier: ComparisonModifier
    ) -> ArchivedObject {
        let type = Int64(op.rawValue)
        let common: [(key: String, value: ArchiveValue)] = [("NSModifier", .integer(Int64(modifier.rawValue)))]
        switch op {
        case .lessThan, .lessThanOrEqual, .greaterThan, .greaterThanOrEqual:
            return ArchivedObject(
                ["NSComparisonPredicateOperator", "NSPredicateOperator", "NSObject"],
                fields: common + [("NSVariant", .integer(type)), ("NSOptions", .integer(Int64(options.rawValue))),
                                  ("NSOperatorType", .integer(type))])
        case .equal, .notEqual:
            return ArchivedObject(
                ["NSEqualityPredicateOperator", "NSPredicateOperator", "NSObject"],
                fields: common + [("NSNegate", .bool(op == .notEqual)), ("NSOptions", .integer(Int64(options.rawValue))),
                                  ("NSOperatorType", .integer(type))])
        case .in, .contains:
            return stringOperator("NSInPredicateOperator", type, options, common)
        case .matches:
            return stringOperator("NSMatchingPredicateOperator", type, options, common)
        case .like:
            return stringOperator("NSLikePredicateOperator", type, options, common)
        case .beginsWith:
            return stringOperator("NSBeginsWithPredicateOperator", type, options, common)
        case .endsWith:
            return stringOperator("NSEndsWithPredicateOperator", type, options, common)
        case .between:
            return ArchivedObject(
                ["NSBetweenPredicateOperator", "NSPredicateOperator", "NSObject"],
                fields: common + [("NSOperatorType", .integer(type))])
        }
    }

    private static func stringOperator(
        _ className: String, _ type: Int64, _ options: ComparisonOptions, _ common: [(key: String, value: ArchiveValue)]
    ) -> ArchivedObject {
        ArchivedObject(
            [className, "NSStringPredicateOperator", "NSPredicateOperator", "NSObject"],
            fields: common + [("NSFlags", .integer(Int64(options.rawValue))), ("NSOperatorType", .integer(type))])
    }

    // MARK: - Expressions

    /// The archived form of `expression`. Functions parsed from format text (as mapping models'
    /// value expressions are) keep their arguments in an NSMutableArray; those Core Data builds
    /// itself (derivations) in an NSArray: `functionArguments` says which.
    static func archive(_ expression: ExpressionNode, functionArguments: ArchiveClass = .array) -> ArchivedObject {
        let archive = { (inner: ExpressionNode) in Self.archive(inner, functionArguments: functionArguments) }
        switch expression {
        case .evaluatedObject:
            return ArchivedObject(["NSSelfExpression", "NSExpression", "NSObject"], fields: [("NSExpressionType", .integer(1))])
        case .constant(let value):
            return ArchivedObject(
                ["NSConstantValueExpression", "NSExpression", "NSObject"],
                fields: [("NSConstantValue", constant(value)), ("NSExpressionType", .integer(0))])
        case .variable(let name):
            return ArchivedObject(
                ["NSVariableExpression", "NSExpression", "NSObject"],
                fields: [("NSVariable", .string(name)), ("NSExpressionType", .integer(2))])
        case .keyPath(let operand, let path):
            let isSelf = operand == .evaluatedObject
            let specifier = ArchivedObject(
                ["NSKeyPathSpecifierExpression", "NSExpression", "NSObject"],
                fields: [("NSExpressionType", .integer(10)), ("NSKeyPath", .string(path))])
            return ArchivedObject(
                ["NSKeyPathExpression", "NSFunctionExpression", "NSExpression", "NSObject"],
                fields: [
                    ("NSOperand", .object(archive(operand))),
                    ("NSSelectorName", .string(isSelf && !path.contains(".") ? "valueForKey:" : "valueForKeyPath:")),
                    ("NSExpressionType", .integer(isSelf ? 3 : 4)),
                    ("NSArguments", .object(ArchiveClass.arrayObject([.object(specifier)]))),
                ])
        case .function(let operand, let selector, let arguments):
            let target = operand.map { archive($0) }
                ?? ArchivedObject(
                    ["NSConstantValueExpression", "NSExpression", "NSObject"],
                    fields: [("NSExpressionType", .integer(0)), ("NSConstantValueClassName", .string("_NSPredicateUtilities"))])
            return ArchivedObject(
                ["NSFunctionExpression", "NSExpression", "NSObject"],
                fields: [
                    ("NSOperand", .object(target)), ("NSSelectorName", .string(selector)),
                    ("NSExpressionType", .integer(4)),
                    ("NSArguments", .object(ArchiveClass.arrayObject(arguments.map { .object(archive($0)) }, chain: functionArguments))),
                ])
        case .aggregate(let items):
            return ArchivedObject(
                ["NSAggregateExpression", "NSExpression", "NSObject"],
                fields: [
                    ("NSExpressionType", .integer(14)),
                    ("NSCollection", .object(ArchiveClass.arrayObject(items.map { .object(archive($0)) }, chain: .array))),
                ])
        case .value, .subquery:
            preconditionFailure("argument values and SUBQUERY occur in fetch predicates only, which are not archived")
        }
    }

    private static func constant(_ value: ConstantValue) -> ArchiveValue {
        switch value {
        case .integer(let number): .number(.integer(number))
        case .real(let number): .number(.real(number))
        case .bool(let flag): .number(.bool(flag))
        case .string(let text): .string(text)
        case .null: .null
        }
    }

    /// A derivation as Core Data stores it: a key path ending in `@count` becomes `count:(path)`,
    /// one ending in `@sum`/`@total` becomes `sum:(path)`.
    static func derivation(_ expression: ExpressionNode) -> ExpressionNode {
        guard case .keyPath(let operand, let path) = expression else { return expression }
        let parts = path.split(separator: ".").map(String.init)
        guard parts.count >= 2, let function = ["@count": "count:", "@sum": "sum:", "@total": "sum:"][parts.last!] else {
            return expression
        }
        return .function(operand: nil, selector: function, arguments: [.keyPath(operand: operand, path: parts.dropLast().joined(separator: "."))])
    }
}
