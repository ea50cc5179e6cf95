import Foundation
import GRDB
import ModelExpression
import ModelSchema

/// A sort key of a fetch: a key path, its direction and how strings compare.
public struct SortKey: Sendable, Hashable {
    public enum Comparison: Sendable, Hashable { case `default`, caseInsensitive, localized, localizedCaseInsensitive, localizedStandard }
    public var keyPath: String
    public var ascending: Bool
    public var comparison: Comparison

    public init(_ keyPath: String, ascending: Bool = true, comparison: Comparison = .default) {
        self.keyPath = keyPath
        self.ascending = ascending
        self.comparison = comparison
    }

    /// The same order in memory.
    public static func compare(_ a: EvaluatedValue, _ b: EvaluatedValue, by key: SortKey) -> ComparisonResult {
        let result: ComparisonResult
        switch (a, b) {
        case (.null, .null): result = .orderedSame
        case (.null, _): result = .orderedAscending
        case (_, .null): result = .orderedDescending
        case (.string(let x), .string(let y)):
            result = key.comparison == .default ? (x < y ? .orderedAscending : x == y ? .orderedSame : .orderedDescending) : x.caseInsensitiveCompare(y)
        default:
            let (x, y) = (a.number ?? 0, b.number ?? 0)
            result = x < y ? .orderedAscending : x == y ? .orderedSame : .orderedDescending
        }
        guard !key.ascending else { return result }
        return result == .orderedAscending ? .orderedDescending : result == .orderedDescending ? .orderedAscending : .orderedSame
    }
}

/// A fetch of one entity's rows (interim: comparisons of attributes with constants).
public struct StoreFetch: Sendable {
    public var entity: String
    public var includesSubentities = true
    public var predicate: PredicateNode?
    public var sortKeys: [SortKey] = []
    public var limit: Int?
    public var offset: Int?

    public init(entity: String) { self.entity = entity }

    public func select(_ columns: [String], layout: StoreLayout, entities: EntityHierarchy) throws -> StoreStatement {
        var (sql, arguments) = try base(layout, entities)
        sql = "SELECT \(columns.joined(separator: ", ")) " + sql
        let order = try sortKeys.map { key -> String in
            guard let column = layout.entity(named: entity)?.columns[key.keyPath] else { throw StoredValueError(message: "cannot sort by '\(key.keyPath)'") }
            return "t0.\(column)\(key.comparison == .default ? "" : " COLLATE NOCASE")\(key.ascending ? "" : " DESC")"
        }
        sql += " ORDER BY " + (order + ["t0.Z_PK"]).joined(separator: ", ")
        if limit != nil || offset != nil { sql += " LIMIT \(limit ?? -1) OFFSET \(offset ?? 0)" }
        return StoreStatement(sql: sql, arguments: StatementArguments(arguments))
    }

    public func count(layout: StoreLayout, entities: EntityHierarchy) throws -> StoreStatement {
        let (sql, arguments) = try base(layout, entities)
        return StoreStatement(sql: "SELECT COUNT(*) " + sql, arguments: StatementArguments(arguments))
    }

    private func base(_ layout: StoreLayout, _ entities: EntityHierarchy) throws -> (String, [DatabaseValue]) {
        guard let found = layout.entity(named: entity) else { throw StoredValueError(message: "no entity '\(entity)'") }
        let numbers = includesSubentities
            ? layout.entities.filter { entities.isKind($0.name, of: entity) }.map { String($0.number) } : [String(found.number)]
        var arguments = [DatabaseValue]()
        var sql = "FROM \(found.table) t0 WHERE t0.Z_ENT IN (\(numbers.joined(separator: ", ")))"
        if let predicate { sql += " AND " + (try condition(predicate, found, entities, &arguments)) }
        return (sql, arguments)
    }

    private func condition(_ node: PredicateNode, _ found: EntityLayout, _ entities: EntityHierarchy, _ arguments: inout [DatabaseValue]) throws -> String {
        switch node {
        case .truePredicate: return "1"
        case .falsePredicate: return "0"
        case .and(let parts): return "(" + (try parts.map { try condition($0, found, entities, &arguments) }).joined(separator: " AND ") + ")"
        case .or(let parts): return "(" + (try parts.map { try condition($0, found, entities, &arguments) }).joined(separator: " OR ") + ")"
        case .not(let part): return "NOT " + (try condition(part, found, entities, &arguments))
        case .comparison(.keyPath(.evaluatedObject, let key), let op, .constant(let constant), let options, .direct)
        where options.isEmpty && [.equal, .notEqual, .lessThan, .lessThanOrEqual, .greaterThan, .greaterThanOrEqual].contains(op):
            guard let column = found.columns[key], let attribute = entities.entity(named: entity).flatMap({ e in entities.attributes(of: e).first { $0.name == key } })
            else { throw StoredValueError(message: "cannot fetch by '\(key)'") }
            let value = try StoredValue.encode(ExpressionEvaluator.value(of: constant), as: attribute.type)
            if value.isNull { return op == .equal ? "t0.\(column) IS NULL" : "t0.\(column) IS NOT NULL" }
            arguments.append(value)
            return "t0.\(column) \(op == .equal ? "=" : op == .notEqual ? "<>" : op.symbol) ?"
        default:
            throw StoredValueError(message: "this predicate is not translated to SQL yet")
        }
    }
}
