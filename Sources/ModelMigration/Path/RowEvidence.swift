import GRDB
import ModelSchema
import ModelStore

/// Decides from a store's rows the reasons for "impossible" that only data decides
/// (``RowCondition``): a new required attribute or relationship needs rows to fail on, an
/// attribute made required needs rows where it is empty.
enum RowEvidence {
    /// `mapping` with the conditions the store's rows disprove relaxed to notes; `layout` is
    /// `source` laid out.
    static func resolve(_ mapping: InferredMapping, source: ModelVersion, layout: StoreLayout, in db: Database) throws -> InferredMapping {
        guard !mapping.conditions.isEmpty else { return mapping }
        let hierarchy = EntityHierarchy(source)
        return try mapping.resolved { condition in
            guard let entity = layout.entity(named: condition.sourceEntity), try db.tableExists(entity.table) else { return true }
            let numbers = layout.entities.filter { hierarchy.isKind($0.name, of: entity.name) }.map { String($0.number) }
            var sql = "SELECT EXISTS (SELECT 1 FROM \(entity.table.quotedDatabaseIdentifier) WHERE Z_ENT IN (\(numbers.joined(separator: ", ")))"
            if let property = condition.emptyProperty {
                guard let column = entity.columns[property] else { return true }
                sql += " AND \(column) IS NULL"
            }
            return try Bool.fetchOne(db, sql: sql + ")") ?? true
        }
    }
}
