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
    /// A to-one relationship mapping SQL sets: the destination column (and entity column with
    /// the target's entity number), the source's foreign key, and the target entity mapping.
    struct Link {
        var column: String
        var entityColumn: String?
        var number: Int
        var sourceKey: String
        var target: Int
    }

    let context: MigrationContext
    let mapping: EntityMapping
    let index: Int
    let functions: SQLFunctions

    private var db: Database { context.destination.db }

    /// Whether pass 1 can run in SQL: no policy, and a source and a concrete destination entity.
    static func canCreate(_ mapping: EntityMapping, in context: MigrationContext) -> Bool {
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
        var filter: String?
        if let predicate = mapping.sourceExpression?.predicate, predicate != SourceExpression.noFilter {
            filter = "modelc_filter(\(try functions.register(filter: mapping, entity: sourceName)), s.Z_PK)"
        }
        let keys = try recordingFailures {
            try context.associations.associateInOrder(
                mapping: index, sourceTable: "modelc_source.\(source.table)", number: source.number, filter: filter,
                entities: (sourceName, destinationName), base: base)
        }
        let rows = keys.rows
        var columns = ["Z_PK", "Z_ENT", "Z_OPT"], values = [rows.key, String(destination.number), "1"]
        var arguments = [DatabaseValue]()
        let byName = Dictionary(mapping.attributeMappings.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        for attribute in context.destination.entities.attributes(of: destinationEntity) {
            guard let column = destination.columns[attribute.name] else { continue }
            guard let value = try value(of: attribute, byName[attribute.name], source: source, sourceName: sourceName, arguments: &arguments) else { continue }
            columns.append(column)
            values.append(value)
        }
        for link in try earlyLinks() {
            let target = try context.associations.destinationKeySQL(of: "s.\(link.sourceKey)", mapping: link.target)
            columns.append(link.column)
            values.append(target)
            if let entityColumn = link.entityColumn {
                columns.append(entityColumn)
                values.append("CASE WHEN \(target) IS NULL THEN NULL ELSE \(link.number) END")
            }
        }
        try recordingFailures {
            try db.execute(
                sql: """
                    INSERT INTO main.\(destination.table) (\(columns.joined(separator: ", "))) SELECT \(values.joined(separator: ", "))
                    \(rows.from)
                    """,
                arguments: StatementArguments(arguments))
        }
        try context.destination.claimPrimaryKeys(upTo: base + Int64(keys.count), forTableOf: destinationName)
        return keys.count
    }

    /// Runs statements that may call the SQL functions: their failure, with its class, is what
    /// is thrown.
    private func recordingFailures<T>(_ body: () throws -> T) throws -> T {
        let result: T
        do {
            result = try body()
        } catch {
            try functions.check()
            throw error
        }
        try functions.check()
        return result
    }

    /// The SQL of one destination attribute's value over the source row `s`: a column, a bound
    /// constant, its default, or `modelc_value(…)`; nil to leave the column empty.
    private func value(
        of attribute: Attribute, _ property: PropertyMapping?, source: EntityLayout, sourceName: String, arguments: inout [DatabaseValue]
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
        // The source attributes the expression reads are passed along, so the evaluator does not
        // read them again.
        let keys = Self.sourceKeys(in: node).filter { context.source.attribute($0, of: sourceName) != nil && source.columns[$0] != nil }.sorted()
        let number = functions.register(value: property, node: node, attribute: attribute, mapping: mapping, entity: sourceName, passing: keys)
        return "modelc_value(\(([String(number), "s.Z_PK"] + keys.compactMap { source.columns[$0].map { "s.\($0)" } }).joined(separator: ", ")))"
    }

    /// The first keys of the `$source` key paths of an expression.
    private static func sourceKeys(in node: ExpressionNode) -> Set<String> {
        switch node {
        case .keyPath(.variable("source"), let path):
            return [String(path.split(separator: ".").first ?? "")]
        case .keyPath(let operand, _):
            return sourceKeys(in: operand)
        case .function(let operand, _, let arguments):
            return arguments.reduce(operand.map(sourceKeys) ?? []) { $0.union(sourceKeys(in: $1)) }
        case .aggregate(let elements):
            return elements.reduce([]) { $0.union(sourceKeys(in: $1)) }
        case .evaluatedObject, .constant, .variable, .value, .subquery:
            return []
        }
    }

    /// Whether a column of type `old` holds exactly what one of type `new` would.
    private static func sameStorage(_ old: AttributeType, _ new: AttributeType) -> Bool {
        old == new || (old.isInteger && new.isInteger && old != .boolean && new != .boolean)
    }

    // MARK: - Relationships

    /// The to-one relationship mappings as (destination column, entity column and number, source
    /// foreign key, target mapping), when every relationship mapping is of that kind; else nil.
    func toOneLinks() throws -> [Link]? {
        guard (mapping.policyClassName ?? "").isEmpty, let sourceName = mapping.sourceEntityName, let destinationName = mapping.destinationEntityName,
            let source = context.source.layout.entity(named: sourceName), let destination = context.destination.layout.entity(named: destinationName)
        else { return nil }
        var links = [Link]()
        for property in mapping.relationshipMappings {
            guard let node = try context.parsed(property) else { continue }
            if try isSetFromItsInverse(property, node: node, sourceName: sourceName, destinationName: destinationName) { continue }
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
            links.append(Link(column: column, entityColumn: destination.entityColumns[property.name], number: number, sourceKey: sourceKey, target: target))
        }
        return links
    }

    /// Whether a to-many relationship mapping names exactly the links its to-one inverse's
    /// mapping sets: `books = destinationInstances("BookToBook", $source.books)` here and
    /// `author = destinationInstances("<this mapping>", $source.author)` in `BookToBook`, with
    /// `books`/`author` inverses on both sides, `books` unordered (an ordered one also writes its
    /// order column) and no policy on `BookToBook` to change its relationship pass. Setting one side sets the other (the foreign key of the to-one), so
    /// the links are set once, from the to-one side, instead of once per instance here.
    private func isSetFromItsInverse(_ property: PropertyMapping, node: ExpressionNode, sourceName: String, destinationName: String) throws -> Bool {
        let lookup = "destinationInstancesForEntityMappingNamed:sourceInstances:"
        guard case .function(.variable("manager")?, lookup, let arguments) = node, arguments.count == 2,
            case .constant(.string(let targetName)) = arguments[0], case .keyPath(.variable("source"), let key) = arguments[1],
            let old = context.source.entities.relationship(named: key, in: sourceName), old.isToMany,
            let oldInverse = context.source.entities.inverse(of: old), !oldInverse.isToMany,
            let new = context.destination.entities.relationship(named: property.name, in: destinationName), new.isToMany, !new.isOrdered,
            let newInverse = context.destination.entities.inverse(of: new), !newInverse.isToMany,
            let target = try? context.index(ofMapping: targetName), target != index
        else { return false }
        let targetMapping = context.mappingModel.entityMappings[target]
        guard (targetMapping.policyClassName ?? "").isEmpty,
            let back = targetMapping.relationshipMappings.first(where: { $0.name == newInverse.name }),
            case .function(.variable("manager")?, lookup, let backArguments)? = try context.parsed(back), backArguments.count == 2
        else { return false }
        return backArguments[0] == .constant(.string(mapping.name))
            && backArguments[1] == .keyPath(operand: .variable("source"), path: oldInverse.name)
    }

    /// The to-one links whose target mapping has already created its instances, set by the
    /// insert itself: only when no mapping of the model has a policy, since a policy could
    /// still associate more instances with the target mapping before pass 2.
    private func earlyLinks() throws -> [Link] {
        guard context.mappingModel.entityMappings.allSatisfy({ ($0.policyClassName ?? "").isEmpty }) else { return [] }
        return try toOneLinks()?.filter { $0.target < index } ?? []
    }

    /// Sets the to-one links in SQL (those the insert did not set); returns how many are set.
    func createRelationships(_ links: [Link]) throws -> Int {
        guard let sourceName = mapping.sourceEntityName, let destinationName = mapping.destinationEntityName,
            let source = context.source.layout.entity(named: sourceName), let destination = context.destination.layout.entity(named: destinationName)
        else { return 0 }
        var set = 0
        let mine = context.associations.createdSQL(mapping: index)
        let early = Set(try earlyLinks().map(\.column))
        for link in links {
            if !early.contains(link.column) { try update(link, source: source, destination: destination, mine: mine) }
            set += try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM main.\(destination.table) WHERE Z_ENT = \(destination.number) AND \(link.column) IS NOT NULL AND \(mine)") ?? 0
        }
        return set
    }

    /// One to-one link set by one `UPDATE` of the mapping's rows.
    private func update(_ link: Link, source: EntityLayout, destination: EntityLayout, mine: String) throws {
        let target = try context.associations.destinationKeySQL(of: "s.\(link.sourceKey)", mapping: link.target)
        let origin = context.associations.ranked(index)?.sourceRowSQL(of: "main.\(destination.table).Z_PK") ?? """
            FROM temp.modelc_association a JOIN modelc_source.\(source.table) s ON s.Z_PK = a.source_key
            WHERE a.mapping = \(index) AND a.destination_key = main.\(destination.table).Z_PK ORDER BY a.rowid LIMIT 1
            """
        try db.execute(sql: "UPDATE main.\(destination.table) SET \(link.column) = (SELECT \(target) \(origin)) WHERE Z_ENT = \(destination.number) AND \(mine)")
        if let entityColumn = link.entityColumn {
            try db.execute(sql: "UPDATE main.\(destination.table) SET \(entityColumn) = CASE WHEN \(link.column) IS NULL THEN NULL ELSE \(link.number) END WHERE Z_ENT = \(destination.number) AND \(mine)")
        }
    }
}
