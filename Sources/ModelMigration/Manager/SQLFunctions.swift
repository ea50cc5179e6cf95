import GRDB
import ModelExpression
import ModelSchema
import ModelStore

/// The SQL functions through which the set-based path asks the Swift evaluator for what SQL
/// cannot compute: `modelc_value(n, pk, values…)`, the value of the n-th registered property
/// mapping for the source row `pk` (with the values of the source attributes it reads, passed
/// along), encoded for its destination attribute, and `modelc_filter(n, pk)`,
/// whether the n-th registered entity mapping's filter selects the row. A failure is kept and
/// rethrown after the statement, with its class.
final class SQLFunctions: @unchecked Sendable {
    private let context: MigrationContext
    /// Per registered property mapping: the source attributes passed along, with their types
    /// looked up once here rather than for every row.
    private var values: [(property: ModelSchema.PropertyMapping, attribute: Attribute, mapping: ModelSchema.EntityMapping, entity: String, keys: [(name: String, type: AttributeType?)])] = []
    private var filters: [(predicate: PredicateNode, mapping: ModelSchema.EntityMapping, entity: String)] = []
    private var failure: (any Error)?

    /// Registers both functions on the destination's connection.
    init(context: MigrationContext) {
        self.context = context
        context.destination.db.add(function: DatabaseFunction("modelc_value") { [unowned self] arguments in
            try self.value(arguments)
        })
        context.destination.db.add(function: DatabaseFunction("modelc_filter", argumentCount: 2) { [unowned self] arguments in
            try self.filter(arguments)
        })
    }

    /// Registers a property mapping; returns its number for `modelc_value`.
    func register(
        value property: ModelSchema.PropertyMapping, attribute: Attribute, mapping: ModelSchema.EntityMapping, entity: String, passing keys: [String]
    ) -> Int {
        values.append((property, attribute, mapping, entity, keys.map { ($0, context.source.attribute($0, of: entity)?.type) }))
        return values.count - 1
    }

    /// Registers an entity mapping's filter; returns its number for `modelc_filter`.
    func register(filter mapping: ModelSchema.EntityMapping, entity: String) throws -> Int {
        filters.append((try mapping.sourceExpression?.parsedPredicate() ?? .truePredicate, mapping, entity))
        return filters.count - 1
    }

    /// Rethrows the failure of a function during the last statement.
    func check() throws {
        if let failure {
            self.failure = nil
            throw failure
        }
    }

    // MARK: - Functions

    private func value(_ arguments: [DatabaseValue]) throws -> DatabaseValue {
        try recording {
            let (number, key) = try Self.arguments(arguments, count: values.count)
            let entry = values[number]
            var scope = ExpressionScope(context: context, mapping: entry.mapping, source: .object(ObjectReference(side: .source, entity: entry.entity, primaryKey: key)))
            for (offset, key) in entry.keys.enumerated() where arguments.count > offset + 2 {
                guard let type = key.type else { continue }
                scope.sourceValues[key.name] = StoredValue.decode(arguments[offset + 2], as: type)
            }
            guard let value = try scope.evaluate(entry.property) else { return .null }
            do {
                return try StoredValue.encode(value, as: entry.attribute.type)
            } catch {
                throw MigrationError(
                    .policyFailed, path: context.path,
                    message: "entity mapping '\(entry.mapping.name)', property '\(entry.property.name)': '\(entry.property.valueExpression ?? "")' gives \(error)")
            }
        }
    }

    private func filter(_ arguments: [DatabaseValue]) throws -> Bool {
        try recording {
            let (number, key) = try Self.arguments(arguments, count: filters.count)
            let entry = filters[number]
            let evaluator = ExpressionEvaluator(context: ExpressionScope(context: context, mapping: entry.mapping))
            return try evaluator.evaluate(entry.predicate, on: .object(ObjectReference(side: .source, entity: entry.entity, primaryKey: key)))
        }
    }

    /// The registration number and the source row's key a function was called with.
    private static func arguments(_ arguments: [DatabaseValue], count: Int) throws -> (Int, Int64) {
        guard let number = Int.fromDatabaseValue(arguments[0]), (0..<count).contains(number), let key = Int64.fromDatabaseValue(arguments[1]) else {
            throw EvaluationError("modelc function called with bad arguments")
        }
        return (number, key)
    }

    /// Runs a function's body, keeping its first failure for ``check()``.
    private func recording<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch {
            failure = failure ?? error
            throw error
        }
    }
}
