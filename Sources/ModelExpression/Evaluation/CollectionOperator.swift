import Foundation

/// Key-value coding's collection operators (`@count`, `@sum`, `@avg`, `@min`, `@max`, and the
/// union operators), applied as `NSSet`/`NSArray` apply them to the values at the rest of the path.
enum CollectionOperator {
    /// The result of `@op.rest` on `value`.
    static func apply(_ op: String, to value: EvaluatedValue, path rest: String, evaluator: ExpressionEvaluator) throws -> EvaluatedValue {
        let elements = value.elements
        let values = rest.isEmpty ? elements : try elements.map { try evaluator.value(atPath: rest, of: $0) }
        switch op {
        case "@count":
            return .integer(Int64(values.count))
        case "@sum":
            return sum(of: values.filter { !$0.isNull })
        case "@avg":
            let present = values.filter { !$0.isNull }
            guard !present.isEmpty, let total = sum(of: present).number else { return .null }
            return .double(total / Double(present.count))
        case "@min", "@max":
            return try extreme(of: values, smallest: op == "@min")
        case "@unionOfObjects":
            return .collection(values.filter { !$0.isNull })
        case "@distinctUnionOfObjects":
            return .collection(distinct(values.filter { !$0.isNull }))
        case "@unionOfSets", "@unionOfArrays":
            return .collection(values.flatMap(\.elements))
        case "@distinctUnionOfSets", "@distinctUnionOfArrays":
            return .collection(distinct(values.flatMap(\.elements)))
        default:
            throw EvaluationError("unknown collection operator '\(op)'")
        }
    }

    /// The sum as NSNumber adds: integers stay integers, decimals stay decimals, anything else is a double.
    static func sum(of values: [EvaluatedValue]) -> EvaluatedValue {
        if values.allSatisfy({ if case .integer = $0 { true } else if case .bool = $0 { true } else { false } }) {
            return .integer(values.reduce(0) { $0 &+ Int64($1.number ?? 0) })
        }
        if values.allSatisfy({ if case .decimal = $0 { true } else { false } }) {
            return .decimal(values.reduce(Decimal(0)) { if case .decimal(let value) = $1 { $0 + value } else { $0 } })
        }
        return .double(values.reduce(0) { $0 + ($1.number ?? 0) })
    }

    /// The smallest or largest non-null value, compared as `compare:` does; `.null` when there is none.
    static func extreme(of values: [EvaluatedValue], smallest: Bool) throws -> EvaluatedValue {
        let present = values.filter { !$0.isNull }
        guard var best = present.first else { return .null }
        for candidate in present.dropFirst() {
            let order = try Comparison.order(candidate, best)
            if order == (smallest ? .orderedAscending : .orderedDescending) { best = candidate }
        }
        return best
    }

    /// The values without repeats, first occurrence first.
    private static func distinct(_ values: [EvaluatedValue]) -> [EvaluatedValue] {
        var seen = Set<EvaluatedValue>()
        return values.filter { seen.insert($0).inserted }
    }
}
