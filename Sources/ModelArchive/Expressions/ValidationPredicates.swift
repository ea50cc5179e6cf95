import ModelExpression
import ModelSchema

/// The validation predicates momc derives from an attribute's bounds and pattern, each with
/// the Core Data error code Core Data reports when it fails.
///
/// Numbers: `SELF >= min` (1620), `SELF <= max` (1610); strings: `length >= min` (1670),
/// `length <= max` (1660); dates: `timeIntervalSinceReferenceDate >= min` (1640), `<= max`
/// (1630); a pattern: `SELF MATCHES pattern` (1680). The shape of the numeric case is checked
/// against the model caches of real stores; minimum before maximum is our choice.
enum ValidationPredicates {
    struct Check {
        var predicate: PredicateNode
        var warning: Int64
    }

    /// The checks of the attribute `attribute` points to, read in place rather than copied.
    static func of(_ attribute: UnsafePointer<Attribute>) -> [Check] {
        var checks = [Check]()
        switch attribute.pointee.type {
        case _ where attribute.pointee.type.isNumeric:
            let integer = attribute.pointee.type.isInteger
            if let min = attribute.pointee.minValueString.flatMap({ number($0, integer: integer) }) {
                checks.append(Check(predicate: compare(.evaluatedObject, .greaterThanOrEqual, min), warning: 1620))
            }
            if let max = attribute.pointee.maxValueString.flatMap({ number($0, integer: integer) }) {
                checks.append(Check(predicate: compare(.evaluatedObject, .lessThanOrEqual, max), warning: 1610))
            }
        case .string:
            let length = ExpressionNode.keyPath(operand: .evaluatedObject, path: "length")
            if let min = attribute.pointee.minValueString.flatMap({ number($0, integer: true) }) {
                checks.append(Check(predicate: compare(length, .greaterThanOrEqual, min), warning: 1670))
            }
            if let max = attribute.pointee.maxValueString.flatMap({ number($0, integer: true) }) {
                checks.append(Check(predicate: compare(length, .lessThanOrEqual, max), warning: 1660))
            }
        case .date:
            let seconds = ExpressionNode.keyPath(operand: .evaluatedObject, path: "timeIntervalSinceReferenceDate")
            if let min = attribute.pointee.minDateTimeInterval.flatMap({ number($0, integer: false) }) {
                checks.append(Check(predicate: compare(seconds, .greaterThanOrEqual, min), warning: 1640))
            }
            if let max = attribute.pointee.maxDateTimeInterval.flatMap({ number($0, integer: false) }) {
                checks.append(Check(predicate: compare(seconds, .lessThanOrEqual, max), warning: 1630))
            }
        default:
            break
        }
        if let pattern = attribute.pointee.regularExpressionString, attribute.pointee.type == .string {
            checks.append(
                Check(predicate: compare(.evaluatedObject, .matches, .constant(.string(pattern))), warning: 1680))
        }
        return checks
    }

    private static func compare(_ left: ExpressionNode, _ op: ComparisonOperator, _ right: ExpressionNode) -> PredicateNode {
        .comparison(left, op, right, options: [], modifier: .direct)
    }

    /// An integer constant for integer attributes and lengths, a real one otherwise.
    private static func number(_ text: String, integer: Bool) -> ExpressionNode? {
        if integer, let value = Int64(text) { return .constant(.integer(value)) }
        return Double(text).map { .constant(.real($0)) }
    }

    /// The archived predicates of `checks`, made for the attribute `attribute` points to: a
    /// decimal attribute's bounds are NSDecimalNumber constants of the exact text, as Xcode
    /// archives them, where other numbers are NSNumbers.
    static func archived(_ checks: [Check], of attribute: UnsafePointer<Attribute>) -> [ArchivedObject] {
        checks.map { check in
            let object = PredicateArchiver.archive(check.predicate)
            let bound = check.warning == 1620 ? attribute.pointee.minValueString : attribute.pointee.maxValueString
            guard attribute.pointee.type == .decimal, let text = bound, let right = object["NSRightExpression"]?.object else {
                return object
            }
            right["NSConstantValue"] = .object(AttributeValues.DecimalNumber(text).object())
            return object
        }
    }

    /// Puts the bounds a decoded attribute's predicates describe back into its XML fields.
    static func restore(_ predicates: [PredicateNode], into attribute: inout Attribute) {
        for predicate in predicates {
            guard case .comparison(let left, let op, .constant(let value), _, _) = predicate else { continue }
            let text: String
            switch value {
            case .integer(let number): text = String(number)
            case .real(let number): text = PredicateFormatter.format(ExpressionNode.constant(.real(number)))
            case .string(let pattern):
                if op == .matches { attribute.regularExpressionString = pattern }
                continue
            default: continue
            }
            let isDate = left == .keyPath(operand: .evaluatedObject, path: "timeIntervalSinceReferenceDate")
            switch (op, isDate) {
            case (.greaterThanOrEqual, false): attribute.minValueString = text
            case (.lessThanOrEqual, false): attribute.maxValueString = text
            case (.greaterThanOrEqual, true): attribute.minDateTimeInterval = text
            case (.lessThanOrEqual, true): attribute.maxDateTimeInterval = text
            default: break
            }
        }
    }
}
