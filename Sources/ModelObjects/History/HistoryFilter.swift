import Foundation
import ModelExpression

/// A history fetch's `fetchRequest` applied to what it read, as Core Data tailors a history fetch
/// with one (WWDC 2019 session 230, WWDC 2020 session 10017): a request of Core Data's
/// `TRANSACTION` entity keeps the transactions its predicate matches; one of `CHANGE` keeps the
/// changes it matches and the transactions left with any.
///
/// Predicates read a transaction's `author`, `bundleID`, `contextName`, `processID`, `timestamp`,
/// `transactionNumber` and `token` (its number, so `token > %@` takes a ``HistoryToken``), and a
/// change's `changeID`, `changeType` (the raw value), `changedEntity` (`changedEntity == %@` takes
/// an entity description) and `changedObjectID`. They are evaluated with the store's rule for
/// `nil` (``ExpressionEvaluator/NilSemantics/store``), as Core Data answers them in SQL:
/// `author != %@` leaves out transactions without an author.
struct HistoryFilter {
    /// Which records the predicate is of.
    private enum Kind {
        case transactions
        case changes
    }

    private let kind: Kind
    private let predicate: PredicateNode?

    /// The filter of `request`; 134060 for a request of an entity other than Core Data's two.
    init(_ request: FetchRequest<Any>) throws {
        switch request.entityName {
        case HistoryTransaction.entityName: kind = .transactions
        case HistoryChange.entityName: kind = .changes
        default:
            throw ContextError.make(
                134060,
                "a history fetch's fetchRequest is of \(HistoryTransaction.entityName) or \(HistoryChange.entityName) (HistoryTransaction.fetchRequest, HistoryChange.fetchRequest), not '\(request.entityName)'")
        }
        predicate = request.predicate?.node
    }

    /// The transactions and changes of `transactions` the predicate keeps, in their order; 134060
    /// naming a key the history entity has not or a comparison that cannot be made.
    func apply(to transactions: [HistoryTransaction]) throws -> [HistoryTransaction] {
        guard let predicate else { return transactions }
        do {
            switch kind {
            case .transactions:
                return try transactions.filter { try Self.matches(predicate, Values(of: $0)) }
            case .changes:
                return try transactions.compactMap { transaction in
                    let changes = try transaction.changes.filter { try Self.matches(predicate, Values(of: $0)) }
                    return changes.isEmpty ? nil : transaction.with(changes: changes)
                }
            }
        } catch let error as EvaluationError {
            throw ContextError.make(134060, "the history fetch's predicate cannot be evaluated: \(error.message)")
        }
    }

    /// Whether the record whose keys `values` holds satisfies `predicate`.
    private static func matches(_ predicate: PredicateNode, _ values: Values) throws -> Bool {
        try ExpressionEvaluator(context: values, nilSemantics: .store).evaluate(predicate, on: Values.record)
    }

    /// One transaction's or change's values by key, as the evaluator reads them.
    private struct Values: EvaluationContext {
        /// The record the predicate's key paths start at.
        static let record = EvaluatedValue.receiver("history record")

        let entity: String
        let values: [String: EvaluatedValue]

        init(of transaction: HistoryTransaction) {
            entity = HistoryTransaction.entityName
            func text(_ value: String?) -> EvaluatedValue { value.map(EvaluatedValue.string) ?? .null }
            values = [
                "author": text(transaction.author), "bundleID": text(transaction.bundleID), "contextName": text(transaction.contextName),
                "processID": text(transaction.processID), "timestamp": .date(transaction.timestamp),
                "transactionNumber": .integer(transaction.transactionNumber), "token": .integer(transaction.transactionNumber),
            ]
        }

        init(of change: HistoryChange) {
            entity = HistoryChange.entityName
            values = [
                "changeID": .integer(change.changeID), "changeType": .integer(Int64(change.changeType.rawValue)),
                "changedEntity": .entity(change.changedObjectID.entityName), "changedObjectID": .object(ObjectReference(change.changedObjectID)),
            ]
        }

        func variable(_ name: String) throws -> EvaluatedValue {
            throw EvaluationError("the variable $\(name) has no value in a history fetch")
        }

        /// A key of the record; `name` of an entity description is its name.
        func value(forKey key: String, of target: EvaluatedValue) throws -> EvaluatedValue {
            if let name = target.entityName, key == "name" { return .string(name) }
            guard target == Self.record, let value = values[key] else {
                throw EvaluationError("\(entity) has no key '\(key)' a history fetch can read; it has \(values.keys.sorted().joined(separator: ", "))")
            }
            return value
        }

        func call(_ selector: String, on receiver: EvaluatedValue, arguments: [EvaluatedValue]) throws -> EvaluatedValue {
            throw EvaluationError("\(selector) cannot be called in a history fetch's predicate")
        }
    }
}
