import GRDB
import ModelExpression
import ModelSchema

/// A fetch of one entity's rows as SQL: which rows (a predicate, translated by
/// `PredicateTranslator`), in which order, how many.
///
/// The statements use the functions and collations ``CoreDataFunctions`` registers; a predicate
/// or sort key SQL cannot answer as the evaluator would throws ``PredicateTranslationError``.
package struct StoreFetch: Sendable {
    package var entity: String
    package var includesSubentities = true
    package var predicate: PredicateNode?
    package var sortKeys: [SortKey] = []
    package var limit: Int?
    package var offset: Int?
    /// The key space of the store the statement runs in: objects a predicate names are matched
    /// by their primary key there, and objects of other stores match no row.
    package var keys = KeySpace.first

    package init(entity: String) { self.entity = entity }

    /// `SELECT columns` of the matching rows, sorted by the sort keys and then `Z_PK`.
    package func select(_ columns: [String], layout: StoreLayout, entities: EntityHierarchy) throws -> StoreStatement {
        var translator = PredicateTranslator(layout: layout, entities: entities, entity: entity, keys: keys)
        let condition = try self.condition(&translator, layout, entities)
        let order = try sortKeys.map { try translator.sortTerm($0) } + ["t0.Z_PK"]
        var sql = "SELECT \(columns.joined(separator: ", ")) \(try from(layout, translator))\(condition) ORDER BY \(order.joined(separator: ", "))"
        if limit != nil || offset != nil { sql += " LIMIT \(limit ?? -1) OFFSET \(offset ?? 0)" }
        return StoreStatement(sql: sql, arguments: StatementArguments(translator.arguments))
    }

    /// `SELECT COUNT(*)` of the matching rows.
    package func count(layout: StoreLayout, entities: EntityHierarchy) throws -> StoreStatement {
        var translator = PredicateTranslator(layout: layout, entities: entities, entity: entity, keys: keys)
        let condition = try self.condition(&translator, layout, entities)
        return StoreStatement(sql: "SELECT COUNT(*) \(try from(layout, translator))\(condition)", arguments: StatementArguments(translator.arguments))
    }

    /// `FROM table t0` and the joins the predicate and sort keys need.
    private func from(_ layout: StoreLayout, _ translator: PredicateTranslator) throws -> String {
        guard let found = layout.entity(named: entity) else { throw PredicateTranslationError("the store has no entity '\(entity)'") }
        return "FROM \(found.table) t0\(translator.outerJoins)"
    }

    /// ` WHERE` with the entity test and the predicate's condition; empty when neither is needed.
    /// The entity test is left out when every entity of the table matches (a root fetched with
    /// its subentities, or an entity alone in its table), so that a count is SQLite's own count.
    private func condition(_ translator: inout PredicateTranslator, _ layout: StoreLayout, _ entities: EntityHierarchy) throws -> String {
        guard let found = layout.entity(named: entity) else { throw PredicateTranslationError("the store has no entity '\(entity)'") }
        let numbers = includesSubentities
            ? layout.entities.filter { entities.isKind($0.name, of: entity) }.map { String($0.number) } : [String(found.number)]
        let sharesTable = layout.entities.contains { $0.table == found.table && !numbers.contains(String($0.number)) }
        var terms = sharesTable ? ["t0.Z_ENT IN (\(numbers.joined(separator: ", ")))"] : []
        if let predicate { terms.append(try translator.condition(predicate)) }
        return terms.isEmpty ? "" : " WHERE " + terms.joined(separator: " AND ")
    }
}
