import GRDB
import ModelArchive
import ModelSchema
import ModelStore

/// What a step drops, counted in the store's data before it runs, and the indexes and
/// bookkeeping that end every step.
extension StepBuilder {
    // MARK: Counting what is dropped

    /// Counts the links a to-many relationship that becomes a to-one loses: every link of an
    /// object beyond the one kept, from the join table or the inverse's foreign keys.
    mutating func countCollapsedLinks() throws {
        for entity in mapping.entities {
            guard let source = entity.source else { continue }
            for property in entity.properties where property.isRelationship && property.dropsData && property.destination != nil {
                guard let name = property.source, sourceDeclaringEntity(name, of: source) == source,
                    let relationship = sourceRelationship(name, of: source)
                else { continue }
                let extra: Int
                if let (table, own, _) = sourceJoin(entity: source, relationship: name) {
                    extra = try count("SELECT COUNT(*) - COUNT(DISTINCT \(own)) FROM \(quoted(table))")
                } else if let (table, column) = inverseForeignKey(of: relationship) {
                    extra = try count("SELECT COUNT(\(column)) - COUNT(DISTINCT \(column)) FROM \(quoted(table))")
                } else {
                    continue
                }
                step.dropped.append(DroppedValues(entity: source, property: name, count: extra))
            }
        }
    }

    /// Counts, in one scan of the source table, the rows a rewrite copies, the values of the
    /// columns nothing takes over and the rows of removed entities; returns the rows copied. A
    /// table changed in place drops nothing and is not scanned.
    mutating func countTable(_ plan: TablePlan, sourceTable: String) throws -> Int {
        let consumed = Set(plan.values.values.flatMap(\.readColumns)).union(
            foreignKeysMovedToJoinTables().filter { $0.table == sourceTable }.map(\.column))
        // Order and entity-number columns hold no values of their own.
        let dropped = actual.table(named: sourceTable)!.columns.dropFirst(3).map(\.name).filter { name in
            !consumed.contains(name) && !name.hasPrefix("Z_FOK_") && name.range(of: #"^Z\d+_"#, options: .regularExpression) == nil
        }
        let removed = sourceLayout.entities.filter { $0.table == sourceTable && !plan.sourceNumbers.contains($0.number) }
        guard plan.rewrite || !dropped.isEmpty || !removed.isEmpty else { return 0 }
        // When every row is kept, plain counts: SQLite counts them faster than conditional ones.
        let aggregates =
            removed.isEmpty
            ? ["COUNT(*)"] + dropped.map { "COUNT(\($0))" }
            : ["COUNT(CASE WHEN Z_ENT IN (\(list(plan.sourceNumbers))) THEN 1 END)"]
                + dropped.map { "COUNT(CASE WHEN Z_ENT IN (\(list(plan.sourceNumbers))) THEN \($0) END)" }
                + removed.map { "COUNT(CASE WHEN Z_ENT = \($0.number) THEN 1 END)" }
        let counts = try Row.fetchOne(db, sql: "SELECT \(aggregates.joined(separator: ", ")) FROM \(quoted(sourceTable))")
            .map { row in
                let checked = CheckedRow(row, table: sourceTable, in: db)
                return try aggregates.indices.map { try checked.required($0, aggregates[$0], as: Int.self) }
            } ?? Array(repeating: 0, count: aggregates.count)
        for (index, column) in dropped.enumerated() {
            let owner = sourceLayout.entities.first { $0.table == sourceTable && $0.columns.values.contains(column) }
            let property = owner?.columns.first { $0.value == column }?.key
            step.dropped.append(DroppedValues(entity: owner?.name ?? sourceTable, property: property ?? column, count: counts[1 + index]))
        }
        for (index, entity) in removed.enumerated() {
            step.dropped.append(DroppedValues(entity: entity.name, property: nil, count: counts[1 + dropped.count + index]))
        }
        return counts[0]
    }

    mutating func countRemovedTable(_ table: String) throws {
        guard actual.table(named: table) != nil else { return }
        for entity in sourceLayout.entities where entity.table == table {
            let rows = try count("SELECT COUNT(*) FROM \(quoted(table)) WHERE Z_ENT = \(entity.number)")
            step.dropped.append(DroppedValues(entity: entity.name, property: nil, count: rows))
        }
    }

    // MARK: Indexes and bookkeeping

    /// Drops the indexes of kept tables the destination does not have as they are and creates
    /// the ones missing; a table that gets an index counts as written.
    mutating func indexStatements(_ plans: [TablePlan]) -> [MigrationStatement] {
        var statements = [MigrationStatement]()
        let kept = Set(plans.filter { !$0.rewrite && $0.sourceTable != nil }.map(\.table.name))
            .union(destinationLayout.joinTables.map(\.table.name).filter { name in actual.table(named: name) != nil && !step.rewrittenTables.contains(name) })
        let wanted = Dictionary(destinationLayout.schema.indexes.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        for index in actual.indexes where kept.contains(index.table) && wanted[index.name]?.normalizedSQL != index.normalizedSQL {
            statements.append(MigrationStatement(sql: "DROP INDEX \(quoted(index.name))", purpose: "drop index \(index.name)"))
        }
        for index in destinationLayout.schema.indexes {
            let present = kept.contains(index.table) && actual.index(named: index.name)?.normalizedSQL == index.normalizedSQL
            guard !present else { continue }
            statements.append(MigrationStatement(sql: index.sql, purpose: "create index \(index.name)"))
            step.writtenTables.append(index.table)
        }
        return statements
    }

    func bookkeepingStatements() -> [MigrationStatement] {
        var statements = [
            MigrationStatement(
                sql: "DELETE FROM Z_PRIMARYKEY WHERE Z_ENT < \(PersistentHistoryLayout.firstEntityNumber)",
                purpose: "renumber entities (Core Data's history entities keep their rows)")
        ]
        for entity in destinationLayout.entities {
            let maximum: String
            if entity.superNumber == 0 {
                let old = mapping.mapping(forDestination: entity.name)?.source
                    .flatMap { sourceLayout.entity(named: $0) }
                    .map { sourceRoot($0) }
                let previous = old.map { "(SELECT Z_MAX FROM Z_MODELC_OLD_PRIMARYKEY WHERE Z_NAME = '\($0.replacingOccurrences(of: "'", with: "''"))')" } ?? "0"
                maximum = "MAX(IFNULL(\(previous), 0), IFNULL((SELECT MAX(Z_PK) FROM \(entity.table)), 0))"
            } else {
                maximum = "0"
            }
            statements.append(
                MigrationStatement(
                    sql: "INSERT INTO Z_PRIMARYKEY (Z_ENT, Z_NAME, Z_SUPER, Z_MAX) VALUES (\(entity.number), '\(entity.name.replacingOccurrences(of: "'", with: "''"))', \(entity.superNumber), \(maximum))",
                    purpose: "entity \(entity.name)"))
        }
        statements += historyStatements()
        return [MigrationStatement(sql: "CREATE TEMP TABLE Z_MODELC_OLD_PRIMARYKEY AS SELECT * FROM Z_PRIMARYKEY", purpose: "keep the old primary key counters")]
            + statements + [MigrationStatement(sql: "DROP TABLE temp.Z_MODELC_OLD_PRIMARYKEY", purpose: "done with the old counters")]
    }

    /// In a store that tracks persistent history, the entity numbers its changes record follow
    /// the entities to their new numbers.
    func historyStatements() -> [MigrationStatement] {
        guard PersistentHistoryLayout.isPresent(in: actual) else { return [] }
        let moves = sourceLayout.entities.compactMap { source -> (Int, Int)? in
            guard let destination = mapping.entities.first(where: { $0.source == source.name })?.destination,
                let number = destinationLayout.entity(named: destination)?.number, number != source.number
            else { return nil }
            return (source.number, number)
        }
        guard !moves.isEmpty else { return [] }
        let cases = moves.map { "WHEN \($0.0) THEN \($0.1)" }.joined(separator: " ")
        return [
            MigrationStatement(
                sql: "UPDATE ACHANGE SET ZENTITY = CASE ZENTITY \(cases) ELSE ZENTITY END WHERE ZENTITY IN (\(moves.map { String($0.0) }.joined(separator: ", ")))",
                purpose: "renumber the entities of recorded history")
        ]
    }

    /// The name `Z_PRIMARYKEY` has for the root of a source entity's hierarchy.
    func sourceRoot(_ entity: EntityLayout) -> String {
        var current = entity
        while current.superNumber != 0, let parent = sourceLayout.entities.first(where: { $0.number == current.superNumber }) {
            current = parent
        }
        return actual.entities.first { $0.number == current.number }?.name ?? current.name
    }
}
