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
    /// One registered property mapping, with everything a row does not change prepared once:
    /// its parsed expression, a scope and evaluator reused from row to row, and the source
    /// attributes passed along with their types.
    private final class ValueFunction {
        let node: ExpressionNode
        let scope: ExpressionScope
        let evaluator: ExpressionEvaluator
        let type: AttributeType
        let entity: String
        let keys: [(name: String, type: AttributeType)]

        init(node: ExpressionNode, scope: ExpressionScope, type: AttributeType, entity: String, keys: [(name: String, type: AttributeType)]) {
            self.node = node
            self.scope = scope
            self.evaluator = ExpressionEvaluator(context: scope)
            self.type = type
            self.entity = entity
            self.keys = keys
        }
    }

    private let context: MigrationContext
    private var values: [ValueFunction] = []
    /// Per registered filter: its parsed predicate, the source entity, and an evaluator over a
    /// scope of its mapping, made once rather than for every row.
    private var filters: [(predicate: PredicateNode, entity: String, evaluator: ExpressionEvaluator)] = []
    private var failure: (any Error)?

    /// Registers both functions on the destination's connection, their text read and returned
    /// whole (``WholeTextFunction``) so that a string holding U+0000 is migrated as it is.
    /// - Throws: `DatabaseError` when SQLite refuses a function.
    init(context: MigrationContext) throws {
        self.context = context
        try WholeTextFunction("modelc_value") { [unowned self] arguments in
            try self.value(arguments)
        }.install(in: context.destination.db)
        try WholeTextFunction("modelc_filter", argumentCount: 2) { [unowned self] arguments in
            try self.filter(arguments)
        }.install(in: context.destination.db)
    }

    /// Registers a property mapping with its parsed expression, passed the values of the source
    /// attributes `keys` (in that order); returns its number for `modelc_value`.
    func register(
        value property: PropertyMapping, node: ExpressionNode, attribute: Attribute, mapping: EntityMapping, entity: String,
        passing keys: [String]
    ) -> Int {
        let scope = ExpressionScope(context: context, mapping: mapping)
        scope.property = property
        let typed = keys.compactMap { key in context.source.attribute(key, of: entity).map { (key, $0.type) } }
        values.append(ValueFunction(node: node, scope: scope, type: attribute.type, entity: entity, keys: typed))
        return values.count - 1
    }

    /// Registers an entity mapping's filter; returns its number for `modelc_filter`.
    func register(filter mapping: EntityMapping, entity: String) throws -> Int {
        let evaluator = ExpressionEvaluator(context: ExpressionScope(context: context, mapping: mapping))
        filters.append((try mapping.sourceExpression?.parsedPredicate() ?? .truePredicate, entity, evaluator))
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
            let function = values[number]
            let scope = function.scope
            scope.source = .object(ObjectReference(side: .source, entity: function.entity, primaryKey: key))
            for (offset, key) in function.keys.enumerated() where arguments.count > offset + 2 {
                scope.sourceValues[key.name] = StoredValue.decode(arguments[offset + 2], as: key.type)
            }
            let value = try scope.evaluate(function.node, with: function.evaluator)
            do {
                return try StoredValue.encode(value, as: function.type)
            } catch {
                throw MigrationError(
                    .policyFailed, path: context.path,
                    message: "entity mapping '\(scope.mapping?.name ?? "")', property '\(scope.property?.name ?? "")': '\(scope.property?.valueExpression ?? "")' gives \(error)")
            }
        }
    }

    private func filter(_ arguments: [DatabaseValue]) throws -> Bool {
        try recording {
            let (number, key) = try Self.arguments(arguments, count: filters.count)
            let entry = filters[number]
            return try entry.evaluator.evaluate(entry.predicate, on: .object(ObjectReference(side: .source, entity: entry.entity, primaryKey: key)))
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
