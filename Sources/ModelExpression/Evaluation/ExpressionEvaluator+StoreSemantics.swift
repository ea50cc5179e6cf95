/// Predicates as Core Data's SQLite store answers them (``ExpressionEvaluator/NilSemantics/store``):
/// SQL's three-valued logic, so that the objects a context merges into a fetch are those the
/// store's SQL would have returned.
///
/// A comparison is unknown (`nil`) when a value it compares is `nil`, except `== nil` and
/// `!= nil` written as literals (SQL `IS NULL`, `IS NOT NULL`); `AND`, `OR` and `NOT` follow
/// Kleene's logic; `ANY` holds when one element's comparison is true (SQL `EXISTS`), `ALL` when
/// every element's is (an unknown one counts as false, `NOT EXISTS … WHERE NOT COALESCE(…, 0)`).
extension ExpressionEvaluator {
    /// `AND` (`decisive` false) or `OR` (`decisive` true) in Kleene's logic: a part with the
    /// decisive value decides, else the result is unknown when any part is.
    private func kleene(_ parts: [PredicateNode], on object: EvaluatedValue, decisive: Bool) throws -> Bool? {
        var result: Bool? = !decisive
        for part in parts {
            guard let truth = try truth(of: part, on: object) else {
                result = nil
                continue
            }
            if truth == decisive { return decisive }
        }
        return result
    }

    /// Whether `predicate` holds for `object` (`nil` for unknown).
    func truth(of predicate: PredicateNode, on object: EvaluatedValue) throws -> Bool? {
        switch predicate {
        case .truePredicate:
            return true
        case .falsePredicate:
            return false
        case .and(let parts):
            return try kleene(parts, on: object, decisive: false)
        case .or(let parts):
            return try kleene(parts, on: object, decisive: true)
        case .not(let part):
            return try truth(of: part, on: object).map { !$0 }
        case .comparison(let left, let op, let right, let options, let modifier):
            let lhs = try evaluate(left, on: object)
            let rhs = try evaluate(right, on: object)
            let hasNilLiteral = left == .constant(.null) || right == .constant(.null)
            switch modifier {
            case .direct:
                return try truth(lhs, op, rhs, options, hasNilLiteral: hasNilLiteral)
            case .any:
                return try lhs.elements.contains { try truth($0, op, rhs, options, hasNilLiteral: hasNilLiteral) == true }
            case .all:
                return try lhs.elements.allSatisfy { try truth($0, op, rhs, options, hasNilLiteral: hasNilLiteral) == true }
            }
        }
    }

    /// One comparison of two values under the store's rule.
    private func truth(_ lhs: EvaluatedValue, _ op: ComparisonOperator, _ rhs: EvaluatedValue, _ options: ComparisonOptions, hasNilLiteral: Bool)
        throws -> Bool?
    {
        if hasNilLiteral {
            switch op {
            case .equal: return lhs.isNull && rhs.isNull
            case .notEqual: return !(lhs.isNull && rhs.isNull)
            default: return nil
            }
        }
        if op == .in, case .collection(let items) = rhs {
            // SQL's `x IN (…)`: false for an empty list, unknown for a nil `x`, or for a miss when the list holds nil.
            if items.isEmpty { return false }
            if lhs.isNull { return nil }
            if items.contains(where: { Comparison.equal(lhs, $0, options) }) { return true }
            return items.contains(.null) ? nil : false
        }
        if op == .between, rhs.elements.contains(.null) { return nil }
        if lhs.isNull || rhs.isNull { return nil }
        return try Comparison.holds(lhs, op, rhs, options: options)
    }
}
