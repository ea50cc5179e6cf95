import Foundation
import GRDB
import ModelArchive
import ModelExpression
import ModelSchema
import ModelStore

/// The fast path of an entity mapping without a policy: its instances created with one
/// `INSERT … SELECT` over the source table (attached to the destination's connection as
/// `modelc_source`), its to-one relationships set with one `UPDATE` each. Plain copies and
/// constants stay in SQL; any other expression is evaluated per row by the Swift evaluator
/// through the SQL function `modelc_value`, and a filter through `modelc_filter`, so the
/// results are the per-row path's.
struct SetBasedMapping {
    let context: MigrationContext
    let mapping: ModelSchema.EntityMapping
    let index: Int
    let functions: SQLFunctions

    private var db: Database { context.destination.db }

    /// Whether pass 1 can run in SQL: no policy, and a source and a concrete destination entity.
    static func canCreate(_ mapping: ModelSchema.EntityMapping, in context: MigrationContext) -> Bool {
        guard (mapping.policyClassName ?? "").isEmpty, mapping.type != .add, mapping.type != .remove,
            let source = mapping.sourceExpression?.entityName ?? mapping.sourceEntityName, context.source.layout.entity(named: source) != nil,
            let destination = mapping.destinationEntityName, let entity = context.destination.entities.entity(named: destination), !entity.isAbstract
        else { return false }
        return true
    }

    // MARK: - Instances

    /// Creates the mapping's instances and their associations; returns how many.
    func createInstances() throws -> Int {
        guard let sourceName = mapping.sourceExpression?.entityName ?? mapping.sourceEntityName,
            let destinationName = mapping.destinationEntityName,
            let source = context.source.layout.entity(named: sourceName), let destination = context.destination.layout.entity(named: destinationName),
            let destinationEntity = context.destination.entities.entity(named: destinationName)
        else { return 0 }
        let base = try context.destination.lastPrimaryKey(ofTableOf: destinationName)
        var filter = ""
        if let predicate = mapping.sourceExpression?.predicate, predicate != SourceExpression.noFilter {
            let number = try functions.register(filter: mapping, entity: sourceName)
            filter = " AND modelc_filter(\(number), s.Z_PK)"
        }
        try execute(
            """
                INSERT INTO temp.modelc_association (mapping, source_entity, source_key, destination_entity, destination_key)
                SELECT ?, ?, s.Z_PK, ?, ? + ROW_NUMBER() OVER (ORDER BY s.Z_PK) FROM modelc_source.\(source.table) s WHERE s.Z_ENT = ?\(filter)
                """,
            [index, sourceName, destinationName, base, source.number])
        let created = db.changesCount
        var columns = ["Z_PK", "Z_ENT", "Z_OPT"], values = ["a.destination_key", String(destination.number), "1"]
        var arguments = [DatabaseValue]()
        let byName = Dictionary(mapping.attributeMappings.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        for attribute in context.destination.entities.attributes(of: destinationEntity) {
            guard let column = destination.columns[attribute.name] else { continue }
            guard let value = try value(of: attribute, byName[attribute.name], source: source, sourceName: sourceName, arguments: &arguments) else { continue }
            columns.append(column)
            values.append(value)
        }
        try execute(
            """
                INSERT INTO main.\(destination.table) (\(columns.joined(separator: ", "))) SELECT \(values.joined(separator: ", "))
                FROM temp.modelc_association a JOIN modelc_source.\(source.table) s ON s.Z_PK = a.source_key WHERE a.mapping = \(index)
                """,
            StatementArguments(arguments))
        try context.destination.claimPrimaryKeys(upTo: base + Int64(created), forTableOf: destinationName)
        return created
    }

    /// Runs a statement that may call the SQL functions: their failure, with its class, is
    /// what is thrown.
    private func execute(_ sql: String, _ arguments: StatementArguments) throws {
        do {
            try db.execute(sql: sql, arguments: arguments)
        } catch {
            try functions.check()
            throw error
        }
        try functions.check()
    }

    /// The SQL of one destination attribute's value over the source row `s`: a column, a bound
    /// constant, its default, or `modelc_value(…)`; nil to leave the column empty.
    private func value(
        of attribute: Attribute, _ property: ModelSchema.PropertyMapping?, source: EntityLayout, sourceName: String, arguments: inout [DatabaseValue]
    ) throws -> String? {
        guard let property, let node = try context.parsed(property) else {
            guard let fallback = StoredDefault(of: attribute) else { return nil }
            return fallback.sql
        }
        switch node {
        case .keyPath(.variable("source"), let key) where !key.contains("."):
            if let old = context.source.attribute(key, of: sourceName), let column = source.columns[key], Self.sameStorage(old.type, attribute.type) {
                return "s.\(column)"
            }
        case .constant(let constant):
            arguments.append(try StoredValue.encode(ExpressionEvaluator.value(of: constant), as: attribute.type))
            return "?"
        default:
            break
        }
        return "modelc_value(\(functions.register(value: property, attribute: attribute, mapping: mapping, entity: sourceName)), s.Z_PK)"
    }

    /// Whether a column of type `old` holds exactly what one of type `new` would.
    private static func sameStorage(_ old: AttributeType, _ new: AttributeType) -> Bool {
        old == new || (old.isInteger && new.isInteger && old != .boolean && new != .boolean)
    }

    // MARK: - Relationships

    /// The to-one relationship mappings as (destination column, entity column and number, source
    /// foreign key, target mapping), when every relationship mapping is of that kind; else nil.
    func toOneLinks() throws -> [(column: String, entityColumn: String?, number: Int, sourceKey: String, target: Int)]? {
        guard (mapping.policyClassName ?? "").isEmpty, let sourceName = mapping.sourceEntityName, let destinationName = mapping.destinationEntityName,
            let source = context.source.layout.entity(named: sourceName), let destination = context.destination.layout.entity(named: destinationName)
        else { return nil }
        var links = [(column: String, entityColumn: String?, number: Int, sourceKey: String, target: Int)]()
        for property in mapping.relationshipMappings {
            guard let node = try context.parsed(property) else { continue }
            guard case .function(.variable("manager")?, "destinationInstancesForEntityMappingNamed:sourceInstances:", let arguments) = node,
                arguments.count == 2, case .constant(.string(let targetName)) = arguments[0],
                case .keyPath(.variable("source"), let key) = arguments[1], !key.contains("."),
                let old = context.source.entities.relationship(named: key, in: sourceName), !old.isToMany, let sourceKey = source.columns[key],
                let new = context.destination.entities.relationship(named: property.name, in: destinationName), !new.isToMany,
                context.destination.entities.inverse(of: new)?.isToMany ?? true, let column = destination.columns[property.name],
                let target = try? context.index(ofMapping: targetName),
                let targetEntity = context.mappingModel.entityMappings[target].destinationEntityName,
                context.destination.entities.isKind(targetEntity, of: new.destinationEntityName),
                let number = context.destination.layout.entity(named: targetEntity)?.number
            else { return nil }
            links.append((column, destination.entityColumns[property.name], number, sourceKey, target))
        }
        return links
    }

    /// Sets the to-one links in SQL; returns how many were set.
    func createRelationships(_ links: [(column: String, entityColumn: String?, number: Int, sourceKey: String, target: Int)]) throws -> Int {
        guard let sourceName = mapping.sourceEntityName, let destinationName = mapping.destinationEntityName,
            let source = context.source.layout.entity(named: sourceName), let destination = context.destination.layout.entity(named: destinationName)
        else { return 0 }
        var set = 0
        let mine = "Z_PK IN (SELECT destination_key FROM temp.modelc_association WHERE mapping = \(index))"
        for link in links {
            try db.execute(sql: """
                UPDATE main.\(destination.table) SET \(link.column) = (SELECT t.destination_key FROM temp.modelc_association a
                  JOIN modelc_source.\(source.table) s ON s.Z_PK = a.source_key
                  JOIN temp.modelc_association t ON t.source_key = s.\(link.sourceKey) AND t.mapping = \(link.target)
                  WHERE a.mapping = \(index) AND a.destination_key = main.\(destination.table).Z_PK LIMIT 1)
                WHERE Z_ENT = \(destination.number) AND \(mine)
                """)
            if let entityColumn = link.entityColumn {
                try db.execute(sql: "UPDATE main.\(destination.table) SET \(entityColumn) = CASE WHEN \(link.column) IS NULL THEN NULL ELSE \(link.number) END WHERE Z_ENT = \(destination.number) AND \(mine)")
            }
            set += try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM main.\(destination.table) WHERE Z_ENT = \(destination.number) AND \(link.column) IS NOT NULL AND \(mine)") ?? 0
        }
        return set
    }
}
