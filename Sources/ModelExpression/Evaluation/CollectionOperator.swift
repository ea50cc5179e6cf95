import Foundation

/// Key-value coding's collection operators (`@count`, `@sum`, `@avg`, `@min`, `@max`, and the
/// union operators), applied as `NSSet`/`NSArray` apply them to the values at the rest of the path.
enum CollectionOperator {
    /// The result of `@op` on `values` (the collection's elements, or the values at the rest of
    /// the path on each element).
    static func apply(_ op: String, to values: [EvaluatedValue]) throws -> EvaluatedValue {
        switch op {
        case "@count":
            return .integer(Int64(values.count))
        case "@sum":
            return sum(of: values.filter { !$0.isNull })
        case "@avg":
            let present = values.filter { !$0.isNull }
            guard !present.isEmpty else { return .null }
            return try Arithmetic.apply("divide:by:", sum(of: present), .integer(Int64(present.count)))
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
            var total: Int64 = 0
            for value in values {
                let (next, overflow) = total.addingReportingOverflow(Int64(value.number ?? 0))
                if overflow { return .double(values.reduce(0) { $0 + ($1.number ?? 0) }) }
                total = next
            }
            return .integer(total)
        }
        if values.allSatisfy({ if case .decimal = $0 { true } else if case .integer = $0 { true } else { false } }) {
            return .decimal(values.reduce(Decimal(0)) {
                switch $1 {
                case .decimal(let value): $0 + value
                case .integer(let value): $0 + Decimal(value)
                default: $0
                }
            })
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
