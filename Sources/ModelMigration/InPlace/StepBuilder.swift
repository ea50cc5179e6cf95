import Foundation
import GRDB
import ModelArchive
import ModelSchema
import ModelStore

/// Turns one inferred mapping into the SQL that migrates a store in place, reading the store's
/// actual schema and counting, before anything runs, the rows the statements touch and the
/// values they drop.
///
/// A table whose rows keep their entity numbers and columns is changed in place (`RENAME
/// COLUMN`, `ADD COLUMN`, `UPDATE` for defaults), so a purely additive change never rewrites it.
/// A table whose rows, columns and entity numbers do not change is not touched at all. Any other
/// table is rebuilt once: the old one is renamed aside, the destination table is created with
/// Core Data's DDL and filled with one `INSERT … SELECT`, and the old one is dropped. Join
/// tables follow their relationships; an existing table whose name a new table takes is moved
/// aside first, so no statement creates a table that exists. Values are ``SQLValue``s, rendered
/// to SQL once. Indexes, `Z_PRIMARYKEY`, metadata and model cache end as `store create` would
/// make them for the destination.
struct StepBuilder {
    let db: Database
    let mapping: InferredMapping

    private let sourceLayout: StoreLayout
    private let destinationLayout: StoreLayout
    private let sourceEntities: EntityHierarchy
    private let destinationEntities: EntityHierarchy
    private let actual: StoreSchema

    private(set) var step: MigrationStep
    private var renamePhase: [MigrationStatement] = []
    private var buildPhase: [MigrationStatement] = []
    private var dropPhase: [MigrationStatement] = []
    /// Source tables renamed aside: original name → temporary name.
    private var asideNames: [String: String] = [:]
    /// Source join tables whose rows went somewhere.
    private var consumedJoinTables: Set<String> = []

    init(db: Database, source: ModelVersion, destination: ModelVersion, mapping: InferredMapping, framework: FrameworkVersion) throws {
        self.db = db
        self.mapping = mapping
        sourceLayout = StoreLayout(source, framework: framework)
        destinationLayout = StoreLayout(destination, framework: framework)
        sourceEntities = EntityHierarchy(source)
        destinationEntities = EntityHierarchy(destination)
        actual = try StoreSchema.read(from: db)
        step = MigrationStep(source: source.name, destination: destination.name, mapping: mapping)
    }

    /// Plans the whole step: statements in the order they run, with the counts.
    mutating func build() throws {
        let plans = try destinationTablePlans()
        for plan in plans where plan.rewrite {
            if let table = plan.sourceTable { setAside(table) }
        }
        for table in Set(sourceLayout.entities.map(\.table)).sorted() where !plans.contains(where: { $0.sourceTable == table }) {
            try countRemovedTable(table)
            setAside(table)
        }
        let keptJoins = keptJoinTables()
        for join in destinationLayout.joinTables where !keptJoins.contains(join.table.name) {
            setAside(join.table.name)
        }
        for plan in plans {
            consumedJoinTables.formUnion(plan.values.values.flatMap(\.linkTables))
            try apply(plan)
        }
        try buildJoinTables(kept: keptJoins)
        try countCollapsedLinks()
        for join in sourceLayout.joinTables {
            guard let name = actualJoinTableName(join), !consumedJoinTables.contains(name) else { continue }
            let rows = try count("SELECT COUNT(*) FROM \(quoted(name))")
            step.dropped.append(DroppedValues(entity: join.entity, property: join.relationship, count: rows))
            if asideNames[name] == nil {
                dropPhase.append(MigrationStatement(sql: "DROP TABLE \(quoted(name))", purpose: "remove relationship '\(join.relationship)' of '\(join.entity)'"))
            }
        }
        for (original, aside) in asideNames.sorted(by: { $0.key < $1.key }) {
            dropPhase.append(MigrationStatement(sql: "DROP TABLE \(quoted(aside))", purpose: "drop the old \(original)"))
        }
        step.statements = renamePhase + buildPhase + dropPhase + indexStatements(plans) + bookkeepingStatements()
    }

    // MARK: Entity tables

    /// How one destination entity table is made.
    private struct TablePlan {
        var table: StoreTable
        var sourceTable: String?
        var rewrite: Bool
        /// Destination column → its value over the source table's row.
        var values: [String: SQLValue]
        /// Source entity numbers whose rows the table keeps.
        var sourceNumbers: [Int]
        var entityNumbers: [Int: Int]
    }

    private func destinationTablePlans() throws -> [TablePlan] {
        var plans = [TablePlan]()
        for table in destinationLayout.schema.tables where destinationLayout.entities.contains(where: { $0.table == table.name }) {
            let members = destinationLayout.entities.filter { $0.table == table.name }
            let pairs = members.compactMap { member -> (EntityLayout, EntityLayout)? in
                guard let name = mapping.mapping(forDestination: member.name)?.source, let old = sourceLayout.entity(named: name) else { return nil }
                return (member, old)
            }
            guard let sourceTable = pairs.first?.1.table else {
                plans.append(TablePlan(table: table, sourceTable: nil, rewrite: false, values: [:], sourceNumbers: [], entityNumbers: [:]))
                continue
            }
            guard pairs.allSatisfy({ $0.1.table == sourceTable }) else {
                throw MigrationError.unsupported("'\(table.name)' would take rows from several tables")
            }
            guard actual.table(named: sourceTable) != nil else {
                throw MigrationError.schemaMismatch("the store has no table \(sourceTable)")
            }
            var numbers = [Int: Int]()
            for (new, old) in pairs { numbers[old.number] = new.number }
            var values = [String: SQLValue]()
            for column in table.columns.dropFirst(3) {
                values[column.name] = try value(of: column.name, members: members, pairs: pairs, sourceTable: sourceTable)
            }
            let sourceMembers = sourceLayout.entities.filter { $0.table == sourceTable }
            let keepsNumbers = numbers.allSatisfy { $0.key == $0.value } && sourceMembers.count == pairs.count
            let consumed = Set(values.values.flatMap(\.readColumns))
            let sourceColumns = actual.table(named: sourceTable)!.columns.dropFirst(3).map(\.name)
            let inPlace =
                sourceTable == table.name && keepsNumbers && sourceColumns.allSatisfy(consumed.contains)
                && values.allSatisfy { column, value in isInPlace(column: column, value: value, table: table, sourceTable: sourceTable) }
            plans.append(
                TablePlan(
                    table: table, sourceTable: sourceTable, rewrite: !inPlace, values: values,
                    sourceNumbers: pairs.map(\.1.number).sorted(), entityNumbers: numbers))
        }
        return plans
    }

    /// Whether a column can get its value without rewriting the table: kept or renamed as is,
    /// new, or filled by an `UPDATE` of itself.
    private func isInPlace(column: String, value: SQLValue, table: StoreTable, sourceTable: String) -> Bool {
        let existing = actual.table(named: sourceTable)!
        switch value {
        case .null, .literal:
            return existing.column(named: column) == nil
        case .column(let name):
            guard let old = existing.column(named: name) else { return false }
            return old.type == table.column(named: column)?.type && (name == column || existing.column(named: column) == nil)
        case .coalesce(let name, _):
            return name == column && existing.column(named: column) != nil
        default:
            return false
        }
    }

    private mutating func apply(_ plan: TablePlan) throws {
        guard let sourceTable = plan.sourceTable else {
            buildPhase.append(MigrationStatement(sql: plan.table.sql, purpose: "create \(plan.table.name)"))
            return
        }
        let rows = try countTable(plan, sourceTable: sourceTable)
        let keepsAllRows = sourceLayout.entities.filter { $0.table == sourceTable }.allSatisfy { plan.sourceNumbers.contains($0.number) }
        if plan.rewrite {
            let from = asideNames[sourceTable] ?? sourceTable
            step.rowsTouched += rows
            step.rewrittenTables.append(plan.table.name)
            let columns = plan.table.columns.map(\.name)
            let entity = SQLValue.entityNumber("Z_ENT", mappedBy: plan.entityNumbers)
            let expressions = [.column("Z_PK"), entity, .column("Z_OPT")] + columns.dropFirst(3).map { plan.values[$0] ?? .null }
            buildPhase.append(MigrationStatement(sql: plan.table.sql, purpose: "create \(plan.table.name) as the destination defines it"))
            buildPhase.append(
                MigrationStatement(
                    sql: "INSERT INTO \(plan.table.name) (\(columns.joined(separator: ", "))) SELECT \(expressions.map(render).joined(separator: ", ")) FROM \(quoted(from)) AS s\(keepsAllRows ? "" : " WHERE Z_ENT IN (\(list(plan.sourceNumbers)))")",
                    purpose: "copy \(rows) rows into \(plan.table.name)"))
            return
        }
        let existing = actual.table(named: sourceTable)!
        for column in plan.table.columns.dropFirst(3) {
            let value = plan.values[column.name] ?? .null
            if case .column(let old) = value, old != column.name {
                buildPhase.append(
                    MigrationStatement(sql: "ALTER TABLE \(plan.table.name) RENAME COLUMN \(old) TO \(column.name)", purpose: "rename \(old)"))
            } else if existing.column(named: column.name) == nil {
                buildPhase.append(
                    MigrationStatement(sql: "ALTER TABLE \(plan.table.name) ADD COLUMN \(column.name) \(column.type)", purpose: "add \(column.name)"))
            }
        }
        for column in plan.table.columns.dropFirst(3) {
            // A default fills every row of a new column, or the empty values of a kept one.
            let (value, condition): (StoredDefault, String)
            switch plan.values[column.name] {
            case .literal(let constant)?: (value, condition) = (constant, "")
            case .coalesce(_, let fallback)?: (value, condition) = (fallback, " WHERE \(column.name) IS NULL")
            default: continue
            }
            let rows = try count("SELECT COUNT(*) FROM \(plan.table.name)\(condition)")
            guard rows > 0 else { continue }
            step.rowsTouched += rows
            buildPhase.append(
                MigrationStatement(sql: "UPDATE \(plan.table.name) SET \(column.name) = \(value.sql)\(condition)", purpose: "set \(column.name) in \(rows) rows"))
        }
    }

    /// The value of a destination column for each kind of row, over the source table.
    private func value(of column: String, members: [EntityLayout], pairs: [(EntityLayout, EntityLayout)], sourceTable: String) throws -> SQLValue {
        var byNumber = [SQLValue.EntityValue]()
        for (new, old) in pairs {
            guard let expression = try expression(for: column, in: new, from: old) else { continue }
            byNumber.append(.init(number: old.number, value: expression))
        }
        guard let first = byNumber.first?.value else { return .null }
        // A plain source column is empty in rows of entities that lack it; anything else (a
        // default, a computed value) must be limited to the rows of entities that have it.
        var isPlainColumn = false
        if case .column(let name) = first { isPlainColumn = actual.table(named: sourceTable)?.column(named: name) != nil }
        if Set(byNumber.map(\.value)).count == 1 && (byNumber.count == pairs.count || isPlainColumn) { return first }
        return .perEntity(byNumber)
    }

    /// The value of `column` for rows of the source entity `old`, now `new`; `nil` when `new` does
    /// not have the column.
    private func expression(for column: String, in new: EntityLayout, from old: EntityLayout) throws -> SQLValue? {
        if let property = new.columns.first(where: { $0.value == column })?.key {
            guard let entity = destinationEntities.entity(named: new.name) else { return .null }
            if let attribute = destinationEntities.attributes(of: entity).first(where: { $0.name == property }) {
                return attributeValue(attribute, in: new, from: old)
            }
            return try foreignKeyValue(property, in: new, from: old)
        }
        if let property = new.entityColumns.first(where: { $0.value == column })?.key {
            return try entityColumnValue(property, in: new, from: old)
        }
        if let property = new.orderColumns.first(where: { $0.value == column })?.key {
            guard let name = sourceName(of: property, in: new.name) else { return .column("Z_PK") }
            return .column(old.orderColumns[name] ?? "Z_PK")
        }
        return nil
    }

    private func attributeValue(_ attribute: Attribute, in new: EntityLayout, from old: EntityLayout) -> SQLValue {
        let defaultValue = StoredDefault(of: attribute)
        guard let name = sourceName(of: attribute.name, in: new.name), let column = old.columns[name] else {
            return defaultValue.map(SQLValue.literal) ?? .null
        }
        let becameRequired = !attribute.isOptional && (sourceAttribute(name, of: old.name)?.isOptional ?? false)
        if becameRequired, let defaultValue { return .coalesce(column, defaultValue) }
        return .column(column)
    }

    private func foreignKeyValue(_ relationship: String, in new: EntityLayout, from old: EntityLayout) throws -> SQLValue {
        guard let name = sourceName(of: relationship, in: new.name), let oldRelationship = sourceRelationship(name, of: old.name) else {
            return .null
        }
        if !oldRelationship.isToMany, let column = old.columns[name] { return .column(column) }
        if oldRelationship.isToMany, let (table, own, other) = sourceJoin(entity: old.name, relationship: name) {
            return .firstLink(table: table, own: own, other: other)
        }
        if oldRelationship.isToMany, let (table, key) = inverseForeignKey(of: oldRelationship) {
            // The links were kept on the other side (its to-one); take one of them.
            return .firstOwner(table: table, column: key)
        }
        throw MigrationError.unsupported("relationship '\(relationship)' of '\(new.name)' changes how it is stored")
    }

    /// The table and foreign key of a to-many relationship's to-one inverse, where its links are.
    private func inverseForeignKey(of relationship: Relationship) -> (table: String, column: String)? {
        guard let inverse = relationship.inverseName,
            let owner = sourceDeclaringEntity(inverse, of: relationship.destinationEntityName),
            let inverseRelationship = sourceRelationship(inverse, of: owner), !inverseRelationship.isToMany,
            let ownerLayout = sourceLayout.entity(named: owner), let key = ownerLayout.columns[inverse]
        else { return nil }
        return (ownerLayout.table, key)
    }

    private func entityColumnValue(_ relationship: String, in new: EntityLayout, from old: EntityLayout) throws -> SQLValue {
        let key = try foreignKeyValue(relationship, in: new, from: old)
        guard let name = sourceName(of: relationship, in: new.name) else { return .null }
        if let column = old.entityColumns[name] {
            return .entityNumber(column, mappedBy: entityNumberMap())
        }
        guard let relationship = sourceRelationship(name, of: old.name),
            let target = mapping.entities.first(where: { $0.source == relationship.destinationEntityName })?.destination,
            let number = destinationLayout.entity(named: target)?.number
        else { return .null }
        return .numberWhereSet(key, number)
    }

    // MARK: Join tables

    /// The destination join tables the store already has as they must be: same name, same
    /// columns, the same relationship's links. They stay as they are.
    private func keptJoinTables() -> Set<String> {
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
    private mutating func buildJoinTables(kept: Set<String>) throws {
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
    private func foreignKeyLink(for join: JoinTableLayout) -> (table: String, key: String, numbers: [Int], ownerIsSource: Bool)? {
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
    private func foreignKeysMovedToJoinTables() -> [(table: String, column: String)] {
        destinationLayout.joinTables.compactMap { foreignKeyLink(for: $0) }.map { ($0.table, $0.key) }
    }

    /// The actual join table of a source to-many relationship and its columns: the one holding
    /// the relationship's owners and the one holding its destinations.
    private func sourceJoin(entity: String, relationship: String) -> (table: String, own: String, other: String)? {
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
    private func actualJoinTableName(_ join: JoinTableLayout) -> String? {
        actual.table(named: join.table.name)?.name ?? actual.table(withColumnsOf: join.table)?.name
    }

    // MARK: Counting what is dropped

    /// Counts the links a to-many relationship that becomes a to-one loses: every link of an
    /// object beyond the one kept, from the join table or the inverse's foreign keys.
    private mutating func countCollapsedLinks() throws {
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
    private mutating func countTable(_ plan: TablePlan, sourceTable: String) throws -> Int {
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
            .map { row in (0..<aggregates.count).map { row[$0] as Int } } ?? Array(repeating: 0, count: aggregates.count)
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

    private mutating func countRemovedTable(_ table: String) throws {
        guard actual.table(named: table) != nil else { return }
        for entity in sourceLayout.entities where entity.table == table {
            let rows = try count("SELECT COUNT(*) FROM \(quoted(table)) WHERE Z_ENT = \(entity.number)")
            step.dropped.append(DroppedValues(entity: entity.name, property: nil, count: rows))
        }
    }

    // MARK: Indexes and bookkeeping

    private func indexStatements(_ plans: [TablePlan]) -> [MigrationStatement] {
        var statements = [MigrationStatement]()
        let kept = Set(plans.filter { !$0.rewrite && $0.sourceTable != nil }.map(\.table.name))
            .union(destinationLayout.joinTables.map(\.table.name).filter { name in actual.table(named: name) != nil && !step.rewrittenTables.contains(name) })
        let wanted = Dictionary(destinationLayout.schema.indexes.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        for index in actual.indexes where kept.contains(index.table) && wanted[index.name]?.normalizedSQL != index.normalizedSQL {
            statements.append(MigrationStatement(sql: "DROP INDEX \(quoted(index.name))", purpose: "drop index \(index.name)"))
        }
        for index in destinationLayout.schema.indexes {
            let present = kept.contains(index.table) && actual.index(named: index.name)?.normalizedSQL == index.normalizedSQL
            if !present { statements.append(MigrationStatement(sql: index.sql, purpose: "create index \(index.name)")) }
        }
        return statements
    }

    private func bookkeepingStatements() -> [MigrationStatement] {
        var statements = [MigrationStatement(sql: "DELETE FROM Z_PRIMARYKEY", purpose: "renumber entities")]
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
        return [MigrationStatement(sql: "CREATE TEMP TABLE Z_MODELC_OLD_PRIMARYKEY AS SELECT * FROM Z_PRIMARYKEY", purpose: "keep the old primary key counters")]
            + statements + [MigrationStatement(sql: "DROP TABLE temp.Z_MODELC_OLD_PRIMARYKEY", purpose: "done with the old counters")]
    }

    /// The name `Z_PRIMARYKEY` has for the root of a source entity's hierarchy.
    private func sourceRoot(_ entity: EntityLayout) -> String {
        var current = entity
        while current.superNumber != 0, let parent = sourceLayout.entities.first(where: { $0.number == current.superNumber }) {
            current = parent
        }
        return actual.entities.first { $0.number == current.number }?.name ?? current.name
    }

    // MARK: Helpers

    private mutating func setAside(_ table: String) {
        guard asideNames[table] == nil, actual.table(named: table) != nil else { return }
        let aside = "Z_MODELC_OLD_\(table)"
        asideNames[table] = aside
        renamePhase.append(MigrationStatement(sql: "ALTER TABLE \(quoted(table)) RENAME TO \(aside)", purpose: "set \(table) aside"))
    }

    private func entityNumberMap() -> [Int: Int] {
        var result = [Int: Int]()
        for entity in mapping.entities {
            guard let from = entity.source.flatMap({ sourceLayout.entity(named: $0) }),
                let to = entity.destination.flatMap({ destinationLayout.entity(named: $0) })
            else { continue }
            result[from.number] = to.number
        }
        return result
    }

    private func sourceName(of property: String, in destinationEntity: String) -> String? {
        mapping.mapping(forDestination: destinationEntity)?.properties.first { $0.destination == property }?.source
    }

    private func sourceAttribute(_ name: String, of entity: String) -> Attribute? {
        sourceEntities.entity(named: entity).flatMap { sourceEntities.attributes(of: $0).first { $0.name == name } }
    }

    private func sourceRelationship(_ name: String, of entity: String) -> Relationship? {
        sourceEntities.entity(named: entity).flatMap { sourceEntities.relationships(of: $0).first { $0.name == name } }
    }

    private func sourceDeclaringEntity(_ relationship: String, of entity: String) -> String? {
        sourceEntities.declaringEntity(ofRelationship: relationship, from: entity)?.name
    }

    private func isKind(source name: String, of ancestor: String) -> Bool {
        sourceEntities.isKind(name, of: ancestor)
    }

    private func count(_ sql: String) throws -> Int {
        try Int.fetchOne(db, sql: sql) ?? 0
    }

    private func list(_ numbers: [Int]) -> String {
        numbers.isEmpty ? "NULL" : numbers.map(String.init).joined(separator: ", ")
    }

    private func quoted(_ name: String) -> String { name.quotedDatabaseIdentifier }

    /// A value as SQL, naming each source table as it is when the statement runs.
    private func render(_ value: SQLValue) -> String {
        value.sql { (asideNames[$0] ?? $0).quotedDatabaseIdentifier }
    }
}
