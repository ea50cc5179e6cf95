import GRDB
import ModelArchive
import ModelSchema
import ModelStore

/// Join tables: kept, rebuilt from their old links, or filled from foreign keys.
extension StepBuilder {
    // MARK: Join tables

    /// The destination join tables the store already has as they must be: same name, same
    /// columns, the same relationship's links. They stay as they are.
    func keptJoinTables() -> Set<String> {
        var kept = Set<String>()
        for join in destinationLayout.joinTables {
            guard let source = mapping.mapping(forDestination: join.entity)?.source,
                let name = sourceName(of: join.relationship, in: join.entity),
                sourceRelationship(name, of: source)?.isToMany == true,
                let (table, own, other) = sourceJoin(entity: source, relationship: name),
                table == join.table.name, own == join.sourceColumn, other == join.destinationColumn,
                actual.table(named: table)?.columns.map(\.name) == join.table.columns.map(\.name)
            else { continue }
            kept.insert(table)
        }
        return kept
    }

    /// Makes every destination join table that is not `kept`, from the links wherever the source
    /// kept them; tables in the way were set aside before.
    mutating func buildJoinTables(kept: Set<String>) throws {
        for join in destinationLayout.joinTables {
            guard let sourceA = mapping.mapping(forDestination: join.entity)?.source,
                let relationshipA = sourceName(of: join.relationship, in: join.entity),
                let oldRelationship = sourceRelationship(relationshipA, of: sourceA)
            else {
                buildPhase.append(MigrationStatement(sql: join.table.sql, purpose: "create \(join.table.name)"))
                continue
            }
            if oldRelationship.isToMany, let (table, own, other) = sourceJoin(entity: sourceA, relationship: relationshipA) {
                let existing = actual.table(named: table)
                consumedJoinTables.insert(table)
                if kept.contains(join.table.name) && table == join.table.name { continue }
                let from = asideNames[table] ?? table
                let rows = try count("SELECT COUNT(*) FROM \(quoted(table))")
                step.rowsTouched += rows
                step.rewrittenTables.append(join.table.name)
                var columns = [join.sourceColumn, join.destinationColumn]
                var values = [own, other]
                for extra in join.table.columns.map(\.name).dropFirst(2) {
                    columns.append(extra)
                    values.append(existing?.column(named: extra) != nil ? extra : "rowid")
                }
                buildPhase.append(MigrationStatement(sql: join.table.sql, purpose: "create \(join.table.name)"))
                buildPhase.append(
                    MigrationStatement(
                        sql: "INSERT INTO \(join.table.name) (\(columns.joined(separator: ", "))) SELECT \(values.joined(separator: ", ")) FROM \(quoted(from))",
                        purpose: "copy \(rows) links into \(join.table.name)"))
                if from == table { dropPhase.append(MigrationStatement(sql: "DROP TABLE \(quoted(table))", purpose: "drop the old \(table)")) }
                continue
            }
            if let link = foreignKeyLink(for: join) {
                let from = asideNames[link.table] ?? link.table
                let rows = try count("SELECT COUNT(*) FROM \(quoted(link.table)) WHERE \(link.key) IS NOT NULL AND Z_ENT IN (\(list(link.numbers)))")
                step.rowsTouched += rows
                step.writtenTables.append(join.table.name)
                let values = link.ownerIsSource ? "Z_PK, \(link.key)" : "\(link.key), Z_PK"
                buildPhase.append(MigrationStatement(sql: join.table.sql, purpose: "create \(join.table.name)"))
                buildPhase.append(
                    MigrationStatement(
                        sql: "INSERT INTO \(join.table.name) (\(join.sourceColumn), \(join.destinationColumn)) SELECT \(values) FROM \(quoted(from)) WHERE \(link.key) IS NOT NULL AND Z_ENT IN (\(list(link.numbers)))",
                        purpose: "move \(rows) links of '\(join.relationship)' into \(join.table.name)"))
                continue
            }
            guard oldRelationship.isToMany else {
                throw MigrationError.unsupported("relationship '\(join.relationship)' of '\(join.entity)' changes how it is stored")
            }
            // A to-many relationship without an inverse: modelc lays out no table for it
            // (Documentation/Stores.md), so there are no links to carry over.
            buildPhase.append(MigrationStatement(sql: join.table.sql, purpose: "create \(join.table.name)"))
        }
    }

    /// Where the links of a destination join table were kept when one side was a to-one: that
    /// side's table, its foreign key, the entity numbers of its rows, and whether it is the
    /// join table's source side.
    func foreignKeyLink(for join: JoinTableLayout) -> (table: String, key: String, numbers: [Int], ownerIsSource: Bool)? {
        for (entity, relationship, isSource) in [(join.entity, join.relationship, true), (join.inverseEntity, join.inverseRelationship, false)] {
            guard let source = mapping.mapping(forDestination: entity)?.source,
                let name = sourceName(of: relationship, in: entity),
                sourceRelationship(name, of: source)?.isToMany == false,
                let owner = sourceDeclaringEntity(name, of: source), let layout = sourceLayout.entity(named: owner),
                let key = layout.columns[name]
            else { continue }
            let numbers = sourceLayout.entities.filter { isKind(source: $0.name, of: owner) }.map(\.number)
            return (layout.table, key, numbers, isSource)
        }
        return nil
    }

    /// Source foreign keys whose links move into a destination join table (one side was a
    /// to-one): their values are carried, not dropped.
    func foreignKeysMovedToJoinTables() -> [(table: String, column: String)] {
        destinationLayout.joinTables.compactMap { foreignKeyLink(for: $0) }.map { ($0.table, $0.key) }
    }

    /// The actual join table of a source to-many relationship and its columns: the one holding
    /// the relationship's owners and the one holding its destinations.
    func sourceJoin(entity: String, relationship: String) -> (table: String, own: String, other: String)? {
        let owner = sourceDeclaringEntity(relationship, of: entity) ?? entity
        for join in sourceLayout.joinTables {
            guard let name = actualJoinTableName(join) else { continue }
            if join.entity == owner && join.relationship == relationship {
                return (name, join.sourceColumn, join.destinationColumn)
            }
            if join.inverseRelationship == relationship,
                let inverseOwner = sourceDeclaringEntity(join.inverseRelationship, of: join.inverseEntity), inverseOwner == owner
            {
                return (name, join.destinationColumn, join.sourceColumn)
            }
        }
        return nil
    }

    /// The store's name for a source join table: the expected one, or the table with the same
    /// columns (Core Data's hash order may have named it after the other side).
    func actualJoinTableName(_ join: JoinTableLayout) -> String? {
        actual.table(named: join.table.name)?.name ?? actual.table(withColumnsOf: join.table)?.name
    }
}
