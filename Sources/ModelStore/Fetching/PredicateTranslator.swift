import Foundation
import GRDB
import ModelExpression
import ModelSchema

/// Translates a fetch's predicate and sort keys into SQL on Core Data's tables, so that the
/// store returns exactly the rows ``ExpressionEvaluator`` with ``ExpressionEvaluator/NilSemantics/store``
/// matches (Documentation/Predicates.md).
///
/// Key paths through to-ones become `LEFT OUTER JOIN`s (`t1`, `t2`, …), to-manys correlated
/// subqueries (`EXISTS` for `ANY`, `NOT EXISTS` for `ALL` and `NONE`, `COUNT`/`SUM`/`AVG`/`MIN`/`MAX`
/// for collection operators and `SUBQUERY(…).@count`); values are bound as numbered parameters
/// encoded as their columns hold them. What SQL cannot answer alike throws
/// ``PredicateTranslationError``. Recursion follows the predicate's tree, which the parser bounds.
struct PredicateTranslator {
    /// A table alias and the entity whose rows it reads.
    struct RowSource {
        var alias: String
        var entity: String
    }

    /// A `LEFT OUTER JOIN` of a to-one's destination, keyed by the alias and relationship it follows.
    struct Join {
        var key: String
        var alias: String
        var sql: String
    }

    let layout: StoreLayout
    let entities: EntityHierarchy
    /// The key space of the store the statement runs in.
    let keys: KeySpace
    /// The values of the `?NNN` parameters, in number order.
    private(set) var arguments: [DatabaseValue] = []
    private var aliasCount = 0
    /// The joins of each query being built, the outer query first.
    var scopes: [[Join]] = [[]]
    /// What `SELF` is: the fetched row, or a `SUBQUERY`'s element.
    var selfRow: RowSource
    /// The rows `SUBQUERY` variables stand for.
    var variables: [String: RowSource] = [:]

    init(layout: StoreLayout, entities: EntityHierarchy, entity: String, keys: KeySpace = .first) {
        self.layout = layout
        self.entities = entities
        self.keys = keys
        selfRow = RowSource(alias: "t0", entity: entity)
    }

    /// The joins of the outer query, each with a leading space.
    var outerJoins: String { scopes[0].map { " " + $0.sql }.joined() }

    // MARK: - Predicates

    /// The SQL condition of `predicate`.
    mutating func condition(_ predicate: PredicateNode) throws -> String {
        switch predicate {
        case .truePredicate: return "1"
        case .falsePredicate: return "0"
        case .and(let parts): return "(" + (try parts.map { try condition($0) }).joined(separator: " AND ") + ")"
        case .or(let parts): return "(" + (try parts.map { try condition($0) }).joined(separator: " OR ") + ")"
        case .not(let part): return "(NOT \(try condition(part)))"
        case .comparison(let left, let op, let right, let options, let modifier):
            guard modifier != .direct else { return try compare(try operand(left), op, try operand(right), options) }
            guard case .toMany(let owner, let relationship, let rest) = try operand(left) else {
                throw PredicateTranslationError("ANY and ALL need a to-many key path on the left, not '\(PredicateFormatter.format(left))'")
            }
            let body = try subquery(relationship, from: owner) { translator, element in
                let lhs = try translator.resolve(rest, from: element)
                let condition = try translator.compare(lhs, op, try translator.operand(right), options)
                return ("1", modifier == .any ? condition : "NOT COALESCE(\(condition), 0)")
            }
            return modifier == .any ? "EXISTS \(body)" : "NOT EXISTS \(body)"
        }
    }

    // MARK: - Sorting

    /// The `ORDER BY` term of a sort key: a key path to an attribute, through to-ones.
    mutating func sortTerm(_ key: SortKey) throws -> String {
        let keys = key.keyPath.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard case .scalar(let sql, let type) = try resolve(keys, from: selfRow) else {
            throw PredicateTranslationError("cannot sort by '\(key.keyPath)': it is not an attribute reached through to-one relationships")
        }
        let collation = type == .string ? key.comparison.collation.map { " COLLATE \($0)" } ?? "" : ""
        return sql + collation + (key.ascending ? "" : " DESC")
    }

    // MARK: - Parameters and aliases

    /// `?NNN` bound to `value`; text holding U+0000 as its UTF-8 bytes cast back to text, since
    /// GRDB binds text only up to its first NUL and the comparison would see less of it.
    mutating func parameter(_ value: DatabaseValue) -> String {
        if case .string(let text) = value.storage, text.utf8.contains(0) {
            arguments.append(Data(text.utf8).databaseValue)
            return "CAST(?\(arguments.count) AS TEXT)"
        }
        arguments.append(value)
        return "?\(arguments.count)"
    }

    mutating func newAlias() -> String {
        aliasCount += 1
        return "t\(aliasCount)"
    }

    /// The alias of the destination of a to-one followed from `source`, joined once per query.
    mutating func join(_ relationship: Relationship, column: String, from source: RowSource) throws -> RowSource {
        let key = "\(source.alias).\(relationship.name)"
        let destination = relationship.destinationEntityName
        for scope in scopes {
            if let found = scope.first(where: { $0.key == key }) { return RowSource(alias: found.alias, entity: destination) }
        }
        guard let table = layout.entity(named: destination)?.table else {
            throw PredicateTranslationError("the store has no table for '\(destination)'")
        }
        let alias = newAlias()
        scopes[scopes.count - 1].append(Join(key: key, alias: alias, sql: "LEFT OUTER JOIN \(table) \(alias) ON \(alias).Z_PK = \(source.alias).\(column)"))
        return RowSource(alias: alias, entity: destination)
    }

    /// A correlated subquery over the objects a to-many of `owner` links to, as the object
    /// layer reads them (`ObjectRowReader.related`): `body` gives the selected expression and
    /// the condition on each element, with joins of its own.
    mutating func subquery(
        _ relationship: Relationship, from owner: RowSource, _ body: (inout PredicateTranslator, RowSource) throws -> (String, String?)
    ) throws -> String {
        let destination = relationship.destinationEntityName
        guard let storage = RelationshipStorage(relationship, of: owner.entity, entities: entities, layout: layout),
            let table = layout.entity(named: destination)?.table
        else { throw PredicateTranslationError("the store has no links for '\(owner.entity).\(relationship.name)'") }
        let alias = newAlias()
        let from: String
        let link: String
        switch storage {
        case .inverseForeignKey(_, let column, _, _):
            let kinds = layout.entities.filter { entities.isKind($0.name, of: destination) }.map { String($0.number) }
            from = "\(table) \(alias)"
            link = "\(alias).\(column) = \(owner.alias).Z_PK AND \(alias).Z_ENT IN (\(kinds.joined(separator: ", ")))"
        case .joinTable(let joinTable, let own, let other):
            let joinAlias = newAlias()
            from = "\(joinTable) \(joinAlias) JOIN \(table) \(alias) ON \(alias).Z_PK = \(joinAlias).\(other)"
            link = "\(joinAlias).\(own) = \(owner.alias).Z_PK"
        case .hiddenInverse(_, let column):
            from = "\(table) \(alias)"
            link = "\(alias).\(column) = \(owner.alias).Z_PK"
        case .foreignKey:
            throw PredicateTranslationError("'\(relationship.name)' is not a to-many")
        }
        scopes.append([])
        let (selected, condition) = try body(&self, RowSource(alias: alias, entity: destination))
        let joins = scopes.removeLast().map { " " + $0.sql }.joined()
        return "(SELECT \(selected) FROM \(from)\(joins) WHERE \(link)\(condition.map { " AND \($0)" } ?? ""))"
    }
}
