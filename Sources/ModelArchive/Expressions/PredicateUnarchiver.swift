import ModelExpression

/// Decodes archived NSPredicate and NSExpression objects back into syntax trees.
/// A tree nested deeper than ``PredicateParser/maximumDepth`` (or a cycle, which a hostile
/// archive can hold) decodes as `nil`, as the parser would have refused its text.
enum PredicateUnarchiver {
    static func predicate(_ object: ArchivedObject) -> PredicateNode? {
        predicate(object, depth: 0)
    }

    static func expression(_ object: ArchivedObject) -> ExpressionNode? {
        expression(object, depth: 0)
    }

    private static func predicate(_ object: ArchivedObject, depth: Int) -> PredicateNode? {
        guard depth < PredicateParser.maximumDepth else { return nil }
        let predicate = { (object: ArchivedObject) in Self.predicate(object, depth: depth + 1) }
        let expression = { (object: ArchivedObject) in Self.expression(object, depth: depth + 1) }
        switch object.className {
        case "NSTruePredicate": return .truePredicate
        case "NSFalsePredicate": return .falsePredicate
        case "NSCompoundPredicate":
            let terms = (object["NSSubpredicates"]?.object.map(ModelUnarchiver.items) ?? []).compactMap { $0.object.flatMap(predicate) }
            switch object["NSCompoundPredicateType"]?.integer {
            case 0: return terms.first.map { .not($0) }
            case 2: return .or(terms)
            default: return .and(terms)
            }
        case "NSComparisonPredicate":
            guard let left = object["NSLeftExpression"]?.object.flatMap(expression),
                let right = object["NSRightExpression"]?.object.flatMap(expression),
                let op = object["NSPredicateOperator"]?.object,
                let type = op["NSOperatorType"]?.integer.flatMap({ ComparisonOperator(rawValue: Int($0)) })
            else { return nil }
            let options = ComparisonOptions(rawValue: Int(op["NSOptions"]?.integer ?? op["NSFlags"]?.integer ?? 0))
            let modifier = ComparisonModifier(rawValue: Int(op["NSModifier"]?.integer ?? 0)) ?? .direct
            let resolved = type == .equal && op["NSNegate"]?.bool == true ? .notEqual : type
            return .comparison(left, resolved, right, options: options, modifier: modifier)
        default:
            return nil
        }
    }

    private static func expression(_ object: ArchivedObject, depth: Int) -> ExpressionNode? {
        guard depth < PredicateParser.maximumDepth else { return nil }
        let expression = { (object: ArchivedObject) in Self.expression(object, depth: depth + 1) }
        switch object.className {
        case "NSSelfExpression": return .evaluatedObject
        case "NSVariableExpression": return object["NSVariable"]?.string.map { .variable($0) }
        case "NSConstantValueExpression":
            switch object["NSConstantValue"] {
            case .number(.integer(let number))?: return .constant(.integer(number))
            case .number(.real(let number))?: return .constant(.real(number))
            case .number(.bool(let flag))?: return .constant(.bool(flag))
            case .string(let text)?: return .constant(.string(text))
            case .object(let number)? where number.classes.contains("NSDecimalNumber"):
                // A decimal bound; the XML spells it as a plain number.
                return .constant(.real(Double(AttributeValues.decimalText(number)) ?? 0))
            default: return .constant(.null)
            }
        case "NSKeyPathExpression":
            guard let operand = object["NSOperand"]?.object.flatMap(expression),
                let specifier = object["NSArguments"]?.object.map(ModelUnarchiver.items)?.first?.object,
                let path = specifier["NSKeyPath"]?.string
            else { return nil }
            return .keyPath(operand: operand, path: path)
        case "NSFunctionExpression":
            guard let selector = object["NSSelectorName"]?.string else { return nil }
            let operandObject = object["NSOperand"]?.object
            let operand = operandObject?["NSConstantValueClassName"]?.string == "_NSPredicateUtilities"
                ? nil : operandObject.flatMap(expression)
            let arguments = (object["NSArguments"]?.object.map(ModelUnarchiver.items) ?? []).compactMap { $0.object.flatMap(expression) }
            return .function(operand: operand, selector: selector, arguments: arguments)
        case "NSAggregateExpression":
            return .aggregate((object["NSCollection"]?.object.map(ModelUnarchiver.items) ?? []).compactMap { $0.object.flatMap(expression) })
        default:
            return nil
        }
    }

    /// A derivation's text as the XML holds it: `count:(pages)` is written back as `pages.@count`.
    static func derivationText(_ expression: ExpressionNode) -> String {
        if case .function(nil, let selector, let arguments) = expression, arguments.count == 1,
            case .keyPath(let operand, let path) = arguments[0], let suffix = ["count:": "@count", "sum:": "@sum"][selector]
        {
            return PredicateFormatter.format(ExpressionNode.keyPath(operand: operand, path: "\(path).\(suffix)"))
        }
        return PredicateFormatter.format(expression)
    }
}
