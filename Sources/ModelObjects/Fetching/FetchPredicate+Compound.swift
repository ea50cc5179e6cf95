import ModelExpression

/// Predicates made of others (`NSCompoundPredicate`): all of them, any of them, or not one.
extension FetchPredicate {
    /// How a compound predicate joins its subpredicates (`NSCompoundPredicate.LogicalType`).
    public enum LogicalType: UInt, Sendable {
        /// The negation of the first subpredicate.
        case not = 0
        /// True when every subpredicate is.
        case and = 1
        /// True when any subpredicate is.
        case or = 2
    }

    /// Joins `subpredicates` with `type`: `AND` of none is `TRUEPREDICATE`, `OR` of none
    /// `FALSEPREDICATE`, as `NSCompoundPredicate` evaluates them; `NOT` negates the first. The
    /// first format error among them is kept as the compound's.
    public init(type: LogicalType, subpredicates: [FetchPredicate]) {
        let nodes = subpredicates.map(\.node)
        let node: PredicateNode = switch type {
        case .and: nodes.isEmpty ? .truePredicate : .and(nodes)
        case .or: nodes.isEmpty ? .falsePredicate : .or(nodes)
        case .not: .not(nodes.first ?? .truePredicate)
        }
        self.init(node: node, error: subpredicates.lazy.compactMap(\.formatError).first)
    }

    /// True when every one of `subpredicates` is.
    public init(andPredicateWithSubpredicates subpredicates: [FetchPredicate]) {
        self.init(type: .and, subpredicates: subpredicates)
    }

    /// True when any of `subpredicates` is.
    public init(orPredicateWithSubpredicates subpredicates: [FetchPredicate]) {
        self.init(type: .or, subpredicates: subpredicates)
    }

    /// True when `subpredicate` is not.
    public init(notPredicateWithSubpredicate subpredicate: FetchPredicate) {
        self.init(type: .not, subpredicates: [subpredicate])
    }
}
